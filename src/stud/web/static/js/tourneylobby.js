// The lobby's Tournaments tab (#/tournaments): every Sit & Go and scheduled tournament
// with its game, buy-in + fee, starting chips, level length, entrants and seats, state
// and start; register, unregister, fill a Sit & Go with bots; create a Sit & Go.

import { credentialsDialog } from './account.js';
import { h, fill } from './dom.js';
import { requestErrorText } from './errortext.js';
import { formatChips, t, tOf } from './i18n.js';
import { lobbyTabs } from './lobbytabs.js';
import { tourneyActions } from './tourneyactions.js';
import { tourneyApi } from './tourneyapi.js';
import { buyInText, kindText, levelLengthText, startText, stateText, tourneyName } from './tourneywords.js';

const GAME_CODES = ['stud', 'stud8', 'razz'];
const LEVEL_MINUTES = [1, 2, 3, 5, 10, 15, 20];
const REFRESH_MS = 4000;
// The create form's fields by the names the server's 422 gives them.
const FIELD_LABELS = {
  name: () => t('tourney.create.name'), game: () => t('tourney.create.game'), seats: () => t('tourney.create.seats'),
  buy_in: () => t('tourney.create.buy_in'), fee: () => t('tourney.create.fee'),
  starting_chips: () => t('tourney.create.starting_chips'), level_seconds: () => t('tourney.create.level_length'),
};

export class TourneyLobbyView {
  constructor(app, { game = '' } = {}) {
    this.app = app;
    this.game = GAME_CODES.includes(game) ? game : '';
    this.list = [];
    this.followsTournaments = true; // a Sit & Go one is in starts: its table opens here
    this.build();
  }

  build() {
    this.filters = h('div', { class: 'filters', role: 'group', 'aria-label': t('tourney.filter_label') },
      ['', ...GAME_CODES].map((code) => h('button', {
        type: 'button', class: `filter${code === this.game ? ' on' : ''}`, dataset: { game: code },
        'aria-pressed': code === this.game ? 'true' : 'false',
        onclick: () => this.setGame(code),
      }, code ? tOf('game', code) : t('tourney.all_games'))));
    this.listEl = h('div', { class: 'table-list tourney-list', 'aria-live': 'off' });
    this.root = h('section', { class: 'lobby tourney-lobby' });
    this.root.append(
      lobbyTabs('tournaments', this.root),
      h('div', { class: 'lobby-head' }, h('h1', {}, t('tourney.lobby.title')), this.filters),
      h('p', { class: 'muted tourney-intro' }, t('tourney.lobby.intro')),
      this.listEl,
      this.createForm());
  }

  mount(container) {
    fill(container, this.root);
    this.offHub = [];
    for (const type of ['seats', 'view']) {
      const fn = () => this.render();
      this.app.tourneys.addEventListener(type, fn);
      this.offHub.push(() => this.app.tourneys.removeEventListener(type, fn));
    }
    this.refresh();
    this.timer = setInterval(() => this.refresh(), REFRESH_MS);
  }

  unmount() {
    clearInterval(this.timer);
    for (const off of this.offHub ?? []) off();
  }

  setGame(code) {
    this.game = code;
    for (const b of this.filters.children) {
      b.classList.toggle('on', b.dataset.game === code);
      b.setAttribute('aria-pressed', b.dataset.game === code ? 'true' : 'false');
    }
    history.replaceState(null, '', code ? `#/tournaments?game=${code}` : '#/tournaments');
    this.render();
  }

  async refresh() {
    try {
      this.list = (await tourneyApi.list()).tournaments ?? [];
    } catch (error) {
      fill(this.listEl, h('p', { class: 'form-error' }, t('tourney.lobby.load_failed', { reason: requestErrorText(error) })));
      return;
    }
    for (const s of this.list) if (s.me) this.app.tourneys.noteMe(s.id, s.me);
    this.render();
  }

