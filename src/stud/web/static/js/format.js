// How numbers, games, stakes, streets and cards read to a person, in the page's language
// (the words from the message catalogs, numbers through Intl: docs/i18n.md).

import { formatChips, hasKey, t, tOf } from './i18n.js';

const VARIANTS = ['stud', 'stud8', 'razz'];

/** A game's name as the seed pages name it (七張梭哈, 七张高低梭哈, Razz), or its code if unknown. */
export function gameName(code) {
  return hasKey('game', code) ? tOf('game', code) : String(code);
}

const SHORT = {
  stud: () => t('game_short.stud'),
  stud8: () => t('game_short.stud8'),
  razz: () => tOf('game', 'razz'), // the short name is the name
};

/** A game's short name for narrow columns (Stud, Stud8, Razz / 梭哈, 高低梭哈, Razz). */
export function gameShort(code) {
  return SHORT[code]?.() ?? String(code);
}

// Read as objects (GAMES[code]) by older code: each read words the game in the current language.
function wordedBy(fn) {
  return Object.freeze(Object.defineProperties({}, Object.fromEntries(VARIANTS.map((code) => [code, { enumerable: true, get: () => fn(code) }]))));
}
export const GAMES = wordedBy(gameName);
export const GAME_SHORT = wordedBy(gameShort);

/** A chip amount in the language's digits and grouping. */
export function chips(n) {
  return formatChips(n);
}

/** "10/20": small bet / big bet. */
export function stakes(s) {
  return `${formatChips(s.small_bet)}/${formatChips(s.big_bet)}`;
}

/** "10/20 · ante 1 · bring-in 3". */
export function stakesLong(s) {
  return t('format.stakes_long', {
    small: formatChips(s.small_bet), big: formatChips(s.big_bet), ante: formatChips(s.ante), bringin: formatChips(s.bring_in),
  });
}

/** A street's name: 3rd street … River / 第三街 … 第七街. */
export function street(n) {
  return hasKey('street', n) ? tOf('street', n) : t('format.street_n', { n: Number(n) });
}

const RANK_WORDS = { T: '10', J: 'J', Q: 'Q', K: 'K', A: 'A' };
const SUIT_SYMBOLS = { c: '♣', d: '♦', h: '♥', s: '♠' };

/** "Td" -> "10♦"; null -> "??". */
export function cardText(card) {
  if (!card) return '??';
  return (RANK_WORDS[card[0]] ?? card[0]) + (SUIT_SYMBOLS[card[1]] ?? card[1]);
}

export function cardsText(cards) {
  return (cards ?? []).map(cardText).join(' ');
}

/** The pot, the main pot, side pot 2 / 底池, 主池, 邊池 2. */
export function potName(index, count) {
  if (count <= 1 && index === 0) return t('format.pot');
  return index === 0 ? t('format.main_pot') : t('format.side_pot', { n: index });
}

/** Seconds as "12s" or "1:05" (12秒). */
export function seconds(s) {
  const total = Math.max(0, Math.ceil(s));
  if (total < 60) return t('format.seconds', { s: total });
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}
