// The lobby: every table with its game, stakes and seats, in tabs by game; watch or
// play at one; create a table (a dialog).

import { api } from './api.js';
import { credentialsDialog } from './account.js';
import { h, fill } from './dom.js';
import { requestErrorText } from './errortext.js';
import { t } from './i18n.js';
import { openModal } from './modal.js';
import { loadNotes, noteMark, noteOf } from './notes.js';
import { rulesNav } from './rules.js';
import { chips, gameName, gameShort, stakes } from './format.js';
import { buyInRange, COLUMNS, handsPerHour, MIN_HANDS_FOR_RATE, sortTables } from './lobbysort.js';
import { tabList } from './tabs.js';
import { listParts, tParts } from './tparts.js';
import { lobbyTabs } from './lobbytabs.js'; // issue 16: the Cash tables | Tournaments tabs
import { tableTitle } from './tourneywords.js';

const GAME_CODES = ['stud', 'stud8', 'razz'];

export class LobbyView {
  constructor(app, { game = '' } = {}) {
    this.app = app;
    this.game = GAME_CODES.includes(game) ? game : '';
    this.tables = [];
    this.sort = LobbyView.sort ?? { key: null, dir: 1 }; // kept while the page lives
    this.openPlayers = null; // the table whose player list was tapped open
    this.build();
  }

  title() {
    return t('lobby.title');
  }

  build() {
    this.list = h('div', { class: 'table-list' });
    this.tabs = tabList({
      tabs: [['', t('lobby.all_games')], ...GAME_CODES.map((code) => [code, gameName(code)])]
        .map(([id, label]) => ({ id, label, attrs: { dataset: { game: id }, class: 'tab filter' } })),
      selected: this.game,
      label: t('lobby.tabs_label'),
      onSelect: (code) => this.setGame(code),
      panel: this.list,
      cls: 'filters',
    });
    this.notice = h('div', { class: 'lobby-notice' });
    const create = h('button', { class: 'btn', type: 'button', dataset: { do: 'create-table' }, onclick: () => this.createDialog() },
      t('lobby.create.open'));
    this.root = h('section', { class: 'lobby', 'aria-labelledby': 'lobby-title' },
      h('div', { class: 'lobby-head' }, h('h1', { id: 'lobby-title' }, t('lobby.title')), this.tabs.list, create),
      rulesNav(),
      this.notice,
      this.list);
    this.root.prepend(lobbyTabs('cash', this.root)); // issue 16
  }

  mount(container) {
    fill(container, this.root);
    this.renderNotice();
    loadNotes(this.app.account, () => this.renderTables());
    this.refresh();
    this.timer = setInterval(() => this.refresh(), 3000);
  }

  unmount() {
    clearInterval(this.timer);
  }

  setGame(code) {
    this.game = code;
    this.tabs.select(code);
    history.replaceState(null, '', code ? `#/lobby?game=${code}` : '#/lobby');
    this.refresh();
  }

  /** The welcome and "You are seated at": drawn again only when they change (a redraw would
   * take the keyboard's focus from their buttons). */
  renderNotice() {
    const seated = this.app.seatedTables();
    const drawn = JSON.stringify([this.app.account?.id ?? null, seated.map((m) => [m.id, m.state?.settings?.name])]);
    if (drawn === this.noticeDrawn) return;
    this.noticeDrawn = drawn;
    const parts = [];
    if (!this.app.account) {
      parts.push(h('div', { class: 'welcome' },
        h('p', {}, t('lobby.welcome')),
        h('button', { class: 'btn primary', onclick: () => this.app.guest() }, t('account.guest')), ' ',
        h('button', { class: 'btn', onclick: () => credentialsDialog(this.app, 'register') }, t('account.register')), ' ',
        h('button', { class: 'btn', onclick: () => credentialsDialog(this.app, 'login') }, t('account.login'))));
    }
    if (seated.length) {
      const links = seated.map((m) => h('a', { href: `#/table/${m.id}`, translate: m.state?.settings?.name ? 'no' : false },
        tableTitle(m.state) ?? t('lobby.table_n', { id: String(m.id) })));
      parts.push(h('p', { class: 'seated-at' }, tParts((marks) => t('lobby.seated_at', marks), { tables: h('span', {}, listParts(links)) })));
    }
    fill(this.notice, parts);
  }

