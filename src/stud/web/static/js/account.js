// The account box in the top bar: register, log in, play as a guest, the balance, log out.

import { api } from './api.js';
import { h, fill } from './dom.js';
import { chips } from './format.js';

/** Your chips: the balance plus what is in front of you at tables. */
export function totalChips(account) {
  return (account?.balance ?? 0) + (account?.at_tables ?? 0);
}

export function renderAccount(el, app) {
  const account = app.account;
  if (account) {
    const guest = account.kind === 'guest';
    const atTables = account.at_tables ?? 0;
    const title = `play money: ${chips(account.balance)} in your balance${atTables ? ` and ${chips(atTables)} at tables` : ''}`;
    fill(el,
      h('span', { class: 'who' }, guest ? 'Guest ' : '', h('b', { class: 'account-name' }, account.name)),
      h('span', { class: 'balance', title }, h('span', { class: 'chip-icon' }), h('span', { class: 'balance-amount' }, chips(totalChips(account))),
        atTables ? h('small', { class: 'at-tables muted' }, ` (${chips(atTables)} at tables)`) : null),
      h('a', { class: 'btn ghost small', href: '#/hands', dataset: { do: 'my-hands' } }, 'My hands'),
      guest ? h('button', { class: 'btn primary small', dataset: { do: 'register' }, onclick: () => credentialsDialog(app, 'upgrade') }, 'Register') : null,
      h('button', { class: 'btn ghost small', dataset: { do: 'logout' }, onclick: () => logout(app) }, 'Log out'));
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
  if (app.account?.kind === 'guest' && !(await confirmGuestLogout(app))) return;
  try {
    await api.logout();
  } finally {
    app.setAccount(null);
  }
}

/** A guest's chips live only in this session: say so before they are thrown away. */
function confirmGuestLogout(app) {
  return new Promise((resolve) => {
    const dialog = h('dialog', { class: 'dialog guest-logout' },
      h('form', { method: 'dialog' },
        h('h2', {}, 'Log out of a guest account?'),
        h('p', {}, `A guest account cannot be logged into again: its ${chips(totalChips(app.account))} chips and its hands are lost. Register to keep them.`),
        h('div', { class: 'dialog-buttons' },
          h('button', { value: 'cancel', class: 'btn ghost' }, 'Cancel'),
          h('button', { value: 'register', class: 'btn primary' }, 'Register instead'),
          h('button', { value: 'logout', class: 'btn danger' }, 'Log out and lose the chips'))));
    dialog.addEventListener('close', () => {
      dialog.remove();
      if (dialog.returnValue === 'register') credentialsDialog(app, 'upgrade');
      resolve(dialog.returnValue === 'logout');
    });
    document.body.append(dialog);
    dialog.showModal();
  });
}

export function credentialsDialog(app, mode) {
  const upgrade = mode === 'upgrade';
  const register = mode === 'register' || upgrade;
  const name = h('input', { name: 'name', autocomplete: 'username', required: true, minlength: 3, maxlength: 20, pattern: '[A-Za-z0-9_\\-]{3,20}' });
  const password = h('input', { name: 'password', type: 'password', autocomplete: register ? 'new-password' : 'current-password', required: true, minlength: 6 });
  const error = h('p', { class: 'form-error', role: 'alert' });
  const submit = h('button', { class: 'btn primary', type: 'submit' }, register ? 'Create account' : 'Log in');
  const form = h('form', { class: 'credentials', dataset: { mode } },
    h('h2', {}, upgrade ? 'Register this guest account' : register ? 'Create an account' : 'Log in'),
    upgrade ? h('p', { class: 'muted' }, 'Choose a name and password: you keep this account\'s chips, seats and hands. Names are 3–20 letters, digits, “-” or “_”.') : null,
    register && !upgrade ? h('p', { class: 'muted' }, 'Names are 3–20 letters, digits, “-” or “_”. New accounts get play money.') : null,
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
      if (upgrade) {
        const account = await api.registerGuest(name.value.trim(), password.value);
        dialog.close();
        app.account = account; // the same account and session: the socket and seats stay
        app.refreshAccount();
        return;
      }
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
