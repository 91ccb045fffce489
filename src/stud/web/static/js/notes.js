// Notes and colour tags on players (issue 38): private to the account, kept by the server
// (GET /api/me/notes, PUT /api/players/{id}/note). A note is plain text, always written
// with textContent, so whatever it says is shown and never run.

import { api } from './api.js';
import { h } from './dom.js';
import { requestErrorText } from './errortext.js';
import { t } from './i18n.js';
import { openModal } from './modal.js';

export const COLORS = ['red', 'orange', 'yellow', 'green', 'blue', 'purple', 'gray'];
export const MAX_NOTE = 500;

/** A colour tag's name in the page's language ('' is none). */
function colorName(color) {
  return {
    red: t('notes.color.red'), orange: t('notes.color.orange'), yellow: t('notes.color.yellow'), green: t('notes.color.green'),
    blue: t('notes.color.blue'), purple: t('notes.color.purple'), gray: t('notes.color.gray'),
  }[color] ?? t('notes.color.none');
}

const kept = new Map(); // account id -> {text, color}
let owner = null; // the account whose notes `kept` holds
let loading = null;

/** Fetch the account's notes (once per account); `changed()` when they are in. */
export function loadNotes(account, changed = () => {}) {
  if (!account) {
    kept.clear();
    owner = null;
    return;
  }
  if (owner === account.id) return;
  owner = account.id;
  kept.clear();
  loading = api.notes().then((rows) => {
    for (const r of rows) kept.set(r.account_id, { text: r.text, color: r.color });
    changed();
  }).catch(() => {}).finally(() => { loading = null; });
}

export function noteOf(accountId) {
  return kept.get(accountId) ?? null;
}

/** The mark of a player's note: a dot in its colour, the note's first words beside it. */
export function noteMark(accountId) {
  const note = noteOf(accountId);
  if (!note) return null;
  const first = note.text.split('\n')[0];
  return h('span', { class: `note-mark${note.color ? ` note-${note.color}` : ''}`, title: note.text, dataset: { note: accountId } },
    h('i', { class: 'note-dot', 'aria-hidden': 'true' }),
    h('span', { class: 'note-text' }, first.length > 24 ? `${first.slice(0, 23)}…` : first),
    h('span', { class: 'visually-hidden' }, t('notes.has_note')));
}

/** The note dialog for player `accountId` (`name`); `changed()` after a save. */
export function editNote(accountId, name, changed = () => {}) {
  const note = noteOf(accountId) ?? { text: '', color: '' };
  const text = h('textarea', { name: 'text', rows: 4, maxlength: MAX_NOTE, class: 'note-input' });
  text.value = note.text;
  const error = h('p', { class: 'form-error', role: 'alert' });
  const swatch = (color) => h('label', { class: `swatch note-${color || 'none'}`, title: colorName(color) },
    h('input', { type: 'radio', name: 'color', value: color, checked: note.color === color }),
    h('span', { class: 'visually-hidden' }, colorName(color)));
  const save = async (event) => {
    event.preventDefault();
    const color = form.querySelector('input[name=color]:checked')?.value ?? '';
    try {
      const saved = await api.setNote(accountId, text.value, color);
      if (saved.text || saved.color) kept.set(accountId, { text: saved.text, color: saved.color });
      else kept.delete(accountId);
      dialog.close();
      changed();
    } catch (e) {
      error.textContent = requestErrorText(e);
    }
  };
  const form = h('form', { class: 'note-form', onsubmit: save },
    h('h2', {}, t('notes.title', { name })),
    h('p', { class: 'muted' }, t('notes.private')),
    h('label', {}, t('notes.text_label'), text),
    h('fieldset', { class: 'note-colors' }, h('legend', {}, t('notes.color_label')), ['', ...COLORS].map(swatch)),
    error,
    h('div', { class: 'dialog-buttons' },
      h('button', { type: 'submit', class: 'btn primary', dataset: { do: 'save-note' } }, t('notes.save')),
      h('button', { type: 'button', class: 'btn ghost', onclick: () => dialog.close() }, t('notes.cancel'))));
  const dialog = openModal({ cls: 'note-dialog', children: form, focus: text });
  return dialog;
}

/** Whether the notes of the account are still on their way. */
export function notesLoading() {
  return loading !== null;
}
