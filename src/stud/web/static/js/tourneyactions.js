// What a player can do with a tournament, as buttons (the lobby's rows and the
// tournament's page share them): register (buy-in + fee from the balance), unregister
// before the start (refunded), ask bots to fill a Sit & Go one is registered in (it
// starts at once), go to one's table while it runs.

import { h } from './dom.js';
import { requestErrorText } from './errortext.js';
import { t } from './i18n.js';
import { tourneyApi } from './tourneyapi.js';
import { buyInText } from './tourneywords.js';

/** A lobby line's worth of a tournament from its page's view (the same fields as summary()). */
export function summaryOf(view) {
  const s = view.settings;
  return {
    id: s.id, name: s.name, game: s.game, kind: s.kind, buy_in: s.buy_in, fee: s.fee,
    starting_chips: s.structure?.starting_chips, level_seconds: s.structure?.level_seconds,
    table_seats: s.table_seats, entrants: (view.entrants ?? []).length,
    capacity: s.kind === 'sng' ? s.table_seats : s.max_entrants ?? null, start_at: s.start_at ?? null,
    state: view.late_registration ? 'late_registration' : view.state,
    players_left: view.players_left, prize_pool: view.prize_pool,
  };
}

/** The buttons for tournament `summary` (a summary() line) as the account stands in it. */
export function tourneyActions(app, summary, { onChange = () => {}, small = false } = {}) {
  const hub = app.tourneys;
  const id = summary.id;
  const registered = hub.registered.has(id);
  const table = hub.tables.get(id);
  const open = summary.state === 'registering' || summary.state === 'late_registration';
  const full = summary.capacity !== null && summary.capacity !== undefined && summary.entrants >= summary.capacity;
  const cls = (more) => `btn${small ? ' small' : ''} ${more}`;
  const run = (button, call, { follow = false } = {}) => async () => {
    button.disabled = true;
    try {
      if (!app.account) await app.guest();
      if (!app.account) return;
      const view = await call();
      if (view?.settings) hub.update(id, view);
      app.refreshAccountSoon();
      // Filled and started: the table (also announced by `tournament_seat`, which may come first).
      const seat = hub.tables.get(id);
      if (follow && seat) location.hash = `#/table/${seat}`;
    } catch (error) {
      app.toast(requestErrorText(error));
    } finally {
      button.disabled = false;
      onChange();
    }
  };
  const buttons = [];
  if (table && (summary.state === 'running' || summary.state === 'late_registration')) {
    buttons.push(h('a', { class: cls('primary my-table'), href: `#/table/${table}` }, t('tourney.action.my_table')));
  }
  if (open && !registered && !full) {
    const b = h('button', {
      type: 'button', class: cls('primary register'), dataset: { do: 'register' },
      title: t('tourney.action.register_title', { cost: buyInText(summary) }),
    }, t('tourney.action.register'));
    b.addEventListener('click', run(b, () => tourneyApi.register(id)));
    buttons.push(b);
  }
  if (registered && summary.state === 'registering') {
    if (summary.kind === 'sng' && !full) {
      const fill = h('button', { type: 'button', class: cls('fill'), dataset: { do: 'fill' } }, t('tourney.action.fill'));
      fill.addEventListener('click', run(fill, () => tourneyApi.fill(id), { follow: true }));
      buttons.push(fill);
    }
    const b = h('button', { type: 'button', class: cls('ghost unregister'), dataset: { do: 'unregister' } }, t('tourney.action.unregister'));
    b.addEventListener('click', run(b, () => tourneyApi.unregister(id)));
    buttons.push(b);
  }
  return buttons;
}
