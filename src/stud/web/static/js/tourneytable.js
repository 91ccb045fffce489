// A tournament table (its id "t7.2", its state's `tournament` part): the header with the
// tournament's name and table, the level clock, players left of the entrants, and only
// what a tournament allows (sit out / sit in: no buy-in, top-up, waiting list or
// leaving); the tournament's own events in the hand log (level, moved, busted); and the
// player's finish (place, prize) as a dialog when the tournament's view first shows it.

import { h, fill } from './dom.js';
import { t, tOf } from './i18n.js';
import { nameEl } from './handlog.js';
import { levelClock } from './levelclock.js';
import { rulesLink } from './rules.js';
import { slot, splice } from './tparts.js';
import { finishText, levelInfo, stakesText, tourneyName, tourneyTableOf } from './tourneywords.js';

/** The header of tournament table `view` (a TableView whose state has a `tournament`). */
export function renderTourneyHeader(view) {
  const state = view.model.state;
  const tour = state.tournament;
  const s = state.settings;
  const me = view.model.seated ? state.seats[state.you] : null;
  const buttons = view.tile
    ? [h('a', { class: 'btn ghost small', href: `#/table/${view.model.id}` }, t('tourney.table.open'))]
    : [h('a', { class: 'btn ghost', href: '#/tournaments' }, t('tourney.back')),
      h('a', { class: 'btn ghost tourney-link', href: `#/tournament/${tour.id}` }, t('tourney.table.details'))];
  const seatedAt = view.app.seatedTables().map((m) => m.id);
  if (!view.tile && seatedAt.length > 1) { // playing cash tables or other tournaments too
    buttons.push(h('a', { class: 'btn ghost tiles-link', href: `#/tables/${seatedAt.join(',')}` },
      t('tourney.table.all_tables', { count: seatedAt.length })));
  }
  if (me) {
    buttons.push(me.sitting_out
      ? h('button', { class: 'btn', dataset: { do: 'sit_in' }, onclick: () => view.command('sit_in') }, t('tourney.table.sit_in'))
      : h('button', { class: 'btn', dataset: { do: 'sit_out' }, onclick: () => view.command('sit_out') }, t('tourney.table.sit_out')));
  }
  const handId = state.hand_id ?? state.last_hand_id;
  const finished = view.tourneyFinish;
  fill(view.header,
    h('div', { class: 'table-name' },
      h('h1', {}, h('span', { translate: 'no' }, tourneyName(tour.name))),
      h('span', { class: 'muted table-no' }, t('tourney.table_number', { number: tour.table })),
      h('span', { class: 'game-badge', dataset: { game: s.game } }, tOf('game', s.game)),
      rulesLink(s.game),
      handId ? h('span', { class: 'muted hand-number', dataset: { hand: handId } }, t('tourney.table.hand', { id: String(handId) })) : null),
    h('div', { class: 'table-buttons' }, buttons),
    levelClock(levelInfo(tour.level), view.app.socket.now(), {
      players: { left: tour.players_left, entrants: tour.entrants }, finalTable: tour.final_table,
    }),
    finished ? h('p', { class: 'tourney-result', role: 'status' }, finished) : null);
}

/** The action bar's words for someone watching a tournament table (nobody takes a seat here). */
export function tourneyWatchingHint(view) {
  return view.tourneyFinish ? t('tourney.table.watching_out') : t('tourney.table.watching');
}

/** A log line for the tournament's events at a table, or null (handlog.js describes the rest). */
export function tourneyLogEntry(e) {
  switch (e.type) {
    case 'level': {
      const level = levelInfo(e.level ?? e);
      if (!level?.number) return null;
      return { cls: 'note level', parts: [t('tourney.log.level', { number: level.number, stakes: stakesText(level) })] };
    }
    case 'moved':
      return {
        cls: 'table',
        parts: splice(t('tourney.log.moved', { name: slot('name'), table: e.to ?? '' }), { name: nameEl(e.name ?? '') }),
      };
    case 'busted': {
      const words = e.prize
        ? t('tourney.log.busted_paid', { name: slot('name'), place: e.place, prize: e.prize })
        : t('tourney.log.busted', { name: slot('name'), place: e.place });
      return { cls: 'table busted', parts: splice(words, { name: nameEl(e.name ?? '') }) };
    }
    default:
      return null;
  }
}

/**
 * While a tournament table is on the screen: follow its tournament, and when the player's
 * finish first shows, say it (a dialog, and a line under the clock). Returns the stop function.
 */
export function followTourneyTable(view) {
  const ids = tourneyTableOf(view.model.id);
  if (!ids) return () => {};
  const [tid] = ids;
  const hub = view.app.tourneys;
  const stop = hub.watch(tid);
  const known = hub.views.get(tid);
  const mine = known ? hub.mine(known) : null;
  if (mine?.place) view.tourneyFinish = finishText(mine, known.entrants.length);
  const onFinish = (e) => {
    if (e.detail.id !== tid) return;
    view.tourneyFinish = finishText(e.detail.entrant, e.detail.view.entrants.length);
    // The header's line and the action bar's words both say it (the bar may already show
    // the watcher's hint: the table's state can reach us before the tournament's finish).
    if (view.model.state) view.render();
    if (!view.tile) finishDialog(tid, e.detail.entrant, e.detail.view);
  };
  hub.addEventListener('finished', onFinish);
  return () => {
    stop();
    hub.removeEventListener('finished', onFinish);
  };
}

/** The player's finish: place, prize, and the way back to the tournament or the lobby. */
function finishDialog(tid, entrant, tview) {
  document.querySelector('dialog.tourney-finish')?.remove();
  const won = entrant.place === 1;
  const dialog = h('dialog', { class: 'dialog tourney-finish', 'aria-labelledby': 'tourney-finish-h' },
    h('form', { method: 'dialog' },
      h('h2', { id: 'tourney-finish-h' }, won ? t('tourney.finish.won_title') : t('tourney.finish.title', { place: entrant.place })),
      h('p', {}, finishText(entrant, tview.entrants.length)),
      h('p', { class: 'muted' }, entrant.prize ? t('tourney.finish.credited') : t('tourney.finish.no_prize')),
      h('div', { class: 'dialog-buttons' },
        h('button', { value: 'stay', class: 'btn ghost' }, t('tourney.finish.watch')),
        h('button', { value: 'details', class: 'btn primary' }, t('tourney.finish.results')))));
  dialog.addEventListener('close', () => {
    if (dialog.returnValue === 'details') location.hash = `#/tournament/${tid}`;
    dialog.remove();
  });
  document.body.append(dialog);
  dialog.showModal();
}