  async refresh() {
    const game = this.game;
    let tables;
    try {
      tables = await api.tables(game || undefined);
    } catch (error) {
      this.listed = null;
      fill(this.list, h('p', { class: 'form-error' }, t('lobby.load_failed', { why: requestErrorText(error) })));
      return;
    }
    if (game !== this.game) return; // another tab was chosen meanwhile: its answer counts
    this.renderNotice();
    const listed = JSON.stringify(tables);
    if (listed === this.listed) return; // nothing new: the list, and the focus in it, stay
    this.listed = listed;
    this.tables = tables;
    this.renderTables();
  }

  /** Draw the list; a control that had the keyboard's focus has it again in the new list. */
  renderTables() {
    const focused = this.list.contains(document.activeElement) ? document.activeElement.id : '';
    this.drawTables();
    if (focused) document.getElementById(focused)?.focus();
  }

  drawTables() {
    if (!this.tables.length) {
      fill(this.list, h('p', { class: 'muted' }, t('lobby.no_tables')));
      return;
    }
    const sorted = this.sort.key ? sortTables(this.tables, this.sort.key, this.sort.dir) : this.tables;
    const rows = sorted.map((entry) => this.row(entry));
    fill(this.list, h('table', { class: 'tables' },
      h('caption', { class: 'visually-hidden' }, t('lobby.caption')),
      h('thead', {}, h('tr', {}, COLUMNS.map((c) => this.header(c)), h('th', {}, h('span', { class: 'visually-hidden' }, t('lobby.col.actions'))))),
      h('tbody', {}, rows)));
  }

  row(table) {
    const id = table.id;
    const nameId = `table-name-${id}`;
    const rate = handsPerHour(table);
    const full = table.seats_taken >= table.seats;
    const watchId = `watch-${id}`;
    const playId = `play-${id}`;
    return h('tr', { dataset: { table: id, game: table.game } },
      h('td', { class: 'tname' }, h('a', { href: `#/table/${id}`, id: nameId, translate: 'no' }, table.name)),
      h('td', {}, h('span', { class: 'game-badge', dataset: { game: table.game } },
        h('span', { class: 'long' }, gameName(table.game)), h('span', { class: 'short' }, gameShort(table.game)))),
      h('td', { class: 'num', title: t('lobby.stakes_title', { ante: chips(table.ante), bringin: chips(table.bring_in) }) },
        stakes(table), ' ', h('small', { class: 'muted' }, t('lobby.ante', { ante: chips(table.ante) }))),
      h('td', { class: 'num buyin-cell', title: t('lobby.buyin_title') }, buyInRange(table)),
      this.seatsCell(table),
      h('td', { class: 'num hide-narrow' }, chips(Math.round(table.average_pot ?? 0))),
      h('td', { class: 'num hide-narrow rate-cell', title: rate === null ? t('lobby.rate_later', { n: MIN_HANDS_FOR_RATE }) : t('lobby.rate_title') },
        rate === null ? '—' : chips(Math.round(rate))),
      h('td', { class: 'actions' },
        h('a', { class: 'btn small ghost watch', href: `#/table/${id}`, id: watchId, 'aria-labelledby': `${watchId} ${nameId}` }, t('lobby.watch')),
        h('a', {
          class: 'btn small primary play', href: `#/table/${id}?sit=1`, id: playId, 'aria-labelledby': `${playId} ${nameId}`,
          onclick: (e) => {
            if (!this.app.account) {
              e.preventDefault();
              this.app.guest().then(() => { location.hash = `#/table/${id}?sit=1`; });
            }
          },
        }, full ? t('lobby.join_waiting') : t('lobby.play'))));
  }

  header(column) {
    const on = this.sort.key === column.key;
    const label = column.label();
    return h('th', {
      class: `sortable${column.num ? ' num' : ''}${column.narrow ? ' hide-narrow' : ''}`,
      dataset: { sort: column.key },
      'aria-sort': on ? (this.sort.dir > 0 ? 'ascending' : 'descending') : 'none',
      scope: 'col',
      onclick: () => this.sortBy(column),
    }, h('button', { type: 'button', class: 'sort-button', id: `sort-${column.key}`, title: t('lobby.sort_by', { column: label }) }, label));
  }

  sortBy(column) {
    const dir = this.sort.key === column.key ? -this.sort.dir : column.dir;
    this.sort = { key: column.key, dir };
    LobbyView.sort = this.sort;
    this.renderTables();
  }

