// One tournament's page (#/tournament/ID): what it costs and pays, its structure (the
// levels), payouts, entrants with their chips and places, and its tables (watch any),
// kept live by the room's `tournament` messages (watch_tournament).

import { h, fill } from './dom.js';
import { requestErrorText } from './errortext.js';
import { formatChips, formatNumber, t, tOf } from './i18n.js';
import { levelClock } from './levelclock.js';
import { summaryOf, tourneyActions } from './tourneyactions.js';
import { tourneyApi } from './tourneyapi.js';
import {
  buyInText, finishText, kindText, levelInfo, levelLengthText, placeText, startText, stateText, tableIdOf, tourneyName, whenText,
} from './tourneywords.js';

export class TourneyView {
  constructor(app, id) {
    this.app = app;
    this.tournamentId = id; // a Sit & Go one is in starts: its table opens here (tourneys.js)
    this.view = null;
    this.actionsKey = '';
    this.build();
  }

  build() {
    this.head = h('div', { class: 'lobby-head tourney-head' });
    this.actions = h('div', { class: 'tourney-actions' });
    this.result = h('div', { class: 'tourney-result', role: 'status' });
    this.clock = h('div', { class: 'tourney-clock' });
    this.facts = h('dl', { class: 'tourney-facts' });
    const section = (name) => {
      const body = h('div', { class: 'section-body' });
      const el = h('section', { class: `tourney-section ${name}`, 'aria-labelledby': `tourney-${name}-h` },
        h('h2', { id: `tourney-${name}-h` }), body);
      return { el, title: el.firstChild, body };
    };
    this.sections = {
      structure: section('structure'), payouts: section('payouts'), entrants: section('entrants'), tables: section('tables'),
    };
    this.root = h('section', { class: 'tourney-page', dataset: { tournament: this.tournamentId } },
      h('a', { class: 'btn ghost back', href: '#/tournaments' }, t('tourney.back')),
      this.head, this.result, this.actions, this.clock, this.facts,
      h('div', { class: 'tourney-sections' }, Object.values(this.sections).map((s) => s.el)));
  }

  mount(container) {
    fill(container, this.root);
    fill(this.head, h('h1', {}, t('tourney.loading')));
    this.onView = (e) => { if (e.detail.id === this.tournamentId) this.show(e.detail.view); };
    this.onSeat = () => this.renderActions();
    this.app.tourneys.addEventListener('view', this.onView);
    this.app.tourneys.addEventListener('seat', this.onSeat);
    this.stop = this.app.tourneys.watch(this.tournamentId);
    const known = this.app.tourneys.views.get(this.tournamentId);
    if (known) this.show(known);
    this.load();
  }

  unmount() {
    this.stop?.();
    this.app.tourneys.removeEventListener('view', this.onView);
    this.app.tourneys.removeEventListener('seat', this.onSeat);
  }

  async load() {
    try {
      this.app.tourneys.update(this.tournamentId, await tourneyApi.get(this.tournamentId));
    } catch (error) {
      if (this.view) return; // the socket's view stands
      const words = error.status === 404 ? t('tourney.not_found', { id: String(this.tournamentId) }) : requestErrorText(error);
      fill(this.head, h('h1', {}, t('tourney.unavailable')));
      fill(this.facts, h('p', { class: 'form-error' }, words));
    }
  }

  show(view) {
    this.view = view;
    const s = view.settings;
    const summary = summaryOf(view);
    this.root.dataset.state = summary.state;
    fill(this.head,
      h('h1', { translate: 'no' }, tourneyName(s.name)),
      h('span', { class: 'game-badge', dataset: { game: s.game } }, tOf('game', s.game)),
      h('span', { class: 'muted' }, kindText(s.kind)),
      h('span', { class: `state-pill state-${summary.state}` }, stateText(summary.state)));
    this.renderResult();
    this.renderActions();
    const level = levelInfo(view.level);
    fill(this.clock, levelClock(level, this.app.socket.now(), {
      players: { left: view.players_left, entrants: summary.entrants }, finalTable: view.final_table && summary.state !== 'finished',
    }));
    this.renderFacts(view, summary);
    this.renderStructure(view, level);
    this.renderPayouts(view);
    this.renderEntrants(view);
    this.renderTables(view);
  }

