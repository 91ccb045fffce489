// How numbers, games, stakes, streets and cards read to a person.

export const GAMES = {
  stud: 'Seven Card Stud',
  stud8: 'Stud Hi/Lo',
  razz: 'Razz',
};

export const GAME_SHORT = { stud: 'Stud', stud8: 'Stud8', razz: 'Razz' };

export function chips(n) {
  return Number(n ?? 0).toLocaleString('en-US');
}

export function stakes(s) {
  return `${chips(s.small_bet)}/${chips(s.big_bet)}`;
}

export function stakesLong(s) {
  return `${stakes(s)} · ante ${chips(s.ante)} · bring-in ${chips(s.bring_in)}`;
}

const STREETS = { 3: '3rd street', 4: '4th street', 5: '5th street', 6: '6th street', 7: 'River' };
export function street(n) {
  return STREETS[n] ?? `street ${n}`;
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

export function potName(index, count) {
  if (count <= 1 && index === 0) return 'the pot';
  return index === 0 ? 'the main pot' : `side pot ${index}`;
}

/** Seconds as "12s" or "1:05". */
export function seconds(s) {
  const t = Math.max(0, Math.ceil(s));
  return t >= 60 ? `${Math.floor(t / 60)}:${String(t % 60).padStart(2, '0')}` : `${t}s`;
}
