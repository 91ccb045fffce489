// The table drawn from a picture: seats around the felt, each player's cards,
// bets, the pot, the community card, the dealer button, whose turn it is and the
// showdown's results. The live table and the replayer draw through this.
//
// picture = {settings, seats, hand, you, button, turn, result, canSit, readout, boards, handKey}
//   readout: your own hand in words (live table only); boards: words for each seat's up cards
//   handKey: tells one hand from the next, so only cards and bets new since the last
//            drawing are dealt and slid in (short animations, none with reduced motion)
//   seats:  the table's seats (null when empty) with name, stack, bot, sitting_out
//   hand:   the server's hand view shape (or a replayed one), null between hands
//   result: the showdown (reduce.js emptyResult shape) or null

import { cardName, cardSVG } from './cards.js';
import { h, fromHTML } from './dom.js';
import { nameEl } from './handlog.js';
import { describeHand } from './handwords.js';
import { formatChips as chips, t, tOf } from './i18n.js';
import { boardText, readoutText } from './readout.js';
import { listText, potName, seatName, timeLeft } from './tablewords.js';
import { slot, splice } from './tparts.js';

/**
 * Where display slot `i` of `n` sits on the felt, in percent (slot 0 is bottom centre).
 * `corners` below 1 pushes the slots between the sides and the middles out toward the
 * corners (a rounded rectangle rather than an ellipse): eight seats' cards then clear
 * their neighbours' on a short laptop screen.
 */
export function slotPosition(i, n, radius = [42, 41], corners = 1) {
  const angle = Math.PI / 2 + (i * 2 * Math.PI) / n;
  const bend = (v) => Math.sign(v) * Math.abs(v) ** corners;
  return { x: 50 + radius[0] * bend(Math.cos(angle)), y: 50 + radius[1] * bend(Math.sin(angle)) };
}

/** How far toward the corners the seats sit (see slotPosition). */
const SEAT_CORNERS = 0.5;

/**
 * Where a seat's bet goes on the narrow (phone) felt, whose seats are drawn 0.8 times
 * as far from the middle: between the seat and the pot for seats above and below, and
 * above the seat for those at the sides (the pot is at their height), clear of any cards.
 */
export function phoneBetPosition(seatPos) {
  const x = 50 + (seatPos.x - 50) * 0.8;
  if (Math.abs(seatPos.y - 50) < 12) return { x, y: seatPos.y - 15 };
  const pull = Math.abs(x - 50) < 10 ? 0.55 : 0.42; // the corners' bets stay clear of the pot
  return { x: 50 + (x - 50) * 0.7, y: seatPos.y + (50 - seatPos.y) * pull };
}

/** The display slot of table seat `seat`: the viewer's own seat is at the bottom. */
export function slotOf(seat, n, you) {
  const base = you ?? 0;
  return (seat - base + n) % n;
}

function cardEl(card, classes) {
  const wrap = h('span', { class: `cw ${classes}` });
  wrap.append(fromHTML(cardSVG(card)));
  return wrap;
}

/** A seat's cards in the order dealt: down, down, up x4, down (7th street). */
function handCards(hs, isYou, usedCards, motion) {
  const row = h('div', { class: 'hand-cards', dataset: { count: (hs.down?.length ?? 0) + (hs.up?.length ?? 0) } });
  const down = hs.down ?? [];
  const up = hs.up ?? [];
  const order = [...down.slice(0, 2).map((c) => [c, 'down']), ...up.map((c) => [c, 'up']),
    ...down.slice(2).map((c) => [c, 'down'])];
  order.forEach(([card, kind], i) => {
    const classes = [kind];
    if (kind === 'down' && card && (isYou || hs.shown)) classes.push(isYou && !hs.shown ? 'mine' : 'shown');
    if (card && usedCards.has(card)) classes.push('used');
    if (motion.fresh(`${hs.seat}:${i}:${kind}`)) classes.push('fresh');
    const el = cardEl(card, classes.join(' '));
    if (classes.includes('mine')) {
      el.title = t('table.card.mine');
      el.dataset.down = t('table.card.down'); // drawn by the style sheet on the card's corner
    }
    row.append(el);
  });
  return row;
}