  /** Seats taken; the players' names on hover (title) or tap / Enter (a list under the cell). */
  seatsCell(table) {
    const players = table.players ?? [];
    const open = this.openPlayers === table.id;
    const names = players.map((p) => (p.bot ? `${p.name} ⚙` : p.name)).join('\n');
    const noted = players.some((p) => p.id !== undefined && noteOf(p.id));
    const count = h('span', { translate: 'no', title: names || null }, `${table.seats_taken}/${table.seats}`);
    const label = t('lobby.seats_label', { taken: table.seats_taken, seats: table.seats });
    const toggle = players.length
      ? h('button', { type: 'button', class: 'seats-button', id: `seats-${table.id}`, 'aria-expanded': String(open), 'aria-label': label }, count)
      : h('span', { class: 'seats-count', title: t('lobby.nobody') }, count);
    return h('td', {
      class: `num seats-cell${players.length ? ' has-players' : ''}${noted ? ' has-notes' : ''}`,
      onclick: () => {
        if (!players.length) return;
        this.openPlayers = open ? null : table.id;
        this.renderTables();
        document.getElementById(`seats-${table.id}`)?.focus();
      },
    }, toggle,
    table.waiting ? h('small', { class: 'muted waiting' }, ' ', t('lobby.waiting', { n: table.waiting })) : null,
    open
      ? h('ul', { class: 'player-pop' }, players.map((p) => h('li', {},
        p.bot ? h('span', { class: 'bot', role: 'img', 'aria-label': t('lobby.bot'), title: t('lobby.bot') }, '⚙') : null, p.bot ? ' ' : null,
        h('span', { translate: 'no' }, p.name), p.id !== undefined ? noteMark(p.id) : null)))
      : null);
  }

  /** The dialog that opens a table; its errors are worded from the server's codes. */
  createDialog() {
    if (!this.app.account) {
      credentialsDialog(this.app, 'login');
      return;
    }
    const labels = {
      name: t('lobby.create.name'), game: t('lobby.create.game'), small_bet: t('lobby.create.small_bet'),
      big_bet: t('lobby.create.big_bet'), ante: t('lobby.create.ante'), bring_in: t('lobby.create.bring_in'),
      seats: t('lobby.create.seats'), bots: t('lobby.create.bots'), bot_kind: t('lobby.create.bot_kind'),
    };
    const field = (name, input) => h('label', {}, labels[name], input);
    const num = (name, value, min, max) => h('input', { type: 'number', name, value, min, max, required: true });
    const game = h('select', { name: 'game' }, GAME_CODES.map((code) => h('option', { value: code, selected: code === this.game }, gameName(code))));
    const error = h('p', { class: 'form-error', role: 'alert' });
    const submit = h('button', { class: 'btn primary', type: 'submit' }, t('lobby.create.submit'));
    const form = h('form', { class: 'create-table' },
      h('h2', {}, t('lobby.create.title')),
      h('div', { class: 'create-fields' },
        field('name', h('input', { name: 'name', required: true, maxlength: 40, value: t('lobby.create.default_name') })),
        field('game', game),
        field('small_bet', num('small_bet', 10, 1, 1000000)),
        field('big_bet', num('big_bet', 20, 2, 1000000)),
        field('ante', num('ante', 1, 0, 1000000)),
        field('bring_in', num('bring_in', 3, 1, 1000000)),
        field('seats', num('seats', 6, 2, 8)),
        field('bots', num('bots', 3, 0, 8)),
        field('bot_kind', h('select', { name: 'bot_kind' },
          h('option', { value: 'strong' }, t('lobby.create.bots_strong')),
          h('option', { value: 'station' }, t('lobby.create.bots_station')),
          h('option', { value: 'random' }, t('lobby.create.bots_random'))))),
      error,
      h('div', { class: 'dialog-buttons' },
        h('button', { class: 'btn ghost', type: 'button', onclick: () => dialog.close() }, t('common.cancel')), submit));
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      error.textContent = '';
      const data = Object.fromEntries(new FormData(form));
      const spec = { name: data.name, game: data.game, bot_kind: data.bot_kind };
      for (const k of ['small_bet', 'big_bet', 'ante', 'bring_in', 'seats', 'bots']) spec[k] = Number(data[k]);
      submit.disabled = true;
      try {
        const table = await api.createTable(spec);
        dialog.close();
        location.hash = `#/table/${table.id}?sit=1`;
      } catch (err) {
        error.textContent = requestErrorText(err, (f) => labels[f]);
      } finally {
        submit.disabled = false;
      }
    });
    const dialog = openModal({ cls: 'create-table-dialog', children: form, returnTo: () => document.querySelector("[data-do='create-table']") });
  }
}
