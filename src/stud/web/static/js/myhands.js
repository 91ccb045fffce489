// "My hands" (#/hands): the hands you played, newest first, each with what you won or
// lost and the running total, from GET /api/me/hands; each links to its replay and files.
// Below them, your own PokerStars hands (imports.js).

import { api } from './api.js';
import { h, fill } from './dom.js';
import { requestErrorText } from './errortext.js';
import { chips, gameShort } from './format.js';
import { handLinks } from './history.js';
import { t } from './i18n.js';
import { ImportsPanel } from './imports.js';
import { ownStats, resultsSection } from './stats.js';
import { tParts } from './tparts.js';

function signed(n) {
  return n > 0 ? `+${chips(n)}` : n < 0 ? `−${chips(-n)}` : '0';
}

/** Rows newest first, each with `total`: the sum of `net` from the oldest listed up to it. */
export function runningTotals(rows) {
  let total = 0;
  const out = [];
  for (let i = rows.length - 1; i >= 0; i -= 1) {
    total += rows[i].net ?? 0;
    out.unshift({ ...rows[i], total });
  }
  return out;
}

export class MyHandsView {
  constructor(app) {
    this.app = app;
    this.body = h('div', { class: 'my-hands-body' }, h('p', { class: 'muted' }, t('myhands.loading')));
    this.imports = h('div', { class: 'my-imports' });
    this.root = h('section', { class: 'my-hands', 'aria-labelledby': 'my-hands-title' },
      h('div', { class: 'lobby-head' }, h('h1', { id: 'my-hands-title' }, t('account.my_hands')), h('a', { class: 'btn ghost', href: '#/lobby' }, t('nav.back_to_lobby'))),
      this.body, this.imports);
  }

  title() {
    return t('account.my_hands');
  }

  mount(container) {
    fill(container, this.root);
    this.load();
  }

  unmount() {}

  async load() {
    if (!this.app.account) {
      fill(this.body, h('p', {}, t('myhands.log_in')));
      return;
    }
    const panel = new ImportsPanel(this.app);
    fill(this.imports, panel.root);
    panel.load();
    let rows;
    try {
      rows = await api.myHands();
    } catch (error) {
      fill(this.body, h('p', { class: 'form-error' }, t('myhands.load_failed', { why: requestErrorText(error) })));
      return;
    }
    rows = runningTotals(rows.filter((r) => r.status !== 'running'));
    const results = h('div', { class: 'my-results-slot' });
    ownStats(this.app.account).then((stats) => {
      if (stats.results.by_game.length) fill(results, resultsSection(stats.results, { chips, gameShort, signed }));
    }).catch(() => {}); // the hands' list stands without it
    if (!rows.length) { // imported hands alone still have their results
      fill(this.body, results, h('p', { class: 'muted' }, t('myhands.none')));
      return;
    }
    const total = rows[0].total;
    fill(this.body,
      results,
      h('p', { class: 'my-hands-total' }, tParts((marks) => t('myhands.total', { n: rows.length, ...marks }), { amount: h('b', { class: total >= 0 ? 'won' : 'lost' }, signed(total)) })),
      h('table', { class: 'tables my-hands-table' },
        h('caption', { class: 'visually-hidden' }, t('account.my_hands')),
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('myhands.col.hand')), h('th', { scope: 'col' }, t('lobby.col.name')),
          h('th', { scope: 'col' }, t('lobby.col.game')), h('th', { scope: 'col', class: 'hide-narrow' }, t('myhands.col.when')),
          h('th', { scope: 'col', class: 'num' }, t('myhands.col.pot')), h('th', { scope: 'col', class: 'num' }, t('myhands.col.net')),
          h('th', { scope: 'col', class: 'num' }, t('myhands.col.total')), h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, t('myhands.col.files'))))),
        h('tbody', {}, rows.map((r) => h('tr', { dataset: { hand: r.id, net: r.net } },
          h('td', { class: 'hand-no' }, `#${r.id}`),
          h('td', { translate: r.table_name ? 'no' : false }, r.table_name ?? t('lobby.table_n', { id: String(r.table_id) })),
          h('td', {}, gameShort(r.game)),
          h('td', { class: 'hide-narrow muted' }, r.finished_at ? t('myhands.when_at', { at: r.finished_at }) : ''),
          h('td', { class: 'num' }, r.status === 'void' ? t('myhands.void') : chips(r.pot)),
          h('td', { class: `num net ${r.net > 0 ? 'won' : r.net < 0 ? 'lost' : ''}` }, signed(r.net)),
          h('td', { class: 'num running' }, signed(r.total)),
          h('td', {}, r.status === 'finished' ? handLinks(r.id) : null))))));
  }
}
