// The live table: the felt, the action bar, the running log and the finished
// hands, seat controls (sit with a buy-in, sit out, leave), the turn sound and
// the chips moving at the showdown.

import { api } from './api.js';
import { ActionBar } from './actions.js';
import { chipButtons, sitDialog, waitingButtons } from './buyin.js';
import { ChatPanel } from './chat.js';
import { flyChips } from './chips.js';
import { h, fill } from './dom.js';
import { renderFelt } from './felt.js';
import { GAMES, seconds, stakesLong } from './format.js';
import { describe, logLine } from './handlog.js';
import { isNewHand } from './model.js';
import { rulesLink } from './rules.js';
import { renderHands } from './history.js';
import { preActionBoxes } from './preactions.js';
import { readoutText } from './readout.js';
import { turnBeep } from './sound.js';
// Tournament tables (issue 16): tourneytable.js draws their header, hint and log lines.
import { followTourneyTable, renderTourneyHeader, tourneyLogEntry, tourneyWatchingHint } from './tourneytable.js';

export class TableView {
  constructor(app, model, { autoSit = false, tile = false } = {}) {
    this.app = app;
    this.model = model;
    this.autoSit = autoSit;
    this.tile = tile; // one of several tables on the screen (tiles.js)
    this.rendered = 0;
    this.stick = true; // keep the log scrolled to its end unless the reader scrolls up
    this.logContext = {};
    this.handsRows = [];
    this.listeners = [];
    this.build();
  }

  build() {
    this.header = h('div', { class: 'table-head' });
    this.felt = h('div', { class: 'felt' });
    this.actionsEl = h('div', { class: 'action-bar', 'aria-live': 'polite' });
    this.logEl = h('ol', { class: 'log', 'aria-label': 'hand log' });
    this.handsEl = h('div', { class: 'hands' });
    const tab = (name, label) => h('button', {
      class: `tab${name === 'log' ? ' on' : ''}`, dataset: { tab: name }, onclick: () => this.showTab(name),
    }, label);
    this.side = h('aside', { class: 'side' },
      h('div', { class: 'tabs', role: 'tablist' }, tab('log', 'Hand log'), tab('hands', 'Hands')),
      h('div', { class: 'tab-body log-body', dataset: { body: 'log' } }, this.logEl),
      h('div', { class: 'tab-body', dataset: { body: 'hands' }, hidden: true }, this.handsEl));
    this.root = h('section', { class: `table-view${this.tile ? ' tile-mode' : ''}`, dataset: { table: this.model.id } },
      this.header,
      h('div', { class: 'table-main' },
        h('div', { class: 'felt-column' }, h('div', { class: 'felt-wrap' }, this.felt), this.actionsEl),
        this.side));
    this.chat = new ChatPanel(this);
    this.chat.attach(this.side, tab);
    this.bar = new ActionBar(this.actionsEl, (action, to) => this.act(action, to), { scope: this.root });
    const logBody = this.logEl.parentElement;
    logBody.addEventListener('scroll', () => {
      this.stick = logBody.scrollHeight - logBody.scrollTop - logBody.clientHeight < 40;
    }, { passive: true });
  }

  mount(container) {
    fill(container, this.root);
    const on = (target, type, fn) => {
      target.addEventListener(type, fn);
      this.listeners.push(() => target.removeEventListener(type, fn));
    };
    on(this.model, 'change', () => this.render());
    on(this.model, 'log', () => this.renderLog());
    on(this.model, 'log', () => this.chat.update());
    on(this.model, 'myturn', () => turnBeep());
    on(this.model, 'hands', () => this.loadHands());
    on(this.model, 'event', (e) => this.onEvent(e.detail));
    this.listeners.push(followTourneyTable(this)); // tournament tables: the player's finish
    if (this.model.state) this.render();
    this.renderLog();
    this.chat.render();
    this.loadHands();
    this.timer = setInterval(() => this.renderHint(), 500);
  }

  /** Whether table `id` is on the screen (for the turn alerts). */
  shows(id) {
    return id === this.model.id;
  }

  unmount() {
    for (const off of this.listeners) off();
    this.listeners = [];
    this.bar.destroy();
    clearInterval(this.timer);
  }

  showTab(name) {
    for (const b of this.side.querySelectorAll('.tab')) b.classList.toggle('on', b.dataset.tab === name);
    for (const b of this.side.querySelectorAll('.tab-body')) b.hidden = b.dataset.body !== name;
    const logBody = this.logEl.parentElement;
    if (name === 'log' && this.stick) logBody.scrollTop = logBody.scrollHeight;
  }

  act(action, to) {
    const turn = this.model.state?.turn;
    if (!turn) return false;
    return this.app.socket.send({ type: 'act', table: this.model.id, action, to, turn: turn.turn });
  }