  renderResult() {
    const me = this.app.tourneys.mine(this.view);
    if (!me || me.place === null || me.place === undefined) {
      fill(this.result);
      return;
    }
    fill(this.result, finishText(me, this.view.entrants.length));
  }

  renderActions() {
    if (!this.view) return;
    const summary = summaryOf(this.view);
    const hub = this.app.tourneys;
    const key = [summary.state, summary.entrants, hub.registered.has(summary.id), hub.tables.get(summary.id), Boolean(this.app.account)].join('|');
    if (key === this.actionsKey) return; // unchanged: keep the buttons (and the focus on one)
    this.actionsKey = key;
    fill(this.actions, tourneyActions(this.app, summary, { onChange: () => this.load() }),
      hub.registered.has(summary.id) && summary.state === 'registering' ? h('span', { class: 'you-in' }, t('tourney.registered')) : null);
  }

  renderFacts(view, summary) {
    const s = view.settings;
    const rows = [
      [t('tourney.fact.buy_in'), t('tourney.fact.buy_in_value', { cost: buyInText(s), buy_in: s.buy_in, fee: s.fee })],
      [t('tourney.fact.prize_pool'), formatChips(view.prize_pool)],
      [t('tourney.fact.starting_chips'), formatChips(s.structure.starting_chips)],
      [t('tourney.fact.levels'), levelLengthText(s.structure.level_seconds)],
      [t('tourney.fact.seats'), formatNumber(s.table_seats)],
      [t('tourney.fact.entrants'), summary.capacity
        ? t('tourney.players_of', { entrants: summary.entrants, capacity: summary.capacity })
        : t('tourney.players', { entrants: summary.entrants })],
      view.started_at ? [t('tourney.fact.players_left'), formatNumber(view.players_left)] : null,
      [t('tourney.fact.start'), view.started_at ? whenText(view.started_at) : startText(summary)],
      view.registration_closes_at && view.registration_open
        ? [t('tourney.fact.late_until'), whenText(view.registration_closes_at)] : null,
      view.finished_at ? [t('tourney.fact.finished'), whenText(view.finished_at)] : null,
    ].filter(Boolean);
    fill(this.facts, rows.map(([term, value]) => h('div', { class: 'fact' }, h('dt', {}, term), h('dd', {}, value))));
  }

  renderStructure(view, current) {
    const { title, body } = this.sections.structure;
    const structure = view.settings.structure;
    fill(title, t('tourney.structure.title'));
    const rows = (structure.levels ?? []).map(([ante, bringIn, small, big], i) => {
      const number = i + 1;
      const starts = view.started_at ? view.started_at + i * structure.level_seconds : null;
      const now = current?.number === number;
      return h('tr', { class: now ? 'current' : null, 'aria-current': now ? 'true' : null, dataset: { level: number } },
        h('th', { scope: 'row', class: 'num' }, formatNumber(number)),
        h('td', { class: 'num' }, formatChips(ante)),
        h('td', { class: 'num' }, formatChips(bringIn)),
        h('td', { class: 'num' }, formatChips(small)),
        h('td', { class: 'num' }, formatChips(big)),
        h('td', { class: 'num' }, starts ? t('tourney.structure.at', { at: starts }) : t('tourney.structure.after', { minutes: Math.round(i * structure.level_seconds / 6) / 10 })));
    });
    fill(body,
      h('p', { class: 'muted' }, t('tourney.structure.intro', { length: levelLengthText(structure.level_seconds) })),
      h('div', { class: 'scroll-box', tabindex: 0, role: 'region', 'aria-label': t('tourney.structure.levels_label') },
        h('table', { class: 'tables levels' },
          h('thead', {}, h('tr', {},
            h('th', { scope: 'col', class: 'num' }, t('tourney.structure.level')),
            h('th', { scope: 'col', class: 'num' }, t('tourney.structure.ante')),
            h('th', { scope: 'col', class: 'num' }, t('tourney.structure.bring_in')),
            h('th', { scope: 'col', class: 'num' }, t('tourney.structure.small_bet')),
            h('th', { scope: 'col', class: 'num' }, t('tourney.structure.big_bet')),
            h('th', { scope: 'col', class: 'num' }, t('tourney.structure.starts')))),
          h('tbody', {}, rows))),
      h('p', { class: 'muted' }, t('tourney.structure.doubling')));
  }

