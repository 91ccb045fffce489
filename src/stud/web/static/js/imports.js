// "My hands" › your PokerStars hands: upload hand-history files (POST /api/me/imports), see
// what was imported and each hand refused with its reason, and the imported hands
// (GET /api/me/imports), each opening in the replayer (#/imported/ID). Only you see them.

import { api } from './api.js';
import { h, fill } from './dom.js';
import { errorText, requestErrorText } from './errortext.js';
import { chips, gameShort } from './format.js';
import { formatNumber, t } from './i18n.js';

/** Bounds of one upload, as the server keeps them (docs/rest.md, "Imported hands"). */
export const UPLOAD_LIMITS = { files: 20, hands: 5000, megabytes: 8 };

/** An amount in the hand's own units: chips, or cents shown as 0.55 for a cash game. */
export function money(n, decimals = 0) {
  if (n === null || n === undefined) return '';
  if (!decimals) return chips(n);
  return formatNumber(n / 10 ** decimals, { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

function signedMoney(n, decimals) {
  if (n === null || n === undefined) return '';
  return n > 0 ? `+${money(n, decimals)}` : n < 0 ? `−${money(-n, decimals)}` : '0';
}

/** Where a refused hand was: the file, the hand's place in it, the line. */
export function refusedWhere(r) {
  if (r.hand && r.line) return t('imports.where_line', { file: r.file, hand: String(r.hand), line: String(r.line) });
  if (r.hand) return t('imports.where_hand', { file: r.file, hand: String(r.hand) });
  return t('imports.where_file', { file: r.file });
}

export class ImportsPanel {
  constructor(app) {
    this.app = app;
    this.input = h('input', { type: 'file', multiple: true, accept: '.txt,text/plain', id: 'import-files', class: 'import-files' });
    this.button = h('button', { type: 'submit', class: 'btn' }, t('imports.upload'));
    this.result = h('div', { class: 'import-result', 'aria-live': 'polite' });
    this.list = h('div', { class: 'imported-list' });
    this.form = h('form', { class: 'import-form', onsubmit: (e) => { e.preventDefault(); this.send(); } },
      h('label', { for: 'import-files' }, t('imports.choose')), ' ', this.input, ' ', this.button);
    this.root = h('section', { class: 'imports', 'aria-labelledby': 'imports-title' },
      h('h2', { id: 'imports-title' }, t('imports.title')),
      h('p', { class: 'muted' }, t('imports.intro', { files: String(UPLOAD_LIMITS.files), hands: String(UPLOAD_LIMITS.hands), mb: String(UPLOAD_LIMITS.megabytes) })),
      this.form, this.result, this.list);
  }

  async send() {
    const files = [...(this.input.files ?? [])];
    if (!files.length) {
      fill(this.result, h('p', { class: 'form-error' }, t('imports.pick_files')));
      return;
    }
    this.button.disabled = true;
    fill(this.result, h('p', { class: 'muted' }, t('imports.uploading')));
    try {
      this.showResult(await api.importHands(files));
      this.form.reset();
    } catch (error) {
      fill(this.result, h('p', { class: 'form-error' }, t('imports.failed', { why: requestErrorText(error) })));
    } finally {
      this.button.disabled = false;
    }
    await this.load();
  }

  showResult(answer) {
    const refused = answer.refused ?? [];
    fill(this.result,
      h('p', { class: 'import-done', dataset: { imported: answer.imported, refused: refused.length } },
        h('b', {}, t('imports.done', { n: answer.imported })),
        refused.length ? [' · ', t('imports.refused_count', { n: refused.length })] : null),
      refused.length ? h('ul', { class: 'import-refused' }, refused.map((r) => h('li', { dataset: { code: r.code } },
        h('span', { class: 'where', translate: 'no' }, refusedWhere(r)),
        r.hand_id && !String(r.hand_id).startsWith('sha256:') ? h('span', { class: 'muted', translate: 'no' }, ` #${r.hand_id}`) : null,
        ': ', errorText(r.code, r.params ?? {})))) : null);
  }

  async load() {
    let rows;
    try {
      rows = await api.imports();
    } catch (error) {
      fill(this.list, h('p', { class: 'form-error' }, t('myhands.load_failed', { why: requestErrorText(error) })));
      return;
    }
    if (!rows.length) {
      fill(this.list, h('p', { class: 'muted' }, t('imports.none')));
      return;
    }
    fill(this.list,
      h('table', { class: 'tables my-hands-table imported-table' },
        h('caption', {}, t('imports.list_title', { n: rows.length })),
        h('thead', {}, h('tr', {},
          h('th', { scope: 'col' }, t('imports.col.site_hand')), h('th', { scope: 'col' }, t('lobby.col.game')),
          h('th', { scope: 'col', class: 'hide-narrow' }, t('imports.col.table')), h('th', { scope: 'col', class: 'hide-narrow' }, t('imports.col.played')),
          h('th', { scope: 'col', class: 'num' }, t('myhands.col.pot')), h('th', { scope: 'col', class: 'num' }, t('myhands.col.net')),
          h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, t('imports.replay'))))),
        h('tbody', {}, rows.map((r) => h('tr', { dataset: { imported: r.id } },
          h('td', { class: 'hand-no', translate: 'no' }, r.site_hand_id.startsWith('sha256:') ? '—' : `#${r.site_hand_id}`),
          h('td', {}, gameShort(r.game)),
          h('td', { class: 'hide-narrow', translate: 'no' }, r.table_name ?? ''),
          h('td', { class: 'hide-narrow muted', translate: 'no' }, r.played_at ?? ''),
          h('td', { class: 'num' }, money(r.pot, r.decimals)),
          h('td', { class: `num net ${r.hero_net > 0 ? 'won' : r.hero_net < 0 ? 'lost' : ''}` }, signedMoney(r.hero_net, r.decimals)),
          h('td', {}, h('a', { href: `#/imported/${r.id}`, class: 'replay-link' }, t('imports.replay'))))))));
  }
}
