// The top bar's own words (index.html holds its shape): the brand, the preference
// toggles and their hints, drawn again whenever the language changes.

import { t } from './i18n.js';
import { settingsButton } from './settings.js';

function toggle(id, label, hint) {
  const input = document.getElementById(id);
  const box = input?.closest('label');
  if (!box) return;
  box.title = hint;
  box.querySelector('.toggle-words').textContent = label;
}

/** Put the current language's words in the top bar. */
export function wordTopBar() {
  const brand = document.querySelector('.topbar .brand');
  if (brand) {
    brand.setAttribute('aria-label', t('app.brand_label'));
    brand.querySelector('.brand-words').textContent = t('app.brand');
  }
  document.querySelector('.topbar .prefs')?.setAttribute('aria-label', t('prefs.label'));
  toggle('pref-four-colour', t('prefs.four_colour'), t('prefs.four_colour_hint'));
  toggle('pref-sound', t('prefs.sound'), t('prefs.sound_hint'));
  toggle('pref-notify', t('prefs.notify'), t('prefs.notify_hint'));
  const prefs = document.querySelector('.topbar .prefs');
  document.getElementById('open-settings')?.remove(); // drawn again in the language now spoken
  prefs?.append(settingsButton());
  document.getElementById('status')?.setAttribute('aria-label', t('app.status_label'));
}