  render() {
    const shown = this.list.filter((s) => !this.game || s.game === this.game);
    if (!shown.length) {
      fill(this.listEl, h('p', { class: 'muted empty' }, t('tourney.lobby.empty')));
      return;
    }
    // [key, label, numeric, hidden on a phone (the name's cell then shows the game and state)]
    const head = [
      ['name', t('tourney.col.name')], ['game', t('tourney.col.game'), false, true], ['buy_in', t('tourney.col.buy_in'), true],
      ['chips', t('tourney.col.chips'), true, true], ['levels', t('tourney.col.levels'), true, true],
      ['players', t('tourney.col.players'), true], ['state', t('tourney.col.state'), false, true],
      ['start', t('tourney.col.start'), false, true],
    ];
    const focused = document.activeElement?.closest?.('.tourney-list tr')?.dataset.tournament;
    fill(this.listEl, h('table', { class: 'tables tourneys' },
      h('caption', { class: 'visually-hidden' }, t('tourney.lobby.caption')),
      h('thead', {}, h('tr', {},
        head.map(([key, label, num, wide]) => h('th', {
          scope: 'col', class: [num ? 'num' : '', wide ? 'hide-narrow' : ''].join(' ').trim() || null, dataset: { col: key },
        }, label)),
        h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, t('tourney.col.actions'))))),
      h('tbody', {}, shown.map((s) => this.row(s)))));
    if (focused) this.listEl.querySelector(`tr[data-tournament='${focused}'] .btn`)?.focus();
  }

  row(s) {
    const registered = this.app.tourneys.registered.has(s.id);
    const players = s.capacity ? t('tourney.players_of', { entrants: s.entrants, capacity: s.capacity })
      : t('tourney.players', { entrants: s.entrants });
    const left = s.players_left !== null && s.players_left !== undefined && s.state !== 'finished' && s.state !== 'cancelled'
      ? h('small', { class: 'muted' }, t('tourney.players_left', { left: s.players_left })) : null;
    const badge = () => h('span', { class: 'game-badge', dataset: { game: s.game } }, tOf('game', s.game));
    const pill = () => h('span', { class: `state-pill state-${s.state}` }, stateText(s.state));
    return h('tr', { dataset: { tournament: s.id, game: s.game, state: s.state }, class: registered ? 'registered' : null },
      h('td', { class: 'tname' },
        h('a', { href: `#/tournament/${s.id}` }, h('span', { translate: 'no' }, tourneyName(s.name))),
        h('small', { class: 'muted kind' }, kindText(s.kind)),
        h('span', { class: 'narrow-only' }, badge(), ' ', pill()),
        registered ? h('span', { class: 'you-in' }, t('tourney.registered')) : null),
      h('td', { class: 'hide-narrow' }, badge()),
      h('td', { class: 'num buy-in' }, buyInText(s)),
      h('td', { class: 'num hide-narrow' }, formatChips(s.starting_chips)),
      h('td', { class: 'num hide-narrow' }, levelLengthText(s.level_seconds)),
      h('td', { class: 'num entrants' }, players, left ? [' ', left] : null),
      h('td', { class: 'state hide-narrow' }, pill()),
      h('td', { class: 'start hide-narrow' }, s.level && (s.state === 'running' || s.state === 'late_registration')
        ? t('tourney.clock.level', { number: s.level }) : startText(s)),
      h('td', { class: 'actions' },
        tourneyActions(this.app, s, { small: true, onChange: () => this.refresh() }),
        h('a', { class: 'btn small ghost details', href: `#/tournament/${s.id}` }, t('tourney.action.details'))));
  }

  createForm() {
    const field = (label, input) => h('label', {}, label, input);
    const num = (name, value, min, max) => h('input', { type: 'number', name, value, min, max, step: 1, required: true });
    const error = h('p', { class: 'form-error', role: 'alert' });
    const form = h('form', { class: 'create-table create-sng' },
      field(t('tourney.create.name'), h('input', { name: 'name', maxlength: 40, placeholder: t('tourney.create.name_hint') })),
      field(t('tourney.create.game'), h('select', { name: 'game' },
        GAME_CODES.map((code) => h('option', { value: code }, tOf('game', code))))),
      field(t('tourney.create.seats'), num('seats', 6, 2, 8)),
      field(t('tourney.create.buy_in'), num('buy_in', 100, 0, 1000000)),
      field(t('tourney.create.fee'), num('fee', 10, 0, 1000000)),
      field(t('tourney.create.starting_chips'), num('starting_chips', 1500, 100, 1000000)),
      field(t('tourney.create.level_length'), h('select', { name: 'level_minutes' },
        LEVEL_MINUTES.map((m) => h('option', { value: m, selected: m === 5 }, t('tourney.level_minutes', { minutes: m }))))),
      h('button', { class: 'btn primary', type: 'submit' }, t('tourney.create.submit')),
      error);
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      error.textContent = '';
      if (!this.app.account) {
        credentialsDialog(this.app, 'login');
        return;
      }
      const data = Object.fromEntries(new FormData(form));
      const spec = {
        game: data.game, seats: Number(data.seats), buy_in: Number(data.buy_in), fee: Number(data.fee),
        starting_chips: Number(data.starting_chips), level_seconds: Number(data.level_minutes) * 60,
      };
      if (data.name.trim()) spec.name = data.name.trim(); // else the room names it after its game
      const button = form.querySelector('button[type=submit]');
      button.disabled = true;
      try {
        const created = await tourneyApi.create(spec);
        try {
          this.app.tourneys.update(created.id, await tourneyApi.register(created.id));
        } catch (err) {
          if (err.code !== 'already_registered') throw err; // the room may register its creator itself
        }
        this.app.refreshAccountSoon();
        location.hash = `#/tournament/${created.id}`;
      } catch (err) {
        error.textContent = requestErrorText(err, (f) => FIELD_LABELS[f]?.() ?? null);
      } finally {
        button.disabled = false;
      }
    });
    return h('details', { class: 'create' }, h('summary', {}, t('tourney.create.title')),
      h('p', { class: 'muted' }, t('tourney.create.intro')), form);
  }
}
