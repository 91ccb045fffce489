// Words the table, its log and the replayer share, in the page's language: a seat with
// no name, a pot's name, the time left on a clock, a table's stakes.

import { formatChips, language, languageTag, t, tOf } from './i18n.js';

/** "Seat 3" for table seat 2 (seats count from 1 for people). */
export function seatName(seat) {
  return t('table.seat.name', { seat: String(seat + 1) });
}

/** "the pot" when there is one, else "the main pot", "side pot 2". */
export function potName(index, count) {
  if (count <= 1 && index === 0) return t('table.pot.the_pot');
  return index === 0 ? t('table.pot.the_main_pot') : t('table.pot.side_pot', { n: index });
}

/** Seconds left as "12s" (12秒) or "1:05". */
export function timeLeft(s) {
  const whole = Math.max(0, Math.ceil(s));
  if (whole >= 60) return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
  return t('table.clock.seconds', { n: whole });
}

/** A table's stakes in full: "10/20 · ante 1 · bring-in 3". */
export function stakesText(s) {
  return t('table.stakes', {
    small: formatChips(s.small_bet), big: formatChips(s.big_bet), ante: formatChips(s.ante), bring_in: formatChips(s.bring_in),
  });
}

/** A game's name as the seed pages give it (七張梭哈...), its code when unknown. */
export function gameName(game) {
  return game ? tOf('game', game) : '';
}

/** Items as the language lists them: "a, b and c", "a、b和c". */
export function listText(items) {
  return new Intl.ListFormat(languageTag(language()), { type: 'conjunction' }).format(items);
}
