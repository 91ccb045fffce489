// "My hands" (#/hands): the hands you played, newest first, each with what you won or
// lost and the running total, from GET /api/me/hands; each links to its replay and files.

import { api } from './api.js';
import { h, fill } from './dom.js';
import { chips, GAME_SHORT } from './format.js';
import { handLinks } from './history.js';

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
    this.body = h('div', { class: 'my-hands-body' }, h('p', { class: 'muted' }, 'Loading your hands…'));
    this.root = h('section', { class: 'my-hands' },
      h('div', { class: 'lobby-head' }, h('h1', {}, 'My hands'), h('a', { class: 'btn ghost', href: '#/lobby' }, '← Lobby')),
      this.body);
  }

  mount(container) {
    fill(container, this.root);
    this.load();
  }

  unmount() {}

  async load() {
    if (!this.app.account) {
      fill(this.body, h('p', {}, 'Log in or play as a guest to see your hands.'));
      return;
    }
    let rows;
    try {
      rows = await api.myHands();
    } catch (error) {
      fill(this.body, h('p', { class: 'form-error' }, `Could not load your hands: ${error.message}`));
      return;
    }
    rows = runningTotals(rows.filter((r) => r.status !== 'running'));
    if (!rows.length) {
      fill(this.body, h('p', { class: 'muted' }, 'No hands yet: sit down at a table in the lobby.'));
      return;
    }
    const total = rows[0].total;
    fill(this.body,
      h('p', { class: 'my-hands-total' }, `${rows.length} hand${rows.length === 1 ? '' : 's'}, `,
        h('b', { class: total >= 0 ? 'won' : 'lost' }, signed(total)), ' in all'),
      h('table', { class: 'tables my-hands-table' },
        h('thead', {}, h('tr', {}, h('th', {}, 'Hand'), h('th', {}, 'Table'), h('th', {}, 'Game'), h('th', { class: 'hide-narrow' }, 'When'),
          h('th', { class: 'num' }, 'Pot'), h('th', { class: 'num' }, 'Won/lost'), h('th', { class: 'num' }, 'Total'), h('th', {}, ''))),
        h('tbody', {}, rows.map((r) => h('tr', { dataset: { hand: r.id, net: r.net } },
          h('td', { class: 'hand-no' }, `#${r.id}`),
          h('td', {}, r.table_name ?? `table ${r.table_id}`),
          h('td', {}, GAME_SHORT[r.game] ?? r.game),
          h('td', { class: 'hide-narrow muted' }, r.finished_at ? new Date(r.finished_at * 1000).toLocaleString() : ''),
          h('td', { class: 'num' }, r.status === 'void' ? 'void' : chips(r.pot)),
          h('td', { class: `num net ${r.net > 0 ? 'won' : r.net < 0 ? 'lost' : ''}` }, signed(r.net)),
          h('td', { class: 'num running' }, signed(r.total)),
          h('td', {}, r.status === 'finished' ? handLinks(r.id) : null))))));
  }
}
