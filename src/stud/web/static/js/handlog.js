// The running hand log: each event as a line a person reads, cards drawn in colour.

import { h } from './dom.js';
import { chips, potName, street } from './format.js';

const SUIT = { c: '♣', d: '♦', h: '♥', s: '♠' };

function card(c) {
  if (!c) return h('span', { class: 'log-card hidden' }, '??');
  return h('span', { class: `log-card suit-${c[1]}` }, (c[0] === 'T' ? '10' : c[0]) + SUIT[c[1]]);
}

function cards(list) {
  const parts = ['['];
  (list ?? []).forEach((c, i) => {
    if (i) parts.push(' ');
    parts.push(card(c));
  });
  parts.push(']');
  return parts;
}

/**
 * One log line for event `e` as DOM parts, or null for an event the log skips.
 * `names(seat)` gives a player's name; `you` is the viewer's seat.
 */
export function describe(e, names, you, context = {}) {
  const who = (seat) => h('b', {}, seat === you ? `${names(seat)} (you)` : names(seat));
  const allIn = e.all_in ? ' and is all-in' : '';
  switch (e.type) {
    case 'new_hand':
      return { cls: 'hand', parts: [`Hand #${e.hand_id ?? e.number}`] };
    case 'hand_started':
      if (e.number !== undefined) return { cls: 'hand', parts: [`Hand #${e.number}`] };
      return null;
    case 'ante':
      return { parts: [who(e.seat), ` posts the ante ${chips(e.amount)}${allIn}`] };
    case 'street':
      return { cls: 'street', parts: [`*** ${street(e.street).toUpperCase()} ***`] };
    case 'dealt': {
      const mine = (e.down ?? []).some((c) => c);
      const parts = [who(e.seat), ': '];
      if (mine) parts.push(...cards(e.down), ' ');
      if ((e.up ?? []).length) parts.push(...cards(e.up));
      if (!mine && !(e.up ?? []).length) return null;
      return { cls: 'dealt', parts };
    }
    case 'community':
      return { parts: ['Community card ', ...cards([e.card])] };
    case 'double_bet_allowed':
      return { cls: 'note', parts: ['Pair on board - a double bet is allowed'] };
    case 'action':
      return { cls: `act ${e.kind}`, parts: [who(e.seat), ' ', actionText(e, context)] };
    case 'capped':
      return { cls: 'note', parts: ['Betting is capped'] };
    case 'uncalled':
      return { parts: [`Uncalled bet (${chips(e.amount)}) returned to `, who(e.seat)] };
    case 'pots':
      if ((e.pots ?? []).length < 2) return null;
      return {
        cls: 'note',
        parts: [e.pots.map((p, i) => `${i ? `Side pot ${i}` : 'Main pot'} ${chips(p.amount)}`).join(' · ')],
      };
    case 'showdown':
      return { cls: 'street', parts: ['*** SHOW DOWN ***'] };
    case 'show': {
      const what = [e.high, e.low && (e.high ? `Lo: ${e.low}` : e.low)].filter(Boolean).join('; ');
      return { parts: [who(e.seat), ' shows ', ...cards(e.cards), what ? ` (${what})` : ''] };
    }
    case 'muck':
      return { parts: [who(e.seat), ' mucks'] };
    case 'no_low':
      return { cls: 'note', parts: [`No low hand qualified${e.pot ? ` for side pot ${e.pot}` : ''}`] };
    case 'award': {
      const half = e.share === 'high' ? ' (high)' : e.share === 'low' ? ' (low)' : '';
      const pots = context.pots ?? 1;
      return {
        cls: 'win',
        parts: [who(e.seat), ` collected ${chips(e.amount)} from ${potName(e.pot, pots)}${half}`],
      };
    }
    case 'hand_finished':
      return { cls: 'hand-end', parts: [`Hand #${e.hand_id ?? e.number} is over`, ...shuffleCheck(e)] };
    case 'shuffle':
      return { cls: 'note shuffle', parts: ['The next hand’s deck is committed: ', h('code', { title: e.commitment }, `${e.commitment.slice(0, 12)}…`)] };
    case 'timeout':
      return { cls: 'note', parts: [who(e.seat), ` ran out of time (${e.action})`] };
    case 'seated':
      return { cls: 'table', parts: [who(e.seat), ' sits down'] };
    case 'left':
      return { cls: 'table', parts: [h('b', {}, e.name ?? names(e.seat)), ' leaves the table'] };
    case 'leaving':
      return { cls: 'table', parts: [who(e.seat), e.folds ? ' folds and will leave after this hand' : ' will leave after this hand'] };
    case 'sat_out':
      return { cls: 'table', parts: [who(e.seat), e.next_hand ? ' sits out from the next hand' : ' sits out'] };
    case 'topped_up':
      if (!e.amount) return null;
      if (e.after_hand) return { cls: 'table', parts: [who(e.seat), ` adds ${chips(e.amount)} after this hand`] };
      return { cls: 'table', parts: [who(e.seat), ` ${e.rebuy ? 'rebuys' : 'adds'} ${chips(e.amount)} (stack ${chips(e.stack)})`] };
    case 'renamed':
      return { cls: 'table', parts: [who(e.seat), ' registered'] };
    case 'sat_in':
      return { cls: 'table', parts: [who(e.seat), ' is back'] };
    default:
      return null;
  }
}

/** The finished hand's shuffle, now revealed: a link to the replayer, which checks it. */
function shuffleCheck(e) {
  if (!e.summary?.shuffle || e.hand_id === undefined || e.hand_id === null) return [];
  return [' · ', h('a', { href: `#/replay/${e.hand_id}`, class: 'fair-link' }, 'seed revealed: verify the shuffle')];
}

function actionText(e, context) {
  switch (e.kind) {
    case 'fold': return 'folds';
    case 'check': return 'checks';
    case 'call': return `calls ${chips(e.amount)}${e.all_in ? ' and is all-in' : ''}`;
    case 'bring-in': return `brings in for ${chips(e.to)}${e.all_in ? ' and is all-in' : ''}`;
    case 'complete': return `completes to ${chips(e.to)}${e.all_in ? ' and is all-in' : ''}`;
    case 'bet': {
      const big = context.bigBet && e.to === context.bigBet && context.street === 4 ? ' (double bet)' : '';
      return `bets ${chips(e.to)}${big}${e.all_in ? ' and is all-in' : ''}`;
    }
    case 'raise': return `raises ${chips(e.by)} to ${chips(e.to)}${e.all_in ? ' and is all-in' : ''}`;
    default: return e.kind;
  }
}

/** A log line element; its classes are the entry's, prefixed `log-`. */
export function logLine(entry) {
  const classes = (entry.cls ?? '').split(' ').filter(Boolean).map((c) => `log-${c}`);
  return h('li', { class: ['log-line', ...classes].join(' ') }, entry.parts);
}
