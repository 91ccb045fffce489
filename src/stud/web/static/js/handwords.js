// Hands in words, in the page's language: "a full house, Kings full of Sevens" is
// 葫蘆，三條K帶一對7 in Traditional Chinese. The server describes hands in the
// PokerStars words of stud.evaluate.describe (fixed English, as the hand histories
// need); parseHand turns those words back into a category and ranks, and handWords
// says them in the current language from the catalog's `hand.*` messages.

import { tOf } from './i18n.js';

const NAMES = ['Deuce', 'Three', 'Four', 'Five', 'Six', 'Seven', 'Eight', 'Nine', 'Ten', 'Jack', 'Queen', 'King', 'Ace'];
const PLURALS = ['Deuces', 'Threes', 'Fours', 'Fives', 'Sixes', 'Sevens', 'Eights', 'Nines', 'Tens', 'Jacks', 'Queens', 'Kings', 'Aces'];
const RANKS = '23456789TJQKA';
const RANK = Object.fromEntries([...NAMES.map((n, i) => [n, RANKS[i]]), ...PLURALS.map((n, i) => [n, RANKS[i]])]);
const W = '([A-Z][a-z]+)';

// stud.evaluate.describe.high_description, category by category.
const HIGH = [
  [new RegExp(`^high card ${W}$`), 'high_card', ['top']],
  [new RegExp(`^a pair of ${W}$`), 'pair', ['pair']],
  [new RegExp(`^two pair, ${W} and ${W}$`), 'two_pair', ['high', 'low']],
  [new RegExp(`^three of a kind, ${W}$`), 'three_of_a_kind', ['trips']],
  [new RegExp(`^a straight, ${W} to ${W}$`), 'straight', ['from', 'to']],
  [new RegExp(`^a flush, ${W} high$`), 'flush', ['top']],
  [new RegExp(`^a full house, ${W} full of ${W}$`), 'full_house', ['trips', 'pair']],
  [new RegExp(`^four of a kind, ${W}$`), 'four_of_a_kind', ['quads']],
  [new RegExp(`^a straight flush, ${W} to ${W}$`), 'straight_flush', ['from', 'to']],
  [/^a Royal Flush$/, 'royal_flush', []],
];
const LOW = /^[2-9TJQKA](,[2-9TJQKA]){0,4}$/;

/**
 * A server description as {category, ranks}: a high hand's category and its named ranks
 * ({trips: 'K', pair: '7'}), or {category: 'low', cards: ['8', '6', '4', '3', 'A']}; null
 * for words it does not know.
 */
export function parseHand(text) {
  const words = String(text ?? '').trim();
  if (LOW.test(words)) return { category: 'low', cards: words.split(',') };
  for (const [pattern, category, names] of HIGH) {
    const match = pattern.exec(words);
    if (!match) continue;
    const ranks = {};
    for (let i = 0; i < names.length; i += 1) {
      const rank = RANK[match[i + 1]];
      if (!rank) return null;
      ranks[names[i]] = rank;
    }
    return { category, ranks };
  }
  return null;
}

/** A rank as the card shows it: "T" is "10". */
export function rankLabel(rank) {
  return rank === 'T' ? '10' : rank;
}

/** A parsed hand in the current language. */
export function handWords(hand) {
  if (hand.category === 'low') {
    return tOf('hand', 'low', { cards: hand.cards.map(rankLabel).join('-') });
  }
  const params = {};
  for (const [name, rank] of Object.entries(hand.ranks ?? {})) {
    // Both forms: English says "a pair of Kings" but "high card King".
    params[name] = tOf('rank', rank);
    params[`${name}_plural`] = tOf('ranks', rank);
  }
  return tOf('hand', hand.category, params);
}

/** A server description in the current language (its own words when they cannot be read). */
export function describeHand(text) {
  const hand = parseHand(text);
  return hand ? handWords(hand) : String(text ?? '');
}

/** The name of a hand category alone ("Full house", 葫蘆). */
export function categoryName(category) {
  return tOf('category', category);
}
