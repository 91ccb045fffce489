// A hand rebuilt from its events: what the replayer steps through, and the
// showdown results of a live hand. The picture has the shape of the server's
// hand view (stud.game.HandView.to_dict), so one renderer draws both.

/** The empty picture of a hand from its engine `hand_started` event. */
export function startHand(e) {
  const seats = Object.entries(e.stacks ?? {}).map(([seat, stack]) => ({
    seat: Number(seat), stack, bet: 0, committed: 0, live: true, all_in: false,
    shown: false, down: [], up: [],
  }));
  return {
    game: e.game, ante: e.ante, bring_in: e.bring_in, small_bet: e.small_bet, big_bet: e.big_bet,
    street: 3, pot: 0, level: 0, to_act: null, community: null, seats, is_over: false,
    result: emptyResult(),
  };
}

export function emptyResult() {
  return { pots: [], shows: {}, mucks: [], awards: [], noLow: [], uncalled: [] };
}

/** Add one showdown-ish event (pots, show, muck, award, no_low, uncalled) to a result. */
export function addResult(result, e) {
  switch (e.type) {
    case 'pots': result.pots = e.pots; break;
    case 'show': result.shows[e.seat] = { cards: e.cards, high: e.high, low: e.low }; break;
    case 'muck': result.mucks.push(e.seat); break;
    case 'award': result.awards.push(e); break;
    case 'no_low': result.noLow.push(e.pot); break;
    case 'uncalled': result.uncalled.push(e); break;
    default: return false;
  }
  return true;
}

/** The result of a finished hand from the `summary.results` of `hand_finished`. */
export function resultOf(events) {
  const result = emptyResult();
  for (const e of events ?? []) addResult(result, e);
  return result;
}

/** Split the seven cards a `show` event lists (dealt order) into down and up cards. */
export function splitShown(cards) {
  const down = [];
  const up = [];
  cards.forEach((card, i) => ((i < 2 || i === 6) ? down : up).push(card));
  return { down, up };
}

/** The picture after event `e` (a new object; the old one is left as it was). */
export function reduce(hand, e) {
  if (e.type === 'hand_started' && e.stacks) return startHand(e);
  if (!hand) return hand;
  const next = structuredClone(hand);
  const seat = next.seats.find((s) => s.seat === e.seat);
  switch (e.type) {
    case 'ante':
      seat.stack -= e.amount;
      seat.committed += e.amount;
      seat.all_in = e.all_in;
      next.pot += e.amount;
      break;
    case 'street':
      next.street = e.street;
      next.level = 0;
      for (const s of next.seats) s.bet = 0;
      break;
    case 'dealt':
      seat.down.push(...(e.down ?? []));
      seat.up.push(...(e.up ?? []));
      break;
    case 'community':
      next.community = e.card;
      break;
    case 'action':
      seat.stack -= e.amount;
      seat.bet += e.amount;
      seat.committed += e.amount;
      seat.all_in = e.all_in;
      next.pot += e.amount;
      next.level = Math.max(next.level, seat.bet);
      if (e.kind === 'fold') seat.live = false;
      break;
    case 'uncalled':
      seat.stack += e.amount;
      seat.bet -= e.amount;
      seat.committed -= e.amount;
      next.pot -= e.amount;
      addResult(next.result, e);
      break;
    case 'show': {
      const { down, up } = splitShown(e.cards);
      seat.down = down;
      seat.up = up;
      seat.shown = true;
      addResult(next.result, e);
      break;
    }
    case 'award':
      seat.stack += e.amount;
      addResult(next.result, e);
      break;
    case 'pots':
      for (const s of next.seats) s.bet = 0;
      addResult(next.result, e);
      break;
    case 'muck':
    case 'no_low':
      addResult(next.result, e);
      break;
    case 'hand_ended':
      next.is_over = true;
      for (const s of next.seats) {
        const stack = e.stacks?.[s.seat] ?? e.stacks?.[String(s.seat)];
        if (stack !== undefined) s.stack = stack;
      }
      break;
    default:
      break;
  }
  return next;
}

/** Events that change nothing a person sees (skipped as replayer steps). */
export const QUIET = new Set(['turn', 'showdown', 'hand_ended', 'actor_trusted', 'burn', 'ante']);
