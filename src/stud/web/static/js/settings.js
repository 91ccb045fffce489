// The settings menu (issue 38): the felt's colour and the card backs, kept in the
// browser's preferences (prefs.js) and applied as <body data-felt data-back>; and, for
// an account, whether it mucks losing hands, kept with the account (showdown.js).

import { h } from './dom.js';
import { requestErrorText } from './errortext.js';
import { t } from './i18n.js';
import { openModal } from './modal.js';
import { prefs, setPref } from './prefs.js';
import { canChooseShowdown, mucksLosingHands, setMuckLosingHands } from './showdown.js';

/** The felt colours and card backs, each with its name in the page's language. */
function felts() {
  return [['green', t('settings.felt_colour.green')], ['blue', t('settings.felt_colour.blue')], ['red', t('settings.felt_colour.red')],
    ['gray', t('settings.felt_colour.gray')], ['purple', t('settings.felt_colour.purple')]];
}

function backs() {
  return [['blue', t('settings.back_colour.blue')], ['red', t('settings.back_colour.red')], ['green', t('settings.back_colour.green')],
    ['black', t('settings.back_colour.black')]];
}

function choice(name, values) {
  const select = h('select', { name, dataset: { pref: name } },
    values.map(([v, label]) => h('option', { value: v, selected: prefs[name] === v }, label)));
  select.addEventListener('change', () => setPref(name, select.value));
  return select;
}

/** The account's showdown choice: a box, kept with the account as soon as it changes. */
function muckBox() {
  if (!canChooseShowdown()) return null;
  const note = h('span', { class: 'settings-note', role: 'status' }, t('settings.muck_hint'));
  const box = h('input', { type: 'checkbox', name: 'muck_losing_hands', checked: mucksLosingHands() });
  box.addEventListener('change', async () => {
    const on = box.checked;
    try {
      await setMuckLosingHands(on);
      note.textContent = t('settings.muck_hint');
    } catch (error) {
      box.checked = !on;
      note.textContent = requestErrorText(error);
    }
  });
  return h('div', { class: 'settings-muck' },
    h('label', { class: 'toggle' }, box, ' ', t('settings.muck')), note);
}

/** The settings dialog. */
export function openSettings() {
  const form = h('form', { class: 'settings-form', method: 'dialog' },
    h('h2', {}, t('settings.title')),
    h('label', {}, t('settings.felt'), choice('felt', felts())),
    h('label', {}, t('settings.back'), choice('back', backs())),
    muckBox(),
    h('div', { class: 'dialog-buttons' }, h('button', { class: 'btn primary', value: 'done' }, t('settings.done'))));
  return openModal({ cls: 'settings-dialog', children: form });
}

/** The menu's button, for the top bar. */
export function settingsButton() {
  return h('button', { type: 'button', class: 'btn ghost settings-button', id: 'open-settings', title: t('settings.title'), 'aria-label': t('settings.title'), onclick: () => openSettings() }, '⚙');
}
