// The lobby: every table with its game, stakes and seats, filtered by game;
// watch or play at one; create a table.

import { api } from './api.js';
import { credentialsDialog } from './account.js';
import { h, fill } from './dom.js';
import { rulesNav } from './rules.js';
import { chips, GAME_SHORT, GAMES, stakes } from './format.js';
import { buyInRange, COLUMNS, handsPerHour, MIN_HANDS_FOR_RATE, sortTables } from './lobbysort.js';
import { lobbyTabs } from './lobbytabs.js'; // issue 16: the Cash tables | Tournaments tabs
import { tableTitle } from './tourneywords.js';

const FILTERS = [['', 'All games'], ['stud', GAMES.stud], ['stud8', GAMES.stud8], ['razz', GAMES.razz]];

export class LobbyView {
  constructor(app, { game = '' } = {}) {
    this.app = app;
    this.game = game;
    this.tables = [];
    this.sort = LobbyView.sort ?? { key: null, dir: 1 }; // kept while the page lives
    this.openPlayers = null; // the table whose player list was tapped open
    this.build();
  }

  build() {
    this.filters = h('div', { class: 'filters', role: 'group', 'aria-label': 'filter by game' },
      FILTERS.map(([code, label]) => h('button', {
        class: `filter${code === this.game ? ' on' : ''}`, dataset: { game: code },
        onclick: () => this.setGame(code),
      }, label)));
    this.list = h('div', { class: 'table-list' });
    this.notice = h('div', { class: 'lobby-notice' });
    this.root = h('section', { class: 'lobby' },
      h('div', { class: 'lobby-head' }, h('h1', {}, 'Lobby'), this.filters),
      rulesNav(),
      this.notice,
      this.list,
      this.createForm());
    this.root.prepend(lobbyTabs('cash', this.root)); // issue 16
  }

  mount(container) {
    fill(container, this.root);
    this.renderNotice();
    this.refresh();
    this.timer = setInterval(() => this.refresh(), 3000);
  }

  unmount() {
    clearInterval(this.timer);
  }

  setGame(code) {
    this.game = code;
    for (const b of this.filters.children) b.classList.toggle('on', b.dataset.game === code);
    history.replaceState(null, '', code ? `#/lobby?game=${code}` : '#/lobby');
    this.refresh();
  }

  renderNotice() {
    const seated = this.app.seatedTables();
    const parts = [];
    if (!this.app.account) {
      parts.push(h('div', { class: 'welcome' },
        h('p', {}, 'Seven Card Stud, Stud Hi/Lo and Razz against people and bots, for play money.'),
        h('button', { class: 'btn primary', onclick: () => this.app.guest() }, 'Play as guest'), ' ',
        h('button', { class: 'btn', onclick: () => credentialsDialog(this.app, 'register') }, 'Register'), ' ',
        h('button', { class: 'btn', onclick: () => credentialsDialog(this.app, 'login') }, 'Log in')));
    }
    if (seated.length) {
      parts.push(h('p', { class: 'seated-at' }, 'You are seated at ',
        seated.map((m, i) => [i ? ', ' : '', h('a', { href: `#/table/${m.id}` }, tableTitle(m.state) ?? `table ${m.id}`)])));
    }
    fill(this.notice, parts);
  }

  async refresh() {
    try {
      this.tables = await api.tables(this.game || undefined);
    } catch (error) {
      fill(this.list, h('p', { class: 'form-error' }, `Could not load the tables: ${error.message}`));
      return;
    }
    this.renderNotice();
    this.renderTables();
  }

  renderTables() {
    if (!this.tables.length) {
      fill(this.list, h('p', { class: 'muted' }, 'No tables of this game yet: create one below.'));
      return;
    }
    const sorted = this.sort.key ? sortTables(this.tables, this.sort.key, this.sort.dir) : this.tables;
    const rows = sorted.map((t) => h('tr', { dataset: { table: t.id, game: t.game } },
      h('td', { class: 'tname' }, h('a', { href: `#/table/${t.id}` }, t.name)),
      h('td', {}, h('span', { class: 'game-badge', dataset: { game: t.game } },
        h('span', { class: 'long' }, GAMES[t.game] ?? t.game), h('span', { class: 'short' }, GAME_SHORT[t.game] ?? t.game))),
      h('td', { class: 'num', title: `ante ${t.ante}, bring-in ${t.bring_in}` }, stakes(t), h('small', { class: 'muted' }, ` ante ${chips(t.ante)}`)),
      h('td', { class: 'num buyin-cell', title: 'buy-in range' }, buyInRange(t)),
      this.seatsCell(t),
      h('td', { class: 'num hide-narrow' }, chips(Math.round(t.average_pot ?? 0))),
      h('td', { class: 'num hide-narrow rate-cell', title: handsPerHour(t) === null ? `shown after ${MIN_HANDS_FOR_RATE} hands` : 'hands per hour' },
        handsPerHour(t) === null ? '—' : chips(Math.round(handsPerHour(t)))),
      h('td', { class: 'actions' },
        h('a', { class: 'btn small ghost watch', href: `#/table/${t.id}` }, 'Watch'),
        h('a', {
          class: 'btn small primary play', href: `#/table/${t.id}?sit=1`,
          onclick: (e) => {
            if (!this.app.account) {
              e.preventDefault();
              this.app.guest().then(() => { location.hash = `#/table/${t.id}?sit=1`; });
            }
          },
        }, t.seats_taken >= t.seats ? 'Join waiting list' : 'Play'))));
    fill(this.list, h('table', { class: 'tables' },
      h('thead', {}, h('tr', {}, COLUMNS.map((c) => this.header(c)), h('th', {}, ''))),
      h('tbody', {}, rows)));
  }