/** What was drawn last time on this felt, to move only what is new. */
function motionFor(felt, key) {
  const before = felt.drawn;
  const first = !before || before.key !== key;
  const now = { key, cards: new Set(), bets: new Map() };
  felt.drawn = now;
  return {
    fresh(id) {
      now.cards.add(id);
      return Boolean(before) && (first || !before.cards.has(id));
    },
    betMoved(seat, amount) {
      now.bets.set(seat, amount);
      return Boolean(before) && !first && (before.bets.get(seat) ?? 0) !== amount;
    },
  };
}

function chipStack(amount) {
  const el = h('span', { class: 'chip-stack', 'aria-hidden': 'true' });
  const count = Math.min(5, Math.max(1, Math.ceil(Math.log10(amount + 1))));
  for (let i = 0; i < count; i += 1) el.append(h('i', { class: `chip c${(i + (amount % 3)) % 3}`, style: { '--i': i } }));
  return el;
}

function clockEl(turn, settings) {
  const bank = turn.deadline && turn.clock_ends ? Math.max(0, turn.deadline - turn.clock_ends) : 0;
  return h('div', {
    class: 'clock',
    dataset: {
      clockEnds: turn.clock_ends ?? '',
      deadline: turn.deadline ?? '',
      turnSeconds: settings.turn_seconds ?? 20,
    },
  }, h('div', { class: 'clock-bar' }), h('span', { class: 'clock-text' }),
  // The time bank, shown from the start of the turn (it runs once the clock is out).
  bank > 0 ? h('span', { class: 'clock-bank', title: t('table.clock.bank_title') }, ' ', t('table.clock.bank_extra', { time: timeLeft(bank) })) : null);
}

function tagsFor(player, hs, result, seat) {
  const tags = [];
  const show = result?.shows?.[seat];
  if (show) {
    if (show.high) tags.push(h('span', { class: 'tag hand-desc' }, describeHand(show.high)));
    if (show.low) tags.push(h('span', { class: 'tag hand-desc low' }, describeHand(show.low)));
  } else if (result?.mucks?.includes(seat)) {
    tags.push(h('span', { class: 'tag' }, t('table.tag.mucked')));
  }
  if (hs?.all_in) tags.push(h('span', { class: 'tag allin' }, t('table.tag.all_in')));
  // A player who left during the hand folded it (the fold is booked at their turn).
  const folding = player?.leaving && hs?.live && !hs.all_in;
  if (hs && (!hs.live || folding) && !show) tags.push(h('span', { class: 'tag' }, t('table.tag.folded')));
  if (player?.sitting_out) tags.push(h('span', { class: 'tag' }, player.in_hand ? t('table.tag.sitting_out_next') : t('table.tag.sitting_out')));
  if (player?.leaving) tags.push(h('span', { class: 'tag' }, t('table.tag.leaving')));
  return tags;
}

