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
import { describe, logLine, nameEl } from './handlog.js';
import { t } from './i18n.js';
import { isNewHand } from './model.js';
import { rulesLink } from './rules.js';
import { renderHands } from './history.js';
import { loadNotes } from './notes.js';
import { preActionBoxes } from './preactions.js';
import { prefBox } from './prefs.js';
import { readoutText } from './readout.js';
import { turnBeep } from './sound.js';
import { decorateSeat } from './stats.js';
import { gameName, stakesText, timeLeft } from './tablewords.js';
import { slot, splice } from './tparts.js';
import { tableTitle } from './tourneywords.js';

// Tournament tables (issue 16): tourneytable.js draws their header, hint and log lines.
import { followTourneyTable, renderTourneyHeader, tourneyLogEntry, tourneyWatchingHint } from './tourneytable.js';

let views = 0; // tables drawn on this page: ids for their tabs and panels

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
    this.uid = `tv${++views}`;
    this.header = h('div', { class: 'table-head' });
    this.felt = h('div', { class: 'felt', role: 'group', 'aria-label': t('table.felt_label') });
    this.actionsEl = h('div', { class: 'action-bar' });
    // Said once when a turn comes (the bar itself changes too often to be a live region).
    this.turnNews = h('div', { class: 'visually-hidden', 'aria-live': 'polite' });
    // The log is a polite live region: each new line (one per event) is read once.
    this.logEl = h('ol', { class: 'log', 'aria-live': 'polite', 'aria-relevant': 'additions', 'aria-label': t('table.log.label') });
    this.handsEl = h('div', { class: 'hands' });
    const tab = (name, label) => h('button', {
      class: `tab${name === 'log' ? ' on' : ''}`, dataset: { tab: name }, role: 'tab', type: 'button',
      id: `${this.uid}-tab-${name}`, 'aria-controls': `${this.uid}-panel-${name}`,
      'aria-selected': String(name === 'log'), tabindex: name === 'log' ? '0' : '-1',
      onclick: () => this.showTab(name),
    }, label);
    const tabs = h('div', { class: 'tabs', role: 'tablist', 'aria-label': t('table.side_label') },
      tab('log', t('table.tab.log')), tab('hands', t('table.tab.hands')));
    tabs.addEventListener('keydown', (e) => this.tabKey(e));
    this.side = h('aside', { class: 'side', 'aria-label': t('table.side_label') },
      tabs,
      h('div', { class: 'tab-body log-body', dataset: { body: 'log' } }, this.logEl),
      h('div', { class: 'tab-body', dataset: { body: 'hands' }, hidden: true }, this.handsEl));
    this.prefsEl = h('div', { class: 'table-prefs' },
      prefBox('shortcuts', t('table.prefs.shortcuts'), t('table.prefs.shortcuts_hint'), () => this.render()));
    this.root = h('section', { class: `table-view${this.tile ? ' tile-mode' : ''}`, dataset: { table: this.model.id } },
      this.header,
      h('div', { class: 'table-main' },
        h('div', { class: 'felt-column' }, h('div', { class: 'felt-wrap' }, this.felt), this.actionsEl, this.turnNews,
          this.tile ? null : this.prefsEl),
        this.side));
    this.chat = new ChatPanel(this);
    this.chat.attach(this.side, tab);
    this.markPanels();
    this.bar = new ActionBar(this.actionsEl, (action, to) => this.act(action, to), { scope: this.root, table: this.model.id });
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
    on(this.app.socket, 'welcome', () => this.chat.flush());
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

  /** The tab's title while this table is shown: its name (a tournament's: "Daily Razz · Table 2"). */
  title() {
    return tableTitle(this.model.state);
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

  /** The side's bodies as the tab panels of its tabs (the chat adds its own tab and body). */
  markPanels() {
    for (const body of this.side.querySelectorAll('.tab-body')) {
      const name = body.dataset.body;
      body.id = `${this.uid}-panel-${name}`;
      body.setAttribute('role', 'tabpanel');
      body.setAttribute('aria-labelledby', `${this.uid}-tab-${name}`);
      body.tabIndex = 0;
    }
  }

  /** Arrow keys, Home and End move between the tabs (the ARIA tabs pattern). */
  tabKey(e) {
    const tabs = [...this.side.querySelectorAll('.tabs [role="tab"]')];
    const at = tabs.indexOf(document.activeElement);
    if (at < 0) return;
    const next = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: tabs.length - 1 }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    const tab = tabs[(next + tabs.length) % tabs.length];
    tab.focus();
    tab.click();
  }

  showTab(name) {
    this.markPanels();
    for (const b of this.side.querySelectorAll('.tab')) {
      const on = b.dataset.tab === name;
      b.classList.toggle('on', on);
      b.setAttribute('aria-selected', String(on));
      b.tabIndex = on ? 0 : -1;
    }
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
      onSeat: this.app.account ? (plate, player) => decorateSeat(plate, player, this.app.account.id, () => this.render()) : null,
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
    if (players < 2) return t('table.waiting_players');
    if (state.next_hand_at) return t('table.next_hand_soon');
    return t('table.waiting_next');
  }

  render() {
    const state = this.model.state;
    if (!state) return;
    const canSit = this.app.account && !this.model.seated && !state.tournament; // tournaments seat their players
    loadNotes(this.app.account, () => this.render());
    renderFelt(this.felt, this.picture(), { onSit: canSit ? (seat) => this.sitDialog(seat) : null });
    this.renderHeader();
    const taken = state.turn && this.model.preTaken === state.turn.turn; // a pre-action box acted
    const mine = state.turn && state.you !== null && state.turn.seat === state.you && !taken;
    const own = state.hand?.seats?.find((s) => s.seat === state.you);
    this.announceTurn(mine && state.legal?.length ? state.turn.turn : null);
    this.bar.update(mine ? state.legal : [], state.turn?.turn, taken ? t('table.pre.taken') : this.hint(), {
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

  /** Say "Your turn" once when a turn of ours comes (null: none now). */
  announceTurn(turn) {
    if (turn === this.announced) return;
    this.announced = turn;
    this.turnNews.textContent = turn === null ? '' : t('table.your_turn');
  }

  hint() {
    const state = this.model.state;
    if (!state) return '';
    if (state.tournament && !this.model.seated) return tourneyWatchingHint(this);
    if (!this.app.account) return t('table.hint.log_in');
    if (!this.model.seated && (state.seats ?? []).every((p) => p)) return t('table.hint.full');
    if (!this.model.seated) return t('table.hint.pick_seat');
    const me = state.seats[state.you];
    const dealtIn = state.hand && (state.hand_seats ?? []).includes(state.you);
    const live = state.hand?.seats?.find((s) => s.seat === state.you)?.live;
    if (me?.sitting_out && dealtIn && live) return t('table.hint.sit_out_after');
    if (me?.sitting_out) return t('table.hint.sitting_out');
    if (me?.leaving) return t('table.hint.leaving');
    if (state.hand && !dealtIn) return t('table.hint.join_next');
    if (state.turn && state.hand) return splice(t('table.hint.waiting_for', { name: slot('name') }), { name: nameEl(this.model.name(state.turn.seat)) });
    if (state.next_hand_at) {
      const left = state.next_hand_at - this.app.socket.now();
      return left > 0 ? t('table.hint.next_in', { time: timeLeft(left) }) : t('table.hint.dealing');
    }
    return t('table.waiting_next');
  }

  renderHint() {
    const hint = this.actionsEl.querySelector('.action-hint');
    if (!hint) return;
    const words = this.hint();
    const text = Array.isArray(words) ? words.map((w) => (typeof w === 'string' ? w : w.textContent)).join('') : words;
    if (hint.textContent !== text) fill(hint, words);
  }

  /** "Sit out after my next bring-in": the bring-in falls by the cards, so it is paid, then the player sits out. */
  bringInBox() {
    const box = h('input', { type: 'checkbox', checked: Boolean(this.model.state.mine?.sit_out_after_bring_in), onchange: () => {
      this.app.socket.send({ type: 'sit_out_bring_in', table: this.model.id, on: box.checked });
    } });
    return h('label', { class: 'toggle sit-out-bring-in', title: t('table.sit_out_bring_in_hint') }, box, ' ', t('table.sit_out_bring_in'));
  }

  renderHeader() {
    const state = this.model.state;
    if (state.tournament) return renderTourneyHeader(this); // no buy-in, top-up, waiting list or leaving
    const s = state.settings;
    const me = this.model.seated ? state.seats[state.you] : null;
    const buttons = this.tile
      ? [h('a', { class: 'btn ghost small', href: `#/table/${this.model.id}` }, t('table.open'))]
      : [h('a', { class: 'btn ghost', href: '#/lobby' }, t('table.back_to_lobby'))];
    const seatedAt = this.app.seatedTables().map((m) => m.id);
    if (!this.tile && seatedAt.length > 1) {
      buttons.push(h('a', { class: 'btn ghost tiles-link', href: `#/tables/${seatedAt.join(',')}` }, t('table.all_mine', { n: seatedAt.length })));
    }
    if (me) {
      buttons.push(me.sitting_out
        ? h('button', { class: 'btn', dataset: { do: 'sit-in' }, onclick: () => this.command('sit_in') }, t('table.sit_in'))
        : h('button', { class: 'btn', dataset: { do: 'sit-out' }, onclick: () => this.command('sit_out') }, t('table.sit_out')));
      if (!me.sitting_out && !this.tile) buttons.push(this.bringInBox()); // a tile's header stays one line
      buttons.push(...chipButtons(this));
      buttons.push(h('button', { class: 'btn danger', dataset: { do: 'leave' }, onclick: () => this.leave() }, t('table.leave')));
    } else if (this.app.account && state.seats.some((p) => !p) && !(state.waiting ?? []).length) {
      buttons.push(h('button', { class: 'btn primary', onclick: () => this.sitDialog(null) }, t('table.take_seat')));
    }
    if (!me) buttons.push(...waitingButtons(this));
    // One number for a hand everywhere: its id, as in its downloads and the replayer.
    const handId = state.hand_id ?? state.last_hand_id;
    fill(this.header,
      h('div', { class: 'table-name' },
        h('h1', { translate: 'no' }, s.name),
        h('span', { class: 'game-badge', dataset: { game: s.game } }, gameName(s.game)),
        rulesLink(s.game),
        h('span', { class: 'muted' }, stakesText(s)),
        handId ? h('span', { class: 'muted hand-number', dataset: { hand: handId } }, '· ', t('table.hand_number', { id: String(handId) })) : null),
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
        h('h2', { id: `${this.uid}-leave` }, t('table.leave_dialog.title')),
        h('p', {}, t('table.leave_dialog.text')),
        h('div', { class: 'dialog-buttons' },
          h('button', { value: 'stay', class: 'btn ghost' }, t('table.leave_dialog.stay')),
          h('button', { value: 'leave', class: 'btn danger' }, t('table.leave_dialog.leave')))));
    dialog.setAttribute('aria-labelledby', `${this.uid}-leave`);
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
    // Many lines at once (joining, catching up): drawn as one change, not read line by line.
    const bulk = fresh > 3;
    if (bulk) this.logEl.setAttribute('aria-busy', 'true');
    ctx.bigBet = model.state?.settings?.big_bet;
    for (const e of model.log.slice(model.log.length - fresh)) {
      if (e.type === 'street') ctx.street = e.street;
      if (e.type === 'pots') ctx.pots = e.pots.length;
      if (isNewHand(e)) ctx.pots = 1;
      const entry = describe(e, (seat) => model.name(seat), model.you, ctx) ?? tourneyLogEntry(e);
      if (!entry) continue;
      const line = logLine(entry);
      if (e.type === 'hand_finished' && e.hand_id) {
        line.append(' ', h('a', { href: `#/replay/${e.hand_id}`, class: 'replay-link' }, t('table.replay_link')));
      }
      this.logEl.append(line);
    }
    while (this.logEl.childElementCount > 400) this.logEl.firstElementChild.remove();
    if (bulk) this.logEl.removeAttribute('aria-busy');
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