  header(column) {
    const on = this.sort.key === column.key;
    return h('th', {
      class: `sortable${column.num ? ' num' : ''}${column.narrow ? ' hide-narrow' : ''}`,
      dataset: { sort: column.key },
      'aria-sort': on ? (this.sort.dir > 0 ? 'ascending' : 'descending') : 'none',
      tabindex: 0,
      title: `sort by ${column.label.toLowerCase()}`,
      onclick: () => this.sortBy(column),
      onkeydown: (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); this.sortBy(column); } },
    }, column.label);
  }

  sortBy(column) {
    const dir = this.sort.key === column.key ? -this.sort.dir : column.dir;
    this.sort = { key: column.key, dir };
    LobbyView.sort = this.sort;
    this.renderTables();
  }

  /** Seats taken; the players' names on hover (title) or tap (a list under the cell). */
  seatsCell(t) {
    const players = t.players ?? [];
    const names = players.map((p) => `${p.name}${p.bot ? ' (bot)' : ''}`);
    const cell = h('td', {
      class: `num seats-cell${players.length ? ' has-players' : ''}`,
      title: names.length ? names.join('\n') : 'nobody yet',
      onclick: () => {
        if (!players.length) return;
        this.openPlayers = this.openPlayers === t.id ? null : t.id;
        this.renderTables();
      },
    }, `${t.seats_taken}/${t.seats}`,
    t.waiting ? h('small', { class: 'muted waiting' }, ` +${t.waiting} waiting`) : null,
    this.openPlayers === t.id
      ? h('ul', { class: 'player-pop' }, players.map((p) => h('li', {}, p.bot ? h('span', { class: 'bot' }, '⚙ ') : null, p.name)))
      : null);
    return cell;
  }

  createForm() {
    const field = (label, input) => h('label', {}, label, input);
    const num = (name, value, min, max) => h('input', { type: 'number', name, value, min, max, required: true });
    const game = h('select', { name: 'game' }, FILTERS.slice(1).map(([code, label]) => h('option', { value: code }, label)));
    const error = h('p', { class: 'form-error', role: 'alert' });
    const form = h('form', { class: 'create-table' },
      field('Name', h('input', { name: 'name', required: true, maxlength: 40, value: 'My table' })),
      field('Game', game),
      field('Small bet', num('small_bet', 10, 1, 1000000)),
      field('Big bet', num('big_bet', 20, 2, 1000000)),
      field('Ante', num('ante', 1, 0, 1000000)),
      field('Bring-in', num('bring_in', 3, 1, 1000000)),
      field('Seats', num('seats', 6, 2, 8)),
      field('Bots', num('bots', 3, 0, 8)),
      field('Bots play', h('select', { name: 'bot_kind' },
        h('option', { value: 'strong' }, 'strong'),
        h('option', { value: 'station' }, 'calling station'),
        h('option', { value: 'random' }, 'random'))),
      h('button', { class: 'btn primary', type: 'submit' }, 'Create table'),
      error);
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      error.textContent = '';
      if (!this.app.account) {
        credentialsDialog(this.app, 'login');
        return;
      }
      const data = Object.fromEntries(new FormData(form));
      const spec = { name: data.name, game: data.game, bot_kind: data.bot_kind };
      for (const k of ['small_bet', 'big_bet', 'ante', 'bring_in', 'seats', 'bots']) spec[k] = Number(data[k]);
      try {
        const table = await api.createTable(spec);
        location.hash = `#/table/${table.id}?sit=1`;
      } catch (err) {
        error.textContent = err.message;
      }
    });
    return h('details', { class: 'create' }, h('summary', {}, 'Create a table'), form);
  }
}
