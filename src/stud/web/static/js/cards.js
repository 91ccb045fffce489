// Playing cards as crisp vector drawings, built by code (no images).
//
// A card is text like "As", "Td", "2c"; null is a card we may not see (its back).
// Colours come from CSS (`.suit-s` ... via currentColor), so the four-colour deck
// is a class on <body> and the markup can be cached per card (and language: a card's
// accessible name, "King of spades", 黑桃K, comes from the catalog).

import { language, t, tOf } from './i18n.js';

const SUIT_PATHS = {
  h: 'M50 92C22 68 3 52 5 31 6 15 18 6 31 6c9 0 15 5 19 13C54 11 60 6 69 6c13 0 25 9 26 25 2 21-17 37-45 61z',
  d: 'M50 4 86 50 50 96 14 50z',
  s: 'M50 4C40 22 8 38 8 60c0 14 11 22 22 22 7 0 12-3 16-8-1 10-5 17-13 22h34c-8-5-12-12-13-22 4 5 9 8 16 8 11 0 22-8 22-22C92 38 60 22 50 4z',
  c: circle(50, 27, 20) + circle(26, 58, 20) + circle(74, 58, 20) +
     'M45 50h10c0 22 4 34 15 44H30c11-10 15-22 15-44z',
};

function circle(cx, cy, r) {
  return `M${cx - r} ${cy}a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0 ${-2 * r} 0z`;
}

const RANK_LABELS = { T: '10' };

const cache = new Map();

/** A suit symbol as a standalone SVG (for text like the hand log). */
export function suitSVG(suit) {
  return `<svg class="suit-icon suit-${suit}" viewBox="0 0 100 100" aria-hidden="true">` +
    `<path fill="currentColor" d="${SUIT_PATHS[suit]}"/></svg>`;
}

/** The SVG markup of one card face (or its back when `card` is null). */
export function cardSVG(card) {
  const key = `${language()}|${card ?? '??'}`;
  let markup = cache.get(key);
  if (markup === undefined) {
    markup = card ? faceSVG(card) : backSVG();
    cache.set(key, markup);
  }
  return markup;
}

/** A card's name in the page's language: "King of spades", 黑桃K. */
export function cardName(card) {
  if (!card) return t('card.back');
  return t('card.name', { rank: tOf('card_rank', card[0]), suit: tOf('suit', card[1]) });
}

function attribute(text) {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

function faceSVG(card) {
  const rank = card[0];
  const suit = card[1];
  const label = RANK_LABELS[rank] ?? rank;
  const narrow = label.length > 1;
  const path = SUIT_PATHS[suit];
  const title = attribute(cardName(card));
  return `<svg class="card face suit-${suit}" viewBox="0 0 100 140" role="img" aria-label="${title}" data-card="${card}">` +
    `<rect x="1.5" y="1.5" width="97" height="137" rx="9" fill="#fdfdfb" stroke="#b9b9b4" stroke-width="1.5"/>` +
    `<g fill="currentColor">` +
    `<text x="${narrow ? 4 : 8}" y="36" font-size="${narrow ? 31 : 36}" font-weight="700" ` +
    `font-family="'Helvetica Neue', Arial, sans-serif" ${narrow ? 'letter-spacing="-3"' : ''}>${label}</text>` +
    `<path transform="translate(9 43) scale(.24)" d="${path}"/>` +
    `<path transform="translate(34 66) scale(.6)" d="${path}"/>` +
    `</g></svg>`;
}

function backSVG() {
  return '<svg class="card back" viewBox="0 0 100 140" role="img" aria-label="' + attribute(t('card.back')) + '" data-card="??">' +
    '<rect x="1.5" y="1.5" width="97" height="137" rx="9" fill="#fdfdfb" stroke="#b9b9b4" stroke-width="1.5"/>' +
    '<rect x="8" y="8" width="84" height="124" rx="5" fill="url(#card-back-pattern)" stroke="#12305e" stroke-width="2"/>' +
    '<path d="M50 44 66 70 50 96 34 70z" fill="none" stroke="#e8eefb" stroke-width="3" opacity=".75"/>' +
    '</svg>';
}