  picture() {
    const { state, showdown } = this.model;
    const settings = state.settings;
    const useShowdown = !state.hand && showdown;
    const kept = useShowdown ? this.sameSeats() : null;
    return {
      settings,
      seats: state.seats,
      hand: state.hand ?? (useShowdown && showdown.hand ? { ...showdown.hand, seats: showdown.hand.seats.filter((s) => kept(s.seat)) } : null),
      you: state.you,
      button: state.button,
      turn: state.turn,
      result: useShowdown ? { ...showdown.result, awards: showdown.result.awards.filter((a) => kept(a.seat)) } : null,
      names: (seat) => this.model.name(seat),
      live: true,
      waiting: this.waitingText(),
      readout: state.hand ? readoutText(state.readout, settings.game) : '',
      boards: state.hand ? state.boards ?? {} : {},
      handKey: state.hand ? state.hand_number : showdown?.number ?? null,
    };
  }

  /** Whether a seat still holds the player of the last showdown (someone may have sat there since). */
  sameSeats() {
    const { state, showdown, recording } = this.model;
    const players = recording?.number === showdown?.number ? recording.players ?? [] : [];
    return (seat) => {
      const now = state.seats[seat];
      const then = players.find((p) => p.seat === seat);
      if (!now || !then) return true;
      return then.account_id !== undefined ? now.id === then.account_id : now.name === then.name;
    };
  }

  waitingText() {
    const state = this.model.state;
    const players = (state.seats ?? []).filter((p) => p && !p.sitting_out).length;
    if (players < 2) return 'Waiting for players…';
    if (state.next_hand_at) return 'The next hand is about to start…';
    return 'Waiting for the next hand…';
  }

  render() {
    const state = this.model.state;
    if (!state) return;
    const canSit = this.app.account && !this.model.seated && !state.tournament; // tournaments seat their players
    renderFelt(this.felt, this.picture(), { onSit: canSit ? (seat) => this.sitDialog(seat) : null });
    this.renderHeader();
    const taken = state.turn && this.model.preTaken === state.turn.turn; // a pre-action box acted
    const mine = state.turn && state.you !== null && state.turn.seat === state.you && !taken;
    const own = state.hand?.seats?.find((s) => s.seat === state.you);
    this.bar.update(mine ? state.legal : [], state.turn?.turn, taken ? 'Pre-action taken…' : this.hint(), {
      bet: own?.bet ?? 0,
      idle: preActionBoxes(this.model),
      readout: state.hand && state.readout ? readoutText(state.readout, state.settings.game) : null,
    });
    this.root.classList.toggle('my-turn', Boolean(mine && state.legal?.length));
    if (this.autoSit && this.app.account && !this.model.seated) {
      this.autoSit = false;
      // A full table (from the lobby's Full): its waiting list instead.
      sitDialog(this, null, { wait: state.seats.every((p) => p) });
    }
  }

  hint() {
    const state = this.model.state;
    if (!state) return '';
    if (state.tournament && !this.model.seated) return tourneyWatchingHint(this);
    if (!this.app.account) return 'Watching. Log in or play as a guest to take a seat.';
    if (!this.model.seated && (state.seats ?? []).every((p) => p)) return 'Watching. The table is full: join its waiting list to play.';
    if (!this.model.seated) return 'Watching. Pick an empty seat to play.';
    const me = state.seats[state.you];
    const dealtIn = state.hand && (state.hand_seats ?? []).includes(state.you);
    const live = state.hand?.seats?.find((s) => s.seat === state.you)?.live;
    if (me?.sitting_out && dealtIn && live) return 'You sit out from the next hand: play this one on.';
    if (me?.sitting_out) return 'You are sitting out.';
    if (me?.leaving) return 'You folded and leave the table when this hand ends.';
    if (state.hand && !dealtIn) return 'You join the next hand.';
    if (state.turn && state.hand) return `Waiting for ${this.model.name(state.turn.seat)}…`;
    if (state.next_hand_at) {
      const left = state.next_hand_at - this.app.socket.now();
      return left > 0 ? `Next hand in ${seconds(left)}` : 'Dealing…';
    }
    return 'Waiting for the next hand…';
  }

  renderHint() {
    const hint = this.actionsEl.querySelector('.action-hint');
    if (hint) hint.textContent = this.hint();
  }

