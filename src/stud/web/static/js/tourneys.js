// The tournaments this page follows over the room's websocket: `watch_tournament` for
// each tournament a view shows (sent again after every reconnect), the latest view of
// each, the account's own seat in each (`tournament_seat`: the table follows the player
// when they are seated at the start or moved), and the player's own finish (a place,
// perhaps a prize) the moment the tournament's view first shows it.

import { t } from './i18n.js';
import { tourneyApi } from './tourneyapi.js';
import { finishText, tableIdOf, tourneyName, tourneyTableOf } from './tourneywords.js';

const LIVE_STATES = new Set(['registering', 'late_registration', 'running']);

export class Tourneys extends EventTarget {
  constructor(app) {
    super();
    this.app = app;
    this.watchers = new Map(); // tournament id -> how many views watch it
    this.views = new Map(); // tournament id -> its latest view
    this.tables = new Map(); // tournament id -> the account's table in it
    this.places = new Map(); // tournament id -> the account's place when last seen (null: still in)
    this.registered = new Set(); // tournaments the account is registered in, as far as we know
    this.scanned = undefined; // the account whose seats were looked up after (re)connecting
    this.following = new Map(); // tournament id -> stop watching: those the account plays in
    this.told = new Map(); // tournament id -> the table `tournament_seat` last named
    app.socket.addEventListener('welcome', (e) => this.welcome(e.detail));
  }

  /** Watch tournament `id` (counted: several views may); returns the function that stops. */
  watch(id) {
    const count = this.watchers.get(id) ?? 0;
    this.watchers.set(id, count + 1);
    if (!count) this.send('watch_tournament', id);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const left = (this.watchers.get(id) ?? 1) - 1;
      if (left > 0) {
        this.watchers.set(id, left);
      } else {
        this.watchers.delete(id);
        this.send('unwatch_tournament', id);
      }
    };
  }

  send(type, id) {
    this.app.socket.send({ type, tournament: id });
  }

  welcome(msg) {
    for (const id of this.watchers.keys()) this.send('watch_tournament', id);
    const account = msg.account?.id ?? null;
    if (account !== this.scanned) {
      this.scanned = account;
      this.registered.clear();
      this.tables.clear();
      this.places.clear();
      this.told.clear();
      for (const stop of this.following.values()) stop();
      this.following.clear();
      if (account !== null) this.findMySeats();
    }
  }

  /** A message of the socket: true when it was a tournament's. */
  onMessage(msg) {
    if (msg.type === 'tournament') {
      this.update(msg.tournament, msg.view);
      return true;
    }
    if (msg.type === 'tournament_seat') {
      this.seated(msg.tournament, msg.table);
      return true;
    }
    return false;
  }

  /** The account's entrant in a tournament's view, or null. */
  mine(view) {
    const me = this.app.account;
    if (!me || !view) return null;
    return (view.entrants ?? []).find((e) => (e.id !== undefined ? e.id === me.id : e.name === me.name)) ?? null;
  }

  /** A view of tournament `id` (from the socket, or a REST answer with its `me`). */
  update(id, view) {
    this.views.set(id, view);
    const entrant = this.mine(view);
    const registered = view.me ? view.me.registered : entrant !== null;
    if (registered) this.registered.add(id);
    else this.registered.delete(id);
    const before = this.places.get(id);
    const place = entrant?.place ?? null;
    if (entrant) this.places.set(id, place);
    const table = tableRef(id, view.me ? view.me.table : entrant?.table);
    if (table && place === null) this.follow(id, table);
    else this.tables.delete(id);
    if (entrant && place !== null && before === null) this.finished(id, view, entrant);
    this.emit('view', { id, view });
  }

  /** The account sits at `table` in tournament `id`: watch both (turns and the finish reach it anywhere). */
  follow(id, table) {
    this.tables.set(id, table);
    if (!this.following.has(id)) this.following.set(id, this.watch(id));
  }

  /** The tournament placed the account: said here unless its table (which says it) is on the screen. */
  finished(id, view, entrant) {
    this.following.get(id)?.();
    this.following.delete(id);
    this.tables.delete(id);
    if (entrant.prize) this.app.refreshAccountSoon();
    const shown = this.app.view?.model?.id;
    if (!(shown !== undefined && tourneyTableOf(shown)?.[0] === id)) {
      this.app.toast(t('tourney.toast.finished', { name: tourneyName(view.settings?.name), result: finishText(entrant, (view.entrants ?? []).length) }));
    }
    this.emit('finished', { id, view, entrant });
  }

  /** Seated at the start, or moved: the player's table view goes there when it showed this tournament. */
  seated(id, table) {
    const previous = this.told.get(id);
    this.told.set(id, table);
    this.follow(id, table);
    this.registered.add(id);
    this.app.model(table).expectSeat = true; // watched from now on: its turns alert from anywhere
    const view = this.app.view;
    const shown = view?.model?.id;
    const follows = view?.tournamentId === id || view?.followsTournaments
      || (shown !== undefined && tourneyTableOf(shown)?.[0] === id);
    if (follows && !(view?.tile)) {
      location.hash = `#/table/${table}`;
    } else {
      const name = tourneyName(this.views.get(id)?.settings?.name);
      this.app.toast(previous ? t('tourney.toast.moved', { name }) : t('tourney.toast.started', { name }));
    }
    this.emit('seat', { id, table });
  }

  /**
   * After a (re)connect as an account: its seats in running tournaments and its
   * registrations, so a reload keeps following them (the list says nothing of one account).
   */
  async findMySeats() {
    let list;
    try {
      list = (await tourneyApi.list()).tournaments ?? [];
    } catch {
      return; // the tournaments are looked up again when their pages open
    }
    for (const summary of list) {
      if (summary.me) {
        this.noteMe(summary.id, summary.me);
      } else if (LIVE_STATES.has(summary.state)) {
        try {
          const view = await tourneyApi.get(summary.id);
          this.update(summary.id, view);
        } catch {
          // gone in the meantime
        }
      }
    }
    for (const [, table] of this.tables) this.app.model(table).expectSeat = true;
    this.emit('seats', {});
  }

  noteMe(id, me) {
    if (me.registered) this.registered.add(id);
    else this.registered.delete(id);
    const table = tableRef(id, me.table);
    if (table) this.follow(id, table);
  }

  emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }
}

/** A table as the view or REST names it (its number in the tournament, or the room's id) as the room's id. */
function tableRef(id, raw) {
  if (raw === null || raw === undefined) return null;
  return typeof raw === 'number' ? tableIdOf(id, raw) : String(raw);
}