/** Draw the whole felt into `felt` (replacing what was there). */
export function renderFelt(felt, picture, { onSit } = {}) {
  const { settings, hand, you, turn, result } = picture;
  const n = settings.seats;
  const seats = picture.seats ?? Array(n).fill(null);
  const motion = motionFor(felt, picture.handKey ?? null);
  felt.reveal ??= new Set(); // seats whose board words were tapped open
  const focus = focusMark(felt);
  felt.replaceChildren();
  felt.dataset.seats = String(n);
  felt.classList.toggle('has-hand', Boolean(hand));

  const winners = new Map();
  const used = new Set();
  for (const a of result?.awards ?? []) {
    winners.set(a.seat, (winners.get(a.seat) ?? 0) + a.amount);
    for (const c of a.cards ?? []) used.add(c);
  }

  for (let seat = 0; seat < n; seat += 1) {
    const slot = slotOf(seat, n, you);
    const pos = slotPosition(slot, n, [42, 41], SEAT_CORNERS);
    const oval = slotPosition(slot, n);
    const player = seats[seat];
    const hs = hand?.seats?.find((s) => s.seat === seat) ?? null;
    const top = pos.y < 50;
    const classes = ['seat', top ? 'top' : 'bottom', pos.x < 35 ? 'left' : pos.x > 65 ? 'right' : 'mid'];
    if (Math.abs(pos.y - 50) < 12) classes.push('flank'); // at the pot's height
    if (!player && !hs) classes.push('empty');
    if (seat === you) classes.push('me');
    if (turn && turn.seat === seat && hand) classes.push('acting');
    if (hs && !hs.live) classes.push('folded');
    if (winners.has(seat)) classes.push('winner');
    if (felt.reveal.has(seat)) classes.push('reveal');
    const el = h('div', {
      class: classes.join(' '),
      dataset: { seat },
      // --nx, --ny: the seat on a phone's narrow felt, an ellipse (css/app.css, play.css).
      style: {
        '--x': `${pos.x}%`, '--y': `${pos.y}%`, '--nx': `${oval.x}%`, '--ny': `${oval.y}%`,
        '--dx': (50 - pos.x).toFixed(1), '--dy': ((50 - pos.y) * 0.6).toFixed(1),
      },
    });
    if (!player && !hs) {
      if (onSit) el.append(h('button', { class: 'sit-btn', 'aria-label': t('table.seat.sit_in', { seat: String(seat + 1) }), onclick: () => onSit(seat) }, t('table.seat.sit_here')));
      else el.append(h('div', { class: 'empty-seat', role: 'img', 'aria-label': t('table.seat.empty_label', { seat: String(seat + 1) }) }, t('table.seat.empty')));
      felt.append(el);
      continue;
    }
    const name = player?.name ?? picture.names?.(seat) ?? seatName(seat);
    const stack = hs ? hs.stack : player?.stack ?? 0;
    const acting = turn && turn.seat === seat && hand && picture.live;
    const bank = seat === you && picture.live && !acting && player?.time_bank > 0
      ? h('div', { class: 'bank-badge', title: t('table.clock.bank_badge_title') }, t('table.clock.bank', { time: timeLeft(player.time_bank) }))
      : null;
    // The dealer button sits on the plate's corner: never over anyone's cards.
    const dealer = picture.button === seat && (hand || result)
      ? h('span', { class: 'dealer-btn', title: t('table.dealer') }, t('table.dealer_short')) : null;
    const plate = h('div', { class: 'plate' },
      dealer,
      h('div', { class: 'name', translate: 'no' }, player?.bot ? h('span', { class: 'bot', title: t('table.bot') }, '⚙ ') : null, name),
      h('div', { class: 'stack' }, chips(stack)),
      winners.has(seat) ? h('div', { class: 'won' }, t('table.won', { amount: chips(winners.get(seat)) })) : null,
      acting ? clockEl(turn, settings) : bank,
    );
    picture.onSeat?.(plate, player, seat); // the live table's extras: a note's mark, the stats card
    const cards = hs ? handCards(hs, seat === you, used, motion) : h('div', { class: 'hand-cards none' });
    const tags = tagsFor(player, hs, result, seat);
    const board = seat !== you && hs?.live ? boardText(picture.boards?.[seat] ?? picture.boards?.[String(seat)], settings.game) : '';
    if (board) {
      cards.title = board;
      tags.push(h('span', { class: 'tag board' }, board));
      el.classList.add('has-board');
      const toggle = () => {
        if (felt.reveal.has(seat)) felt.reveal.delete(seat);
        else felt.reveal.add(seat);
        el.classList.toggle('reveal', felt.reveal.has(seat));
      };
      el.addEventListener('click', toggle);
      // From the keyboard too: the seat takes the focus, which shows the words (css/play.css).
      el.tabIndex = 0;
      el.addEventListener('keydown', (e) => {
        if (e.key !== 'Enter' && e.key !== ' ') return;
        e.preventDefault();
        toggle();
      });
    }
    if (seat === you && picture.readout && hs?.live) tags.unshift(h('span', { class: 'tag readout', title: t('table.your_hand') }, picture.readout));
    el.setAttribute('role', 'group');
    // The hand in words as the seat's tags show them: yours, or what the up cards make.
    const words = !hs?.live ? '' : seat === you ? picture.readout ?? ''
      : readoutText(picture.boards?.[seat] ?? picture.boards?.[String(seat)], settings.game, { up: true });
    el.setAttribute('aria-label', seatLabel(seat, name, stack, hs, seat === you, player, words));
    el.append(cards, plate, h('div', { class: 'tags' }, tags));
    felt.append(el);

    if (hs && hs.bet > 0) {
      const b = slotPosition(slot, n, [24, 14]); // between the seat's cards and the pot
      const p = phoneBetPosition(oval);
      const moved = motion.betMoved(seat, hs.bet);
      felt.append(h('div', {
        class: `bet${moved ? ' fresh' : ''}`,
        dataset: { seat },
        style: {
          '--x': `${b.x}%`, '--y': `${b.y}%`, '--px': `${p.x}%`, '--py': `${p.y}%`,
          '--dx': (pos.x - b.x).toFixed(1), '--dy': ((pos.y - b.y) * 0.6).toFixed(1),
        },
      }, chipStack(hs.bet), h('span', { class: 'amount' }, chips(hs.bet))));
    }
  }

  felt.append(centre(picture));
  if (focus) felt.querySelector(focus)?.focus();
}

