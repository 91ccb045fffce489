// One table as this client knows it: the server's latest state, the running log,
// the last showdown, and each hand's events (kept for the replayer).
//
// The server sends numbered events, then a full `state` after each step; the
// state is the truth the table is drawn from, the events feed the log, the
// showdown, the sounds and the chips that move.

import { resultOf, splitShown } from './reduce.js';
import { seatName } from './tablewords.js';

const ENGINE_EVENTS = new Set([
  'hand_started', 'ante', 'street', 'dealt', 'burn', 'community', 'double_bet_allowed', 'action',
  'actor_trusted', 'capped', 'uncalled', 'pots', 'showdown', 'show', 'muck', 'no_low', 'award',
  'hand_ended',
]);
const LOG_LIMIT = 500;
// Events the server sends alone, with no state after them: drawn as they come.
const LONE_EVENTS = new Set(['chat']);

/** The table's event for a new hand (`new_hand`; older servers sent `hand_started` with a number). */
export function isNewHand(e) {
  return e.type === 'new_hand' || (e.type === 'hand_started' && e.number !== undefined);
}

function isEngineEvent(e) {
  return ENGINE_EVENTS.has(e.type) && !isNewHand(e);
}

export class TableModel extends EventTarget {
  constructor(id) {
    super();
    this.id = id;
    this.n = 0; // last event number seen
    this.state = null;
    this.log = []; // events in the running log (this hand and the ones before)
    this.logged = { number: null, count: 0 }; // engine events of the current hand in the log
    this.lastHand = null;
    this.showdown = null;
    this.names = new Map();
    this.finished = []; // {hand_id, number} of hands that finished while we watched
    this.recording = null;
    this.resuming = true;
  }

  /** The `since` the socket asks with on every (re)connect; until the next state we catch up. */
  since() {
    this.resuming = true;
    return this.n;
  }

  get you() {
    return this.state?.you ?? null;
  }

  get seated() {
    return this.you !== null && this.you !== undefined;
  }

  name(seat) {
    return this.names.get(seat) ?? seatName(seat);
  }

  handle(msg) {
    if (msg.table !== this.id) return;
    if (msg.type === 'event') this.onEvent(msg);
    else if (msg.type === 'state') this.onState(msg);
  }

  onState(msg) {
    this.n = Math.max(this.n, msg.n ?? 0);
    const state = msg.state;
    this.state = state;
    for (const p of state.seats ?? []) if (p) this.names.set(p.seat, p.name);
    if (state.hand) {
      this.lastHand = state.hand;
      if (Array.isArray(state.hand.events)) this.catchUp(state);
    }
    this.resuming = false;
    this.emit('change');
    this.emit('log');
  }

  /** A state carrying the hand's events (after a watch): fill in what the log lacks. */
  catchUp(state) {
    const events = state.hand.events;
    const number = state.hand_number;
    if (this.logged.number !== number) {
      this.push({ type: 'new_hand', number, hand_id: state.hand_id });
      this.logged = { number, count: 0 };
    }
    if (this.logged.count < events.length) {
      for (const e of events.slice(this.logged.count)) this.push(e);
      this.logged.count = events.length;
    }
    if (!this.recording || this.recording.number !== number || this.recording.events.length < events.length) {
      const players = (state.hand_seats ?? []).map((seat) => {
        const p = state.seats[seat];
        return { seat, name: p?.name ?? this.name(seat), stack: p?.stack ?? 0 };
      });
      this.recording = { number, players, events: events.slice() };
    }
  }

  onEvent(msg) {
    if (msg.n <= this.n) return; // seen already (a resume overlaps)
    this.n = msg.n;
    const e = msg.event;
    const live = !this.resuming;
    if (isNewHand(e)) {
      this.showdown = null;
      this.logged = { number: e.number, count: 0 };
      this.recording = { number: e.number, players: e.players ?? [], events: [] };
      for (const p of e.players ?? []) this.names.set(p.seat, p.name);
    } else if (isEngineEvent(e)) {
      this.logged.count += 1;
      this.recording?.events.push(e);
    }
    if (e.type === 'seated' && e.player) this.names.set(e.seat, e.player.name);
    if (e.type === 'hand_finished') this.finish(e, live);
    if (e.type === 'turn' && live && e.seat === this.you) this.emit('myturn', e);
    if (e.type !== 'turn') this.push(e); // drawn with the state that follows the step's events
    this.emit('event', { event: e, live });
    // No state follows a chat line: while a player thinks, the next could be a minute away.
    if (live && LONE_EVENTS.has(e.type)) this.emit('log');
  }

  finish(e, live) {
    const result = resultOf(e.summary?.results);
    const hand = this.lastHand ? structuredClone(this.lastHand) : null;
    if (hand) {
      delete hand.events;
      hand.is_over = true;
      hand.to_act = null;
      for (const s of hand.seats) {
        s.bet = 0;
        const stack = e.stacks?.[s.seat] ?? e.stacks?.[String(s.seat)];
        if (stack !== undefined) s.stack = stack;
        const shown = result.shows[s.seat];
        if (shown) Object.assign(s, splitShown(shown.cards), { shown: true });
      }
      hand.pot = result.pots.reduce((sum, p) => sum + p.amount, 0) || hand.pot;
    }
    this.showdown = { number: e.number, hand_id: e.hand_id, hand, result, live };
    if (e.hand_id !== undefined && e.hand_id !== null) {
      this.finished.unshift({ hand_id: e.hand_id, number: e.number });
      this.save(e);
      this.emit('hands');
    }
  }

  /** Keep the finished hand's events in sessionStorage for the replayer. */
  save(e) {
    const rec = this.recording;
    if (!rec || rec.number !== e.number) return;
    const settings = this.state?.settings ?? {};
    const data = { id: e.hand_id, table_id: this.id, number: e.number, ...pick(settings), players: rec.players, events: rec.events, you: this.you, source: 'browser', shuffle: e.summary?.shuffle ?? null };
    try {
      sessionStorage.setItem(`stud.replay.${e.hand_id}`, JSON.stringify(data));
    } catch {
      // storage full or disabled: the replayer asks the server instead
    }
  }

  push(e) {
    this.logTotal = (this.logTotal ?? 0) + 1;
    this.log.push(e);
    if (this.log.length > LOG_LIMIT) this.log.splice(0, this.log.length - LOG_LIMIT);
  }

  emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }
}

function pick(s) {
  const { name, game, ante, bring_in, small_bet, big_bet, seats } = s;
  return { table_name: name, game, ante, bring_in, small_bet, big_bet, table_seats: seats };
}