  renderPayouts(view) {
    const { title, body } = this.sections.payouts;
    fill(title, t('tourney.payouts.title'));
    const pool = view.prize_pool || 0;
    const payouts = view.payouts ?? [];
    const final = view.state !== 'registering' && !view.registration_open;
    fill(body,
      h('p', { class: 'muted' }, final
        ? t('tourney.payouts.final', { places: payouts.length, entrants: (view.entrants ?? []).length })
        : t('tourney.payouts.so_far', { places: payouts.length, entrants: (view.entrants ?? []).length })),
      payouts.length && pool ? h('table', { class: 'tables payouts' },
        h('thead', {}, h('tr', {},
          h('th', { scope: 'col' }, t('tourney.payouts.place')),
          h('th', { scope: 'col', class: 'num' }, t('tourney.payouts.prize')),
          h('th', { scope: 'col', class: 'num' }, t('tourney.payouts.share')))),
        h('tbody', {}, payouts.map((prize, i) => h('tr', { dataset: { place: i + 1 } },
          h('th', { scope: 'row' }, placeText(i + 1)),
          h('td', { class: 'num' }, formatChips(prize)),
          h('td', { class: 'num' }, formatNumber(prize / pool, { style: 'percent', maximumFractionDigits: 1 }))))))
        : h('p', { class: 'muted' }, t('tourney.payouts.none')));
  }

  renderEntrants(view) {
    const { title, body } = this.sections.entrants;
    const entrants = view.entrants ?? [];
    fill(title, t('tourney.entrants.title', { count: entrants.length }));
    if (!entrants.length) {
      fill(body, h('p', { class: 'muted' }, t('tourney.entrants.none')));
      return;
    }
    const me = this.app.tourneys.mine(view);
    const tid = view.settings.id;
    const started = Boolean(view.started_at);
    fill(body, h('table', { class: 'tables entrants' },
      h('thead', {}, h('tr', {},
        h('th', { scope: 'col', class: 'num' }, t('tourney.entrants.rank')),
        h('th', { scope: 'col' }, t('tourney.entrants.player')),
        h('th', { scope: 'col', class: 'num' }, t('tourney.entrants.chips')),
        started ? h('th', { scope: 'col' }, t('tourney.entrants.table')) : null,
        started ? h('th', { scope: 'col', class: 'num' }, t('tourney.entrants.prize')) : null)),
      h('tbody', {}, entrants.map((e, i) => h('tr', {
        class: [e === me ? 'me' : '', e.place ? 'out' : ''].filter(Boolean).join(' ') || null,
        dataset: { entrant: e.id ?? i, place: e.place ?? '' },
      },
      h('td', { class: 'num' }, e.place ? placeText(e.place) : formatNumber(i + 1)),
      h('td', {}, e.bot ? h('span', { class: 'bot', title: t('tourney.entrants.bot') }, '⚙ ') : null,
        h('span', { translate: 'no' }, e.name), e === me ? h('span', { class: 'muted' }, ' ', t('tourney.entrants.you')) : null),
      h('td', { class: 'num' }, e.place ? '—' : formatChips(e.chips)),
      started ? h('td', {}, e.table !== null && e.table !== undefined
        ? h('a', { href: `#/table/${tableIdOf(tid, e.table)}` }, t('tourney.table_number', { number: e.table })) : '—') : null,
      started ? h('td', { class: 'num' }, e.prize ? formatChips(e.prize) : '—') : null)))));
  }

  renderTables(view) {
    const { title, body } = this.sections.tables;
    const tables = view.tables ?? [];
    fill(title, t('tourney.tables.title', { count: tables.length }));
    if (!tables.length) {
      fill(body, h('p', { class: 'muted' }, view.started_at ? t('tourney.tables.closed') : t('tourney.tables.none')));
      return;
    }
    const tid = view.settings.id;
    fill(body, h('ul', { class: 'tourney-tables' }, tables.map((table) => h('li', { dataset: { table: table.id } },
      h('span', { class: 'tname' }, t('tourney.table_number', { number: table.id })),
      h('span', { class: 'muted' }, t('tourney.tables.players', { players: table.players, hands: table.hand_number })),
      h('a', { class: 'btn small ghost watch', href: `#/table/${tableIdOf(tid, table.id)}` }, t('tourney.tables.watch'))))));
  }
}
