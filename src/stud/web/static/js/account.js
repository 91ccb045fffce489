// The account box in the top bar: register, log in, play as a guest, the balance, log out
// (here, or on every browser and device);
// and its dialogs (log in, register, a guest's registration, a guest logging out).

import { api } from './api.js';
import { h, fill } from './dom.js';
import { requestErrorText } from './errortext.js';
import { chips } from './format.js';
import { formatDate, t } from './i18n.js';
import { openModal, uniqueId } from './modal.js';

/** Your chips: the balance plus what is in front of you at tables. */
export function totalChips(account) {
  return (account?.balance ?? 0) + (account?.at_tables ?? 0);
}

/** Draw the account box; a button of it that had the keyboard's focus keeps it (the box is
 * drawn again after every hand one plays, to show the chips). */
export function renderAccount(el, app) {
  const focused = el.contains(document.activeElement) ? document.activeElement.dataset.do : null;
  drawAccount(el, app);
  if (focused) el.querySelector(`[data-do='${focused}']`)?.focus();
}

function drawAccount(el, app) {
  const account = app.account;
  if (account) {
    const guest = account.kind === 'guest';
    const atTables = account.at_tables ?? 0;
    const title = atTables
      ? t('account.balance_title_tables', { balance: chips(account.balance), tables: chips(atTables) })
      : t('account.balance_title', { balance: chips(account.balance) });
    fill(el,
      h('span', { class: 'who' }, guest ? [t('account.guest_prefix'), ' '] : null, h('b', { class: 'account-name', translate: 'no' }, account.name)),
      h('span', { class: 'balance', title },
        h('span', { class: 'chip-icon', 'aria-hidden': 'true' }),
        h('span', { class: 'visually-hidden' }, t('account.chips_label')), ' ',
        h('span', { class: 'balance-amount' }, chips(totalChips(account))),
        atTables ? h('small', { class: 'at-tables muted' }, ' ', t('account.at_tables', { amount: chips(atTables) })) : null),
      freeChips(app, account.top_up),
      h('a', { class: 'btn ghost small', href: '#/hands', dataset: { do: 'my-hands' } }, t('account.my_hands')),
      ['moderator', 'admin'].includes(account.role) ? h('a', { class: 'btn ghost small', href: '#/admin', dataset: { do: 'admin' } }, t('account.admin')) : null,
      guest ? h('button', { class: 'btn primary small', dataset: { do: 'register' }, onclick: () => credentialsDialog(app, 'upgrade') }, t('account.register')) : null,
      h('button', { class: 'btn ghost small', dataset: { do: 'logout' }, onclick: () => logout(app) }, t('account.logout')),
      guest ? null : h('button', { class: 'btn ghost small', dataset: { do: 'logout-everywhere' }, title: t('account.logout_everywhere_title'), onclick: () => logoutEverywhere(app) }, t('account.logout_everywhere')));
    return;
  }
  fill(el,
    h('button', { class: 'btn primary small', dataset: { do: 'guest' }, onclick: () => app.guest() }, t('account.guest')),
    h('button', { class: 'btn small', dataset: { do: 'login' }, onclick: () => credentialsDialog(app, 'login') }, t('account.login')),
    h('button', { class: 'btn small', dataset: { do: 'register' }, onclick: () => credentialsDialog(app, 'register') }, t('account.register')));
}

/** The free play chips' control: a button while a top-up is possible, else (the account is
 * low but had one lately) when the next is; nothing for an account that is not low. */
function freeChips(app, topUp) {
  if (!topUp || !(topUp.held < topUp.threshold)) return null;
  if (!topUp.available) {
    return topUp.next_at
      ? h('small', { class: 'free-chips-next muted' }, t('account.free_chips_next', { time: formatDate(topUp.next_at, 'datetime') }))
      : null;
  }
  return h('button', {
    class: 'btn primary small', dataset: { do: 'free-chips' },
    title: t('account.free_chips_hint', { threshold: chips(topUp.threshold), to: chips(topUp.to) }),
    onclick: (e) => takeFreeChips(app, e.currentTarget),
  }, t('account.free_chips'));
}

async function takeFreeChips(app, button) {
  button.disabled = true;
  try {
    const done = await api.topUp();
    app.toast(t('account.free_chips_done', { amount: chips(done.given) }));
  } catch (err) {
    app.toast(requestErrorText(err));
  } finally {
    app.refreshAccount();
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

/** End every session of the account (a stolen cookie stops working), this one with them. */
async function logoutEverywhere(app) {
  try {
    await api.logoutEverywhere();
  } finally {
    app.setAccount(null);
  }
}

/** The account box's first button, where the focus goes when a dialog's opener has gone. */
function accountButton() {
  return document.querySelector('#account button, #account a');
}

/** A guest's chips live only in this session: say so before they are thrown away. */
function confirmGuestLogout(app) {
  return new Promise((resolve) => {
    const text = uniqueId('guest-logout-text');
    const cancel = h('button', { value: 'cancel', class: 'btn ghost' }, t('common.cancel'));
    openModal({
      cls: 'guest-logout',
      describedBy: text,
      focus: cancel,
      children: h('form', { method: 'dialog' },
        h('h2', {}, t('account.guest_logout.title')),
        h('p', { id: text }, t('account.guest_logout.text', { chips: chips(totalChips(app.account)) })),
        h('div', { class: 'dialog-buttons' },
          cancel,
          h('button', { value: 'register', class: 'btn primary' }, t('account.guest_logout.register')),
          h('button', { value: 'logout', class: 'btn danger' }, t('account.guest_logout.confirm')))),
      returnTo: accountButton,
      onClose: (value) => {
        if (value === 'register') credentialsDialog(app, 'upgrade');
        resolve(value === 'logout');
      },
    });
  });
}

const TITLES = {
  login: () => t('account.login_title'),
  register: () => t('account.register_title'),
  upgrade: () => t('account.upgrade_title'),
};

/** Log in, register, or (`upgrade`) give a guest account a name and password. */
export function credentialsDialog(app, mode) {
  const upgrade = mode === 'upgrade';
  const register = mode === 'register' || upgrade;
  const hint = uniqueId('name-hint');
  // No pattern or length here: the browser would refuse the form in its own words (and
  // never submit it), while the server's rules (any script, look-alikes) are the rule:
  // its refusal comes back with a code the error line words in the player's language.
  const name = h('input', {
    name: 'name', autocomplete: 'username', required: true,
    'aria-describedby': register ? hint : null,
  });
  const password = h('input', { name: 'password', type: 'password', autocomplete: register ? 'new-password' : 'current-password', required: true, minlength: 6 });
  const error = h('p', { class: 'form-error', role: 'alert' });
  const submit = h('button', { class: 'btn primary', type: 'submit' }, register ? t('account.create') : t('account.login'));
  let dialog = null;
  const form = h('form', { class: 'credentials', dataset: { mode } },
    h('h2', {}, TITLES[mode]()),
    register ? h('p', { class: 'muted', id: hint }, upgrade ? t('account.upgrade_text') : t('account.register_text')) : null,
    h('label', {}, t('account.name'), name),
    h('label', {}, t('account.password'), password),
    error,
    h('div', { class: 'dialog-buttons' },
      h('button', { class: 'btn ghost', type: 'button', onclick: () => dialog.close() }, t('common.cancel')), submit));
  const fieldName = (field) => ({ name: t('account.name'), password: t('account.password') })[field];
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
      error.textContent = requestErrorText(err, fieldName);
    } finally {
      submit.disabled = false;
    }
  });
  dialog = openModal({ children: form, focus: name, returnTo: accountButton });
  return dialog;
}