/** The focused seat or seat button on `felt` as a selector, to focus again once redrawn. */
function focusMark(felt) {
  const el = document.activeElement;
  if (!el || !felt.contains(el)) return null;
  const seat = el.closest('.seat')?.dataset.seat;
  if (seat === undefined) return null;
  return el.classList.contains('sit-btn') ? `.seat[data-seat="${seat}"] .sit-btn` : `.seat[data-seat="${seat}"][tabindex]`;
}

function centre(picture) {
  const { hand, result, settings } = picture;
  const box = h('div', { class: 'centre' });
  if (hand?.community) {
    box.append(h('div', { class: 'community', title: t('table.community') }, cardEl(hand.community, 'up')));
  }
  if (hand) {
    // The chips in the middle (earlier streets, antes) apart from the bets in front of the
    // players; the total beside them while bets are out; side pots labelled.
    const pots = result?.pots?.length ? result.pots : livePots(hand.seats ?? []);
    const out = result ? 0 : (hand.seats ?? []).reduce((sum, s) => sum + (s.bet ?? 0), 0);
    const middle = hand.pot - out;
    const text = pots.length > 1
      ? pots.map((p, i) => (i ? t('table.pot.side', { n: i, amount: chips(p.amount) }) : t('table.pot.main', { amount: chips(p.amount) }))).join(' · ')
      : out ? t('table.pot.total', { amount: chips(hand.pot) }) : t('table.pot.pot', { amount: chips(hand.pot) });
    const total = h('span', { class: `pot-amount${pots.length > 1 ? ' side-pots' : ''}`, title: out ? t('table.pot.total_title') : t('table.pot.pot_title') }, text);
    if (out) {
      box.append(h('div', { class: 'pot' }, middle ? chipStack(middle) : null,
        h('span', { class: 'pot-middle', title: t('table.pot.middle_title') }, t('table.pot.pot', { amount: chips(middle) }))));
      box.append(h('div', { class: 'pot-total' }, total));
    } else {
      box.append(h('div', { class: 'pot' }, hand.pot ? chipStack(hand.pot) : null, total));
    }
    if (!result && hand.street) {
      box.append(h('div', { class: 'street-name' }, tOf('street', hand.street)));
    }
  } else if (!result) {
    box.append(h('div', { class: 'waiting' }, picture.waiting ?? t('table.waiting_next')));
  }
  if (result?.awards?.length) box.append(resultsList(picture));
  box.prepend(h('div', { class: 'table-title', translate: 'no' }, settings.name ?? ''));
  return box;
}