  renderHeader() {
    const state = this.model.state;
    if (state.tournament) return renderTourneyHeader(this); // no buy-in, top-up, waiting list or leaving
    const s = state.settings;
    const me = this.model.seated ? state.seats[state.you] : null;
    const buttons = this.tile
      ? [h('a', { class: 'btn ghost small', href: `#/table/${this.model.id}` }, 'Open')]
      : [h('a', { class: 'btn ghost', href: '#/lobby' }, '← Lobby')];
    const seatedAt = this.app.seatedTables().map((m) => m.id);
    if (!this.tile && seatedAt.length > 1) {
      buttons.push(h('a', { class: 'btn ghost tiles-link', href: `#/tables/${seatedAt.join(',')}` }, `All my tables (${seatedAt.length})`));
    }
    if (me) {
      buttons.push(me.sitting_out
        ? h('button', { class: 'btn', onclick: () => this.command('sit_in') }, 'Sit in')
        : h('button', { class: 'btn', onclick: () => this.command('sit_out') }, 'Sit out'));
      buttons.push(...chipButtons(this));
      buttons.push(h('button', { class: 'btn danger', dataset: { do: 'leave' }, onclick: () => this.leave() }, 'Leave table'));
    } else if (this.app.account && state.seats.some((p) => !p) && !(state.waiting ?? []).length) {
      buttons.push(h('button', { class: 'btn primary', onclick: () => this.sitDialog(null) }, 'Take a seat'));
    }
    if (!me) buttons.push(...waitingButtons(this));
    // One number for a hand everywhere: its id, as in its downloads and the replayer.
    const handId = state.hand_id ?? state.last_hand_id;
    fill(this.header,
      h('div', { class: 'table-name' },
        h('h1', {}, s.name),
        h('span', { class: 'game-badge', dataset: { game: s.game } }, GAMES[s.game] ?? s.game),
        rulesLink(s.game),
        h('span', { class: 'muted' }, stakesLong(s)),
        handId ? h('span', { class: 'muted hand-number', dataset: { hand: handId } }, `· hand #${handId}`) : null),
      h('div', { class: 'table-buttons' }, buttons));
  }

  command(type) {
    this.app.socket.send({ type, table: this.model.id });
    if (type === 'leave') setTimeout(() => this.app.refreshAccount(), 600);
  }

  sitDialog(seat) {
    sitDialog(this, seat);
  }

  /** Leave the table; during a hand you are in, say first that it folds your hand. */
  leave() {
    const state = this.model.state;
    const me = state.seats[state.you];
    const live = state.hand?.seats?.find((s) => s.seat === state.you);
    if (!me?.in_hand || !live?.live || live.all_in) {
      this.command('leave');
      return;
    }
    const dialog = h('dialog', { class: 'dialog confirm-leave' },
      h('form', { method: 'dialog' },
        h('h2', {}, 'Leave during the hand?'),
        h('p', {}, 'Leaving now folds your hand. Your stack goes back to your balance when the hand ends.'),
        h('div', { class: 'dialog-buttons' },
          h('button', { value: 'stay', class: 'btn ghost' }, 'Stay'),
          h('button', { value: 'leave', class: 'btn danger' }, 'Fold and leave'))));
    dialog.addEventListener('close', () => {
      if (dialog.returnValue === 'leave') this.command('leave');
      dialog.remove();
    });
    document.body.append(dialog);
    dialog.showModal();
  }

  renderLog() {
    const model = this.model;
    const total = model.logTotal ?? 0;
    let fresh = total - this.rendered;
    if (fresh <= 0) return;
    if (fresh > model.log.length) {
      this.logEl.replaceChildren();
      this.logContext = {};
      fresh = model.log.length;
    }
    const body = this.logEl.parentElement;
    const ctx = this.logContext;
    ctx.bigBet = model.state?.settings?.big_bet;
    for (const e of model.log.slice(model.log.length - fresh)) {
      if (e.type === 'street') ctx.street = e.street;
      if (e.type === 'pots') ctx.pots = e.pots.length;
      if (isNewHand(e)) ctx.pots = 1;
      const entry = describe(e, (seat) => model.name(seat), model.you, ctx) ?? tourneyLogEntry(e);
      if (!entry) continue;
      const line = logLine(entry);
      if (e.type === 'hand_finished' && e.hand_id) {
        line.append(' ', h('a', { href: `#/replay/${e.hand_id}`, class: 'replay-link' }, 'replay'));
      }
      this.logEl.append(line);
    }
    while (this.logEl.childElementCount > 400) this.logEl.firstElementChild.remove();
    this.rendered = total;
    if (body && this.stick) body.scrollTop = body.scrollHeight;
  }

  async loadHands() {
    try {
      this.handsRows = await api.tableHands(this.model.id);
    } catch {
      this.handsRows = this.model.finished.map((f) => ({ id: f.hand_id, number: f.number }));
    }
    renderHands(this.handsEl, this.handsRows);
  }

  onEvent({ event, live }) {
    if (event.type === 'hand_finished' && live) {
      // The state that follows draws the showdown; move the chips once it is on the felt.
      requestAnimationFrame(() => requestAnimationFrame(() => {
        const awards = this.model.showdown?.result?.awards ?? [];
        if (awards.length) flyChips(this.felt, awards);
      }));
    }
  }
}
