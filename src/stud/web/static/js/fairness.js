// The shuffle anyone can check (docs/fairness.md), redone in the browser: the same
// recipe as the server's stud.fairness, so a player needs to trust neither.
//
//   commitment = SHA-256(server seed's bytes)
//   context    = "stud-shuffle-v1|" + hand id + "|" + players' seeds joined by ","
//   stream     = HMAC-SHA256(server seed, context + "|0") + HMAC(..., context + "|1") + ...
//   deck       = 0..51 (2c 2d 2h 2s 3c ... As); for i = 51..1 take 4 bytes big-endian r,
//                redraw while r >= 2^32 - 2^32 % (i + 1), swap deck[i] and deck[r % (i + 1)]
//
// The deck deals deck[0] first: on 3rd street a round of first down cards from the
// dealer's left, a round of second down cards, a round of door cards; then each
// street a burn card (if the table burns) and one card per player still in, or the
// community card (R12).

export const SCHEME = 'stud-shuffle-v1';
const RANKS = '23456789TJQKA';
const SUITS = 'cdhs';
const HEX64 = /^[0-9a-f]{64}$/;
const PLAYER_SEED = /^[0-9a-f]{1,64}$/;

/** A check that could not run: `code` says why (fairview.js words it), `params` the values. */
export class ShuffleProblem extends Error {
  constructor(code, params = {}, message = code) {
    super(message);
    this.code = code;
    this.params = params;
  }
}

export function cardText(n) {
  return RANKS[n >> 2] + SUITS[n & 3];
}

function cardInt(text) {
  return RANKS.indexOf(text[0]) * 4 + SUITS.indexOf(text[1]);
}

function bytes(hex) {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i += 1) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

function hex(buffer) {
  return [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** A fresh seed for the next hand: 32 bytes of this browser's CSPRNG, as hex. */
export function newSeed() {
  return hex(crypto.getRandomValues(new Uint8Array(32)));
}

/** SHA-256 of the server seed's bytes, as hex (what the table published before the deal). */
export async function commitmentOf(serverSeed) {
  return hex(await crypto.subtle.digest('SHA-256', bytes(serverSeed)));
}

/** The 52 card ints in dealing order that these seeds give. */
export async function deckOrder(serverSeed, playerSeeds, handId) {
  if (!HEX64.test(serverSeed)) throw new ShuffleProblem('bad_server_seed', {}, 'a server seed is 64 lowercase hex digits');
  for (const s of playerSeeds) if (s && !PLAYER_SEED.test(s)) throw new ShuffleProblem('bad_player_seed', { seed: s }, `bad player seed ${s}`);
  const key = await crypto.subtle.importKey('raw', bytes(serverSeed), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const context = `${SCHEME}|${handId}|${playerSeeds.join(',')}`;
  const encoder = new TextEncoder();
  let block = 0;
  let words = [];
  const draw = async () => {
    if (!words.length) {
      const digest = new DataView(await crypto.subtle.sign('HMAC', key, encoder.encode(`${context}|${block}`)));
      block += 1;
      words = [];
      for (let at = 0; at < 32; at += 4) words.push(digest.getUint32(at, false));
    }
    return words.shift();
  };
  const deck = Array.from({ length: 52 }, (_, i) => i);
  for (let i = 51; i > 0; i -= 1) {
    const span = i + 1;
    const limit = 2 ** 32 - (2 ** 32 % span);
    let r = await draw();
    while (r >= limit) r = await draw();
    const j = r % span;
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}

/**
 * Where each card of a hand came from in the deck, from its events in order (as the
 * server or the replayer sends them): [{position, seat, what, street, card}] with card null
 * where the events do not show it. A down card hidden when dealt but shown down later
 * (a `show` event lists the seat's cards in dealing order) counts as shown. `what` is one of
 * first_down, second_down, door, street (the `street`th card), burn, community.
 */
export function deckPlaces(events) {
  const shown = new Map(events.filter((e) => e.type === 'show').map((e) => [e.seat, e.cards ?? []]));
  const held = new Map(); // seat -> cards dealt to it so far
  const card = (seat, c) => {
    const index = held.get(seat) ?? 0;
    held.set(seat, index + 1);
    return c ?? shown.get(seat)?.[index] ?? null;
  };
  const third = events.filter((e) => e.type === 'dealt' && e.street === 3);
  const n = third.length;
  const places = [];
  third.forEach((e, k) => {
    const cards = [...(e.down ?? [null, null]), ...(e.up ?? [null])];
    ['first_down', 'second_down', 'door'].forEach((what, round) => {
      places.push({ position: round * n + k, seat: e.seat, what, street: 3, card: card(e.seat, cards[round]) });
    });
  });
  let position = 3 * n;
  for (const e of events) {
    if (e.type === 'dealt' && e.street > 3) {
      const dealt = (e.down?.length ? e.down[0] : e.up?.[0]) ?? null;
      places.push({ position, seat: e.seat, what: 'street', street: e.street, card: card(e.seat, dealt) });
    } else if (e.type === 'burn') {
      places.push({ position, seat: null, what: 'burn', card: e.card ?? null });
    } else if (e.type === 'community') {
      places.push({ position, seat: null, what: 'community', card: e.card ?? null });
    } else {
      continue;
    }
    position += 1;
  }
  return places;
}

/**
 * Check a finished hand: the seed against its commitment, then every card the events
 * show against the deck the seeds give. {ok, commitment, checked, hidden, differ, deck}.
 */
export async function verifyHand(shuffle, events) {
  const out = { ok: false, commitment: false, checked: 0, hidden: 0, differ: [], deck: null, problem: null };
  try {
    if (shuffle.scheme && shuffle.scheme !== SCHEME) throw new ShuffleProblem('unknown_scheme', { scheme: shuffle.scheme }, `unknown shuffle scheme ${shuffle.scheme}`);
    out.commitment = (await commitmentOf(shuffle.server_seed)) === shuffle.commitment;
    out.deck = await deckOrder(shuffle.server_seed, shuffle.player_seeds ?? [], shuffle.hand);
  } catch (error) {
    out.problem = error instanceof ShuffleProblem ? error : new ShuffleProblem('bad_input', {}, error.message);
    return out;
  }
  for (const place of deckPlaces(events)) {
    if (!place.card) {
      out.hidden += 1;
      continue;
    }
    out.checked += 1;
    const dealt = out.deck[place.position];
    if (cardInt(place.card) !== dealt) out.differ.push({ ...place, dealt: cardText(dealt) });
  }
  out.ok = out.commitment && out.differ.length === 0;
  return out;
}