/**
 * The pots of a hand in progress from what each seat has put in: a main pot up to
 * the smallest all-in, a side pot up to each larger one, the rest above. (The
 * engine forms the same pots when the betting ends; this shows them as it goes.)
 */
export function livePots(seats) {
  const levels = [...new Set(seats.filter((s) => s.all_in && s.live).map((s) => s.committed))]
    .sort((a, b) => a - b);
  const top = Math.max(0, ...seats.map((s) => s.committed));
  if (!levels.length || levels[levels.length - 1] < top) levels.push(top);
  const pots = [];
  let below = 0;
  for (const level of levels) {
    const amount = seats.reduce((sum, s) => sum + Math.min(s.committed, level) - Math.min(s.committed, below), 0);
    if (amount > 0) pots.push({ amount, seats: seats.filter((s) => s.live && s.committed >= level).map((s) => s.seat) });
    below = level;
  }
  return pots;
}

function resultsList(picture) {
  const { result } = picture;
  const name = (seat) => picture.seats?.[seat]?.name ?? picture.names?.(seat) ?? seatName(seat);
  const potCount = Math.max(1, result.pots?.length ?? 1);
  const list = h('ul', { class: 'results', 'aria-label': t('table.result.label') });
  for (const line of awardLines(result.awards)) {
    const a = line.award;
    const pot = potName(a.pot, potCount);
    const sentence = line.low
      ? t('table.result.scoops', {
        who: slot('who'), pot, amount: chips(a.amount + line.low.amount), high: describeHand(a.hand ?? ''), low: describeHand(line.low.hand ?? ''),
      })
      : t('table.result.wins', { who: slot('who'), amount: chips(a.amount), pot, share: a.share ?? 'all', hand: a.hand ? describeHand(a.hand) : 'none' });
    const share = line.low ? 'scoop' : a.share;
    list.append(h('li', { class: `award share-${share}`, dataset: { seat: a.seat, share, pot: a.pot } },
      splice(sentence, { who: h('b', {}, nameEl(name(a.seat))) })));
  }
  for (const p of result.noLow ?? []) {
    list.append(h('li', { class: 'no-low' }, potCount > 1 ? t('table.result.no_low_pot', { pot: potName(p, potCount) }) : t('table.log.no_low')));
  }
  return list;
}

/**
 * The showdown's awards as the lines the felt says: one per award, but a seat that takes
 * both halves of a pot alone (a scoop) is one line, `{award: the high half, low: the low half}`.
 */
export function awardLines(awards) {
  const halves = (pot, share) => awards.filter((x) => x.pot === pot && x.share === share);
  const lines = [];
  for (const a of awards) {
    const high = halves(a.pot, 'high');
    const low = halves(a.pot, 'low');
    const scoop = high.length === 1 && low.length === 1 && high[0].seat === low[0].seat;
    if (!scoop) lines.push({ award: a, low: null });
    else if (a === high[0]) lines.push({ award: a, low: low[0] });
  }
  return lines;
}

/**
 * A seat's accessible name: "Seat 3, Bot 3, 512 chips, showing 9 of hearts and King of spades".
 * The own down cards are named in the owner's view only (no one else's view holds them).
 */
function seatLabel(seat, name, stack, hs, isYou, player, words) {
  const down = (hs?.down ?? []).filter(Boolean);
  const up = (hs?.up ?? []).filter(Boolean);
  const own = isYou && !hs?.shown ? down : [];
  const showing = hs?.shown ? [...down, ...up] : up;
  const state = hs && !hs.live ? 'folded' : hs?.all_in ? 'all_in' : player?.sitting_out ? 'sitting_out' : 'none';
  return t('table.seat.label', {
    seat: String(seat + 1), name, you: isYou ? 'yes' : 'no', chips: Number(stack ?? 0), state,
    down: own.length ? listText(own.map(cardName)) : 'none',
    up: showing.length ? listText(showing.map(cardName)) : 'none',
    words: words || 'none',
  });
}
