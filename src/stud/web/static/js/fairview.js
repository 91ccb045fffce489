// The fair shuffle on screen: this browser adds its own seed to each hand it is
// dealt into, and checks a finished hand's shuffle (docs/fairness.md).

import { h, fill } from './dom.js';
import { cardText, street } from './format.js';
import { t } from './i18n.js';
import { newSeed, verifyHand } from './fairness.js';
import { listParts, tParts } from './tparts.js';

const OPT_OUT = 'stud.noSeed';

/**
 * Sends this browser's seed for the next hand when a table shows a commitment open
 * for seeds and we are seated there: once per commitment, before the deal.
 */
export class Seeder {
  constructor(socket) {
    this.socket = socket;
    this.sent = new Set();
  }

  get enabled() {
    try {
      return localStorage.getItem(OPT_OUT) !== '1';
    } catch {
      return true;
    }
  }

  onState(msg) {
    const state = msg.state;
    const shuffle = state?.shuffle;
    if (!shuffle?.open || state.you === null || state.you === undefined || !this.enabled) return;
    const key = `${msg.table}:${shuffle.commitment}`;
    if (this.sent.has(key)) return;
    if (this.socket.send({ type: 'seed', table: msg.table, commitment: shuffle.commitment, seed: newSeed() })) {
      this.sent.add(key);
    }
  }
}

function code(text) {
  return h('code', { class: 'fair-hex', translate: 'no' }, text);
}

/** The name of an algorithm or a format: a name, not words to translate. */
function name(text) {
  return h('span', { translate: 'no' }, text);
}

/** Where a card sat in the deal, in words: "door card", "5th street card", "burn card". */
function placeWords(place) {
  switch (place.what) {
    case 'first_down': return t('fair.place.first_down');
    case 'second_down': return t('fair.place.second_down');
    case 'door': return t('fair.place.door');
    case 'burn': return t('fair.place.burn');
    case 'community': return t('fair.place.community');
    default: return t('fair.place.street', { street: street(place.street) });
  }
}

function problemWords(problem) {
  switch (problem.code) {
    case 'bad_server_seed': return t('fair.problem.bad_server_seed');
    case 'bad_player_seed': return t('fair.problem.bad_player_seed', { seed: problem.params.seed });
    case 'unknown_scheme': return t('fair.problem.unknown_scheme', { scheme: problem.params.scheme });
    default: return t('fair.problem.bad_input');
  }
}

function verdictOf(result) {
  if (result.ok) {
    return h('p', { class: 'fair-ok', dataset: { verified: 'yes' } },
      '✓ ', t('fair.verified', { checked: result.checked, hidden: result.hidden }));
  }
  let why;
  if (result.problem) {
    why = problemWords(result.problem);
  } else if (!result.commitment) {
    why = t('fair.commitment_differs');
  } else {
    const cards = result.differ.slice(0, 3).map((d) => t('fair.card_differs', {
      n: d.position + 1, place: placeWords(d), card: cardText(d.card), dealt: cardText(d.dealt),
    }));
    why = t('fair.cards_differ', { n: result.differ.length, cards: listParts(cards).join('') });
  }
  return h('p', { class: 'fair-bad', dataset: { verified: 'no' } }, '✗ ', t('fair.fails', { why }));
}

/** Fill `el` with the check of a finished hand's shuffle; `players` in dealing order. */
export async function renderFairness(el, { shuffle, events, players = [], id }) {
  el.classList.add('fairness');
  const headingId = `fair-title-${id ?? 'hand'}`;
  el.setAttribute('role', 'region');
  el.setAttribute('aria-labelledby', headingId);
  const heading = () => h('h2', { id: headingId }, t('fair.title'));
  if (!shuffle) {
    fill(el, heading(), h('p', { class: 'muted fair-none' }, t('fair.none')));
    return null;
  }
  fill(el, heading(), h('p', { class: 'muted' }, t('fair.checking')));
  const result = await verifyHand(shuffle, events);
  const seeds = shuffle.player_seeds ?? [];
  fill(el,
    heading(),
    verdictOf(result),
    h('dl', { class: 'fair-facts' },
      h('dt', {}, t('fair.hand_id')), h('dd', {}, code(shuffle.hand)),
      h('dt', {}, tParts((marks) => t('fair.commitment', marks), { hash: name('SHA-256') })), h('dd', {}, code(shuffle.commitment)),
      h('dt', {}, t('fair.server_seed')), h('dd', {}, code(shuffle.server_seed)),
      h('dt', {}, t('fair.player_seeds')),
      h('dd', {}, h('ol', { class: 'fair-seeds' }, seeds.map((s, i) => h('li', {},
        players[i]?.name ? [h('span', { translate: 'no' }, players[i].name), ': '] : '',
        s ? code(s) : h('span', { class: 'muted' }, t('fair.no_seed'))))))),
    h('details', { class: 'fair-howto' },
      h('summary', {}, t('fair.howto')),
      h('ol', {},
        h('li', {}, tParts((marks) => t('fair.howto_seed', marks), { command: code(`printf %s ${shuffle.server_seed} | xxd -r -p | sha256sum`) })),
        h('li', {}, tParts((marks) => t('fair.howto_cards', marks),
          { command: code(`stud verify hand-${id ?? 'ID'}.phh`), phh: name('PHH'), pokerstars: name('PokerStars') })),
        h('li', {}, tParts((marks) => t('fair.howto_recipe', marks),
          { doc: code('docs/fairness.md'), hmac: name('HMAC-SHA256'), shuffle: name('Fisher–Yates') })))));
  return result;
}
