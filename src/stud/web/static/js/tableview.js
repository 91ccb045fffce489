// The live table: the felt, the action bar, the running log and the finished
// hands, seat controls (sit with a buy-in, sit out, leave), the turn sound and
// the chips moving at the showdown.

import { api } from './api.js';
import { ActionBar } from './actions.js';
import { flyChips } from './chips.js';
import { h, fill } from './dom.js';
import { renderFelt } from './felt.js';
import { chips, GAMES, seconds, stakesLong } from './format.js';
import { describe, logLine } from './handlog.js';
import { isNewHand } from './model.js';
import { rulesLink } from './rules.js';
import { renderHands } from './history.js';
import { turnBeep } from './sound.js';

export class TableView {
  constructor(app, model, { autoSit = false } = {}) {
    this.app = app;
    this.model = model;
    this.autoSit = autoSit;
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
    this.root = h('section', { class: 'table-view', dataset: { table: this.model.id } },
      this.header,
      h('div', { class: 'table-main' },
        h('div', { class: 'felt-column' }, h('div', { class: 'felt-wrap' }, this.felt), this.actionsEl),
        this.side));
    this.bar = new ActionBar(this.actionsEl, (action, to) => this.act(action, to));
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
    on(this.model, 'myturn', () => turnBeep());
    on(this.model, 'hands', () => this.loadHands());
    on(this.model, 'event', (e) => this.onEvent(e.detail));
    if (this.model.state) this.render();
    this.renderLog();
    this.loadHands();
    this.timer = setInterval(() => this.renderHint(), 500);
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
    return {
      settings,
      seats: state.seats,
      hand: state.hand ?? (useShowdown ? showdown.hand : null),
      you: state.you,
      button: state.button,
      turn: state.turn,
      result: useShowdown ? showdown.result : null,
      names: (seat) => this.model.name(seat),
      live: true,
      waiting: this.waitingText(),
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
    const canSit = this.app.account && !this.model.seated;
    renderFelt(this.felt, this.picture(), { onSit: canSit ? (seat) => this.sitDialog(seat) : null });
    this.renderHeader();
    const mine = state.turn && state.you !== null && state.turn.seat === state.you;
    this.bar.update(mine ? state.legal : [], state.turn?.turn, this.hint());
    if (this.autoSit && this.app.account && !this.model.seated) {
      this.autoSit = false;
      this.sitDialog(null);
    }
  }

  hint() {
    const state = this.model.state;
    if (!state) return '';
    if (!this.app.account) return 'Watching. Log in or play as a guest to take a seat.';
    if (!this.model.seated) return 'Watching. Pick an empty seat to play.';
    const me = state.seats[state.you];
    if (me?.sitting_out) return 'You are sitting out.';
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
    const s = state.settings;
    const me = this.model.seated ? state.seats[state.you] : null;
    const buttons = [h('a', { class: 'btn ghost', href: '#/lobby' }, '← Lobby')];
    if (me) {
      buttons.push(me.sitting_out
        ? h('button', { class: 'btn', onclick: () => this.command('sit_in') }, 'Sit in')
        : h('button', { class: 'btn', onclick: () => this.command('sit_out') }, 'Sit out'));
      buttons.push(h('button', { class: 'btn danger', onclick: () => this.command('leave') }, 'Leave table'));
    } else if (this.app.account) {
      buttons.push(h('button', { class: 'btn primary', onclick: () => this.sitDialog(null) }, 'Take a seat'));
    }
    fill(this.header,
      h('div', { class: 'table-name' },
        h('h1', {}, s.name),
        h('span', { class: 'game-badge', dataset: { game: s.game } }, GAMES[s.game] ?? s.game),
        rulesLink(s.game),
        h('span', { class: 'muted' }, stakesLong(s)),
        state.hand_number ? h('span', { class: 'muted hand-number' }, `· hand #${state.hand_number}`) : null),
      h('div', { class: 'table-buttons' }, buttons));
  }

  command(type) {
    this.app.socket.send({ type, table: this.model.id });
    if (type === 'leave') setTimeout(() => this.app.refreshAccount(), 600);
  }

  sitDialog(seat) {
    const s = this.model.state.settings;
    const balance = this.app.account?.balance ?? 0;
    const low = s.min_buy_in || s.big_bet * 10;
    const high = s.max_buy_in || s.big_bet * 100;
    const value = Math.max(low, Math.min(high, balance));
    const input = h('input', { type: 'number', name: 'buy_in', min: low, max: high, step: 1, value, required: true });
    const dialog = h('dialog', { class: 'dialog buy-in' },
      h('form', { method: 'dialog' },
        h('h2', {}, seat === null ? `Sit at ${s.name}` : `Sit in seat ${seat + 1}`),
        h('p', { class: 'muted' }, `Buy in between ${chips(low)} and ${chips(high)}. Your balance: ${chips(balance)}.`),
        h('label', {}, 'Buy-in ', input),
        h('div', { class: 'dialog-buttons' },
          h('button', { value: 'cancel', class: 'btn ghost', formnovalidate: true }, 'Cancel'),
          h('button', { value: 'sit', class: 'btn primary' }, 'Sit down'))));
    dialog.addEventListener('close', () => {
      if (dialog.returnValue === 'sit') {
        const msg = { type: 'sit', table: this.model.id, buy_in: Math.floor(Number(input.value)) };
        if (seat !== null) msg.seat = seat;
        this.app.socket.send(msg);
        setTimeout(() => this.app.refreshAccount(), 600);
      }
      dialog.remove();
    });
    document.body.append(dialog);
    dialog.showModal();
    input.select();
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
      const entry = describe(e, (seat) => model.name(seat), model.you, ctx);
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
