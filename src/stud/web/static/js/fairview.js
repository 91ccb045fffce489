// The fair shuffle on screen: this browser adds its own seed to each hand it is
// dealt into, and checks a finished hand's shuffle (docs/fairness.md).

import { h, fill } from './dom.js';
import { newSeed, verifyHand } from './fairness.js';

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
  return h('code', { class: 'fair-hex' }, text);
}

/** Fill `el` with the check of a finished hand's shuffle; `players` in dealing order. */
export async function renderFairness(el, { shuffle, events, players = [], id }) {
  el.classList.add('fairness');
  if (!shuffle) {
    fill(el, h('h2', {}, 'Fair shuffle'),
      h('p', { class: 'muted fair-none' }, 'This hand has no published shuffle (it was not dealt from a committed seed, e.g. a test deck).'));
    return null;
  }
  fill(el, h('h2', {}, 'Fair shuffle'), h('p', { class: 'muted' }, 'Checking…'));
  const result = await verifyHand(shuffle, events);
  let verdict;
  if (result.ok) {
    verdict = h('p', { class: 'fair-ok', dataset: { verified: 'yes' } },
      `✓ Verified in this browser: the server seed matches the commitment published before the deal, and all ${result.checked} cards shown are the ones the seeds deal`,
      result.hidden ? ` (${result.hidden} not shown to you).` : '.');
  } else {
    const why = result.problem
      ?? (!result.commitment ? 'the server seed does not match the commitment published before the deal'
        : `${result.differ.length} card(s) are not the ones the seeds deal: ${result.differ.slice(0, 3).map((d) => `card ${d.position + 1} (${d.what}) is ${d.card}, the seeds deal ${d.dealt}`).join('; ')}`);
    verdict = h('p', { class: 'fair-bad', dataset: { verified: 'no' } }, `✗ Does not verify: ${why}.`);
  }
  const seeds = shuffle.player_seeds ?? [];
  fill(el,
    h('h2', {}, 'Fair shuffle'),
    verdict,
    h('dl', { class: 'fair-facts' },
      h('dt', {}, 'Hand id'), h('dd', {}, code(shuffle.hand)),
      h('dt', {}, 'Commitment (SHA-256, shown before the deal)'), h('dd', {}, code(shuffle.commitment)),
      h('dt', {}, 'Server seed (revealed after the hand)'), h('dd', {}, code(shuffle.server_seed)),
      h('dt', {}, 'Players’ seeds, in dealing order'),
      h('dd', {}, h('ol', { class: 'fair-seeds' }, seeds.map((s, i) => h('li', {},
        players[i]?.name ? `${players[i].name}: ` : '', s ? code(s) : h('span', { class: 'muted' }, 'none')))))),
    h('details', { class: 'fair-howto' },
      h('summary', {}, 'Check it by hand'),
      h('ol', {},
        h('li', {}, 'The seed was fixed before the deal: ', code(`printf %s ${shuffle.server_seed} | xxd -r -p | sha256sum`), ' must print the commitment above.'),
        h('li', {}, 'The cards: download the hand’s PHH or PokerStars text and run ', code(`stud verify hand-${id ?? 'ID'}.phh`), '; it redoes the deck and compares every card shown.'),
        h('li', {}, 'The recipe (HMAC-SHA256 of the seeds driving a Fisher–Yates shuffle, and the order cards are dealt) is in docs/fairness.md, short enough to redo in any language.'))));
  return result;
}
