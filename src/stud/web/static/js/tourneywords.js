// How a tournament reads to a person: its buy-in, state, start, level length, levels,
// places and prizes, in the page's language (the shapes are stud.tournament's summary(),
// view() and table_view(), docs/tournaments.md).

import { formatChips, t } from './i18n.js';

/** "100+10" (buy-in + fee) as the tournament's header writes it; a free tournament is a freeroll. */
export function buyInText(s) {
  if (!s.buy_in && !s.fee) return t('tourney.freeroll');
  return `${formatChips(s.buy_in)}+${formatChips(s.fee)}`;
}

/** The room's own tournaments (stud.server.room.config.DEFAULT_TOURNAMENTS), named in the
 * page's language; any other name (a player's, an operator's) is shown as it was given. */
const HOUSE_NAMES = {
  'Stud Sit & Go': () => t('tourney.house.sng_stud'),
  'Stud Hi/Lo Sit & Go': () => t('tourney.house.sng_stud8'),
  'Razz Sit & Go': () => t('tourney.house.sng_razz'),
  'Stud Half-Hourly': () => t('tourney.house.mtt_stud'),
};

/** A tournament's name as the page shows it. */
export function tourneyName(name) {
  const house = Object.hasOwn(HOUSE_NAMES, name ?? '') ? HOUSE_NAMES[name] : null;
  return house ? house() : (name ?? '');
}

/** Sit & Go or multi-table. */
export function kindText(kind) {
  return kind === 'mtt' ? t('tourney.kind.mtt') : t('tourney.kind.sng');
}

/** The state as the lobby shows it (late registration is a running tournament still taking entrants). */
export function stateText(state) {
  switch (state) {
    case 'registering': return t('tourney.state.registering');
    case 'late_registration': return t('tourney.state.late_registration');
    case 'running': return t('tourney.state.running');
    case 'finished': return t('tourney.state.finished');
    case 'cancelled': return t('tourney.state.cancelled');
    default: return t('tourney.state.other', { state: String(state) });
  }
}

/** How long a level lasts: whole minutes as minutes, anything else in seconds. */
export function levelLengthText(seconds) {
  const s = Number(seconds) || 0;
  if (s >= 60 && s % 60 === 0) return t('tourney.level_minutes', { minutes: s / 60 });
  return t('tourney.level_seconds', { seconds: Math.round(s) });
}

/** When it starts: a Sit & Go when its seats are full, a scheduled one at its time. */
export function startText(summary) {
  if (summary.start_at) return whenText(summary.start_at);
  return t('tourney.starts_when_full');
}

/** A moment (seconds, the server's clock) as a date and a time. */
export function whenText(at) {
  return t('tourney.when', { at });
}

/** A place: 1st, 2nd, 3rd… (第3名). */
export function placeText(place) {
  return t('tourney.place', { place });
}

/**
 * The level clock from either shape the server may send: the core's
 * {level: {level, ante, ...}, next: {...}, ends_at} or a flat {number, ante, ..., next, ends_at}.
 */
export function levelInfo(raw) {
  if (!raw) return null;
  const current = raw.level && typeof raw.level === 'object' ? raw.level : raw;
  const one = (l) => (l ? {
    number: Number(l.level ?? l.number), ante: l.ante, bring_in: l.bring_in, small_bet: l.small_bet, big_bet: l.big_bet,
  } : null);
  return { ...one(current), ends_at: raw.ends_at ?? current.ends_at ?? null, next: one(raw.next ?? current.next) };
}

/** A level's four amounts: "ante 8 · bring-in 12 · 40/80". */
export function stakesText(level) {
  return t('tourney.level.stakes', {
    ante: level.ante, bring_in: level.bring_in, small: level.small_bet, big: level.big_bet,
  });
}

/** Seconds left as a clock reads them: 4:05, or 1:02:03 past an hour. */
export function clockText(seconds) {
  const total = Math.max(0, Math.ceil(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** The id of table `n` of tournament `tid`, as the room names it for watching and playing. */
export function tableIdOf(tid, n) {
  return `t${tid}.${n}`;
}

// The letter in brackets: the catalog test would read the letter and a parenthesis as a message.
const TABLE_ID = /^[t](\d+)\.(\d+)$/;

/** A table id of the address or the server: a cash table's number or a tournament's "t7.2"; null if neither. */
export function parseTableId(text) {
  const value = String(text ?? '');
  if (/^\d+$/.test(value) && Number(value) > 0) return Number(value);
  return TABLE_ID.test(value) ? value : null;
}

/** [tournament, table number] of a tournament table's id, or null for a cash table. */
export function tourneyTableOf(id) {
  const match = TABLE_ID.exec(String(id ?? ''));
  return match ? [Number(match[1]), Number(match[2])] : null;
}

/** A table's name for a person: a tournament's table is "Daily Razz · Table 2" (its own name is "7 2"). */
export function tableTitle(state) {
  const tour = state?.tournament;
  if (tour) return `${tourneyName(tour.name)} · ${t('tourney.table_number', { number: tour.table })}`;
  return state?.settings?.name ?? null;
}

/** "You finished 3rd of 6 and won 233" / "You won the tournament: 629". */
export function finishText(entrant, entrants) {
  if (entrant.place === 1) return t('tourney.result.won', { prize: entrant.prize ?? 0, entrants });
  if (entrant.prize) return t('tourney.result.paid', { place: entrant.place, entrants, prize: entrant.prize });
  return t('tourney.result.out', { place: entrant.place, entrants });
}
