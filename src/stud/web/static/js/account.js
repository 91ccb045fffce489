// The account box in the top bar: register, log in, play as a guest, the balance, log out.

import { api } from './api.js';
import { h, fill } from './dom.js';
import { chips } from './format.js';

export function renderAccount(el, app) {
  const account = app.account;
  if (account) {
    fill(el,
      h('span', { class: 'who' }, account.kind === 'guest' ? 'Guest ' : '', h('b', { class: 'account-name' }, account.name)),
      h('span', { class: 'balance', title: 'play-money balance' }, h('span', { class: 'chip-icon' }), h('span', { class: 'balance-amount' }, chips(account.balance))),
      h('button', { class: 'btn ghost small', onclick: () => logout(app) }, 'Log out'));
    return;
  }
  fill(el,
    h('button', { class: 'btn primary small', dataset: { do: 'guest' }, onclick: () => guest(app) }, 'Play as guest'),
    h('button', { class: 'btn small', dataset: { do: 'login' }, onclick: () => credentialsDialog(app, 'login') }, 'Log in'),
    h('button', { class: 'btn small', dataset: { do: 'register' }, onclick: () => credentialsDialog(app, 'register') }, 'Register'));
}

async function guest(app) {
  try {
    app.setAccount(await api.guest());
  } catch (error) {
    app.toast(error.message);
  }
}

async function logout(app) {
  try {
    await api.logout();
  } finally {
    app.setAccount(null);
  }
}

export function credentialsDialog(app, mode) {
  const register = mode === 'register';
  const name = h('input', { name: 'name', autocomplete: 'username', required: true, minlength: 3, maxlength: 20, pattern: '[A-Za-z0-9_\\-]{3,20}' });
  const password = h('input', { name: 'password', type: 'password', autocomplete: register ? 'new-password' : 'current-password', required: true, minlength: 6 });
  const error = h('p', { class: 'form-error', role: 'alert' });
  const submit = h('button', { class: 'btn primary', type: 'submit' }, register ? 'Create account' : 'Log in');
  const form = h('form', { class: 'credentials', dataset: { mode } },
    h('h2', {}, register ? 'Create an account' : 'Log in'),
    register ? h('p', { class: 'muted' }, 'Names are 3–20 letters, digits, “-” or “_”. New accounts get play money.') : null,
    h('label', {}, 'Name', name),
    h('label', {}, 'Password', password),
    error,
    h('div', { class: 'dialog-buttons' },
      h('button', { class: 'btn ghost', type: 'button', onclick: () => dialog.close() }, 'Cancel'), submit));
  const dialog = h('dialog', { class: 'dialog' }, form);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    submit.disabled = true;
    error.textContent = '';
    try {
      const account = register
        ? await api.register(name.value.trim(), password.value)
        : await api.login(name.value.trim(), password.value);
      dialog.close();
      app.setAccount(account);
    } catch (err) {
      error.textContent = err.message;
    } finally {
      submit.disabled = false;
    }
  });
  dialog.addEventListener('close', () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  name.focus();
}
