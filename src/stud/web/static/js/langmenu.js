// The language menu in the top bar, and the language remembered per account.
//
// A choice is kept in this browser (localStorage, by i18n.js) and, for a logged-in
// account, on the server (PUT /api/me/language), so it follows the player to another
// browser; logging in switches to the account's language.

import { api } from './api.js';
import { h } from './dom.js';
import { chooseLanguage, isLanguage, language, LANGUAGES, onLanguageChange, storedLanguage, t, urlLanguage } from './i18n.js';

// A globe, drawn (an emoji needs a font the machine may not have).
const GLOBE = '<svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false" fill="none" ' +
  'stroke="currentColor" stroke-width="1.6"><circle cx="12" cy="12" r="9"/><path d="M3 12h18M12 3c2.5 2.7 3.8 5.7 3.8 9s-1.3 6.3-3.8 9' +
  'M12 3C9.5 5.7 8.2 8.7 8.2 12s1.3 6.3 3.8 9"/></svg>';

/** Put the menu in the top bar, before the account box. */
export function mountLanguageMenu(app) {
  const select = h('select', { id: 'language-menu', class: 'lang-select' },
    LANGUAGES.map(({ code, name }) => h('option', { value: code, lang: code, translate: 'no' }, name)));
  const caption = h('span', { class: 'visually-hidden' });
  const label = h('label', { class: 'lang-menu', for: 'language-menu' },
    h('span', { class: 'lang-icon', html: GLOBE }), caption);
  const menu = h('div', { class: 'lang-box' }, label, select);
  const show = () => {
    caption.textContent = t('lang.label');
    select.title = t('lang.label');
    select.value = language();
  };
  select.addEventListener('change', async () => {
    const code = select.value;
    await chooseLanguage(code);
    if (app.account) saveAccountLanguage(app, code);
  });
  onLanguageChange(show);
  show();
  const bar = document.querySelector('.topbar');
  bar.insertBefore(menu, document.getElementById('account'));
  return menu;
}

async function saveAccountLanguage(app, code) {
  try {
    await api.setLanguage(code);
  } catch (error) {
    app.toast(t('lang.not_saved'));
    console.warn('language not saved for the account', error);
  }
}

/**
 * An account is in use (start-up, log in): speak its language. An account with none yet
 * takes the one chosen in this browser. A `?lang=` in the address wins over both.
 */
export async function adoptAccountLanguage(app) {
  if (!app.account || urlLanguage()) return;
  let saved = null;
  try {
    saved = (await api.language()).language;
  } catch {
    return; // logged out meanwhile, or the server is older: keep the browser's choice
  }
  if (isLanguage(saved)) {
    if (saved !== language() || storedLanguage() !== saved) await chooseLanguage(saved);
  } else if (storedLanguage()) {
    saveAccountLanguage(app, storedLanguage());
  }
}
