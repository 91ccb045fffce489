// The running hand log: each event as a line a person reads, in the page's language,
// cards drawn in colour. The log is a polite live region (tableview.js): one line per
// event, so a screen reader hears each action once as it happens.

import { h } from './dom.js';
import { cardName } from './cards.js';
import { describeHand } from './handwords.js';
import { formatChips, language, languageTag, t, tOf } from './i18n.js';
import { potName } from './tablewords.js';
import { slot, splice } from './tparts.js';

const SUIT = { c: '♣', d: '♦', h: '♥', s: '♠' };

/** A card in the log: its rank and suit symbol drawn, its name (黑桃K) for screen readers. */
function card(c) {
  if (!c) return h('span', { class: 'log-card hidden', role: 'img', 'aria-label': cardName(null) }, h('span', { 'aria-hidden': 'true' }, '??'));
  // The rank and suit drawn are symbols (translate="no"); the card's name is its label.
  return h('span', { class: `log-card suit-${c[1]}`, role: 'img', 'aria-label': cardName(c) },
    h('span', { 'aria-hidden': 'true', translate: 'no' }, (c[0] === 'T' ? '10' : c[0]) + SUIT[c[1]]));
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

/** A player's name as written by them: never translated. */
export function nameEl(name) {
  return h('span', { class: 'player-name', translate: 'no' }, name);
}

const amount = (n) => formatChips(n);
const yes = (flag) => (flag ? 'yes' : 'no');

/** What a shown hand makes, in words: "a full house, Kings full of Sevens; 8-7-5-3-2 low". */
export function shownWords(high, low) {
  if (high && low) return t('table.hand.high_low', { high: describeHand(high), low: describeHand(low) });
  return describeHand(high ?? low ?? '');
}

/**
 * One log line for event `e` as DOM parts, or null for an event the log skips.
 * `names(seat)` gives a player's name; `you` is the viewer's seat.
 */
export function describe(e, names, you, context = {}) {
  const who = (seat, name = names(seat)) => h('b', {}, seat === you && seat !== undefined
    ? splice(t('table.log.you', { name: slot('name') }), { name: nameEl(name) })
    : nameEl(name));
  const line = (text, nodes = {}, cls = undefined) => ({ cls, parts: splice(text, nodes) });
  const W = slot('who');
  switch (e.type) {
    case 'new_hand':
      return line(t('table.log.hand', { id: String(e.hand_id ?? e.number) }), {}, 'hand');
    case 'hand_started':
      if (e.number !== undefined) return line(t('table.log.hand', { id: String(e.number) }), {}, 'hand');
      return null;
    case 'ante':
      return line(t('table.log.ante', { who: W, amount: amount(e.amount), all_in: yes(e.all_in) }), { who: who(e.seat) });
    case 'street':
      return line(t('table.log.street', { street: tOf('street', e.street) }).toLocaleUpperCase(languageTag(language())), {}, 'street');
    case 'dealt': {
      const mine = (e.down ?? []).some((c) => c);
      const shown = [];
      if (mine) shown.push(...cards(e.down), ' ');
      if ((e.up ?? []).length) shown.push(...cards(e.up));
      if (!mine && !(e.up ?? []).length) return null;
      return line(t('table.log.dealt', { who: W, cards: slot('cards') }), { who: who(e.seat), cards: shown }, 'dealt');
    }
    case 'community':
      return line(t('table.log.community', { card: slot('card') }), { card: cards([e.card]) });
    case 'double_bet_allowed':
      return line(t('table.log.double_allowed'), {}, 'note');
    case 'action':
      return line(actionText(e, context), { who: who(e.seat) }, `act ${e.kind}`);
    case 'capped':
      return line(t('table.log.capped'), {}, 'note');
    case 'uncalled':
      return line(t('table.log.uncalled', { who: W, amount: amount(e.amount) }), { who: who(e.seat) });
    case 'pots':
      if ((e.pots ?? []).length < 2) return null;
      return line(e.pots.map((p, i) => (i
        ? t('table.log.side_pot', { n: i, amount: amount(p.amount) })
        : t('table.log.main_pot', { amount: amount(p.amount) }))).join(' · '), {}, 'note');
    case 'showdown':
      return line(t('table.log.showdown'), {}, 'street');
    case 'show': {
      const words = e.high || e.low ? shownWords(e.high, e.low) : '';
      const nodes = { who: who(e.seat), cards: cards(e.cards) };
      return words
        ? line(t('table.log.shows_hand', { who: W, cards: slot('cards'), hand: words }), nodes)
        : line(t('table.log.shows', { who: W, cards: slot('cards') }), nodes);
    }
    case 'muck':
      return line(t('table.log.mucks', { who: W }), { who: who(e.seat) });
    case 'no_low':
      return line(e.pot ? t('table.log.no_low_side', { n: e.pot }) : t('table.log.no_low'), {}, 'note');
    case 'award':
      return line(t('table.log.collected', {
        who: W, amount: amount(e.amount), pot: potName(e.pot, context.pots ?? 1), share: e.share ?? 'all',
        hand: e.hand ? describeHand(e.hand) : 'none',
      }), { who: who(e.seat) }, 'win');
    case 'hand_finished':
      return { cls: 'hand-end', parts: [...splice(t('table.log.hand_over', { id: String(e.hand_id ?? e.number) }), {}), ...shuffleCheck(e)] };
    case 'shuffle':
      return line(t('table.log.shuffle', { code: slot('code') }), {
        code: h('code', { title: e.commitment, translate: 'no' }, `${e.commitment.slice(0, 12)}…`),
      }, 'note shuffle');
    case 'timeout':
      return line(t('table.log.timeout', { who: W, action: String(e.action) }), { who: who(e.seat) }, 'note');
    case 'seated':
      return line(t('table.log.seated', { who: W }), { who: who(e.seat) }, 'table');
    case 'left':
      return line(t('table.log.left', { who: W }), { who: who(undefined, e.name ?? names(e.seat)) }, 'table');
    case 'leaving':
      return line(e.folds ? t('table.log.leaving_folds', { who: W }) : t('table.log.leaving', { who: W }), { who: who(e.seat) }, 'table');
    case 'sat_out':
      return line(e.next_hand ? t('table.log.sat_out_next', { who: W }) : t('table.log.sat_out', { who: W }), { who: who(e.seat) }, 'table');
    case 'topped_up':
      if (!e.amount) return null;
      if (e.after_hand) return line(t('table.log.adds_after', { who: W, amount: amount(e.amount) }), { who: who(e.seat) }, 'table');
      return line(t('table.log.topped_up', { who: W, amount: amount(e.amount), stack: amount(e.stack), rebuy: yes(e.rebuy) }), { who: who(e.seat) }, 'table');
    case 'renamed':
      return line(t('table.log.registered', { who: W }), { who: who(e.seat) }, 'table');
    case 'sat_in':
      return line(t('table.log.back', { who: W }), { who: who(e.seat) }, 'table');
    default:
      return null;
  }
}

/** The finished hand's shuffle, now revealed: a link to the replayer, which checks it. */
function shuffleCheck(e) {
  if (!e.summary?.shuffle || e.hand_id === undefined || e.hand_id === null) return [];
  return [' · ', h('a', { href: `#/replay/${e.hand_id}`, class: 'fair-link' }, t('table.log.verify_shuffle'))];
}

/** An action's line, `{who}` in it for the player's name. */
function actionText(e, context) {
  const who = slot('who');
  const allIn = yes(e.all_in);
  switch (e.kind) {
    case 'fold': return t('table.log.folds', { who });
    case 'check': return t('table.log.checks', { who });
    case 'call': return t('table.log.calls', { who, amount: amount(e.amount), all_in: allIn });
    case 'bring-in': return t('table.log.brings_in', { who, amount: amount(e.to), all_in: allIn });
    case 'complete': return t('table.log.completes', { who, amount: amount(e.to), all_in: allIn });
    case 'bet': {
      const double = context.bigBet && e.to === context.bigBet && context.street === 4 ? 'yes' : 'no';
      return t('table.log.bets', { who, amount: amount(e.to), double, all_in: allIn });
    }
    case 'raise': return t('table.log.raises', { who, by: amount(e.by), amount: amount(e.to), all_in: allIn });
    default: return `${who} ${tOf('action', e.kind)}`;
  }
}

/** A log line element; its classes are the entry's, prefixed `log-`. */
export function logLine(entry) {
  const classes = (entry.cls ?? '').split(' ').filter(Boolean).map((c) => `log-${c}`);
  return h('li', { class: ['log-line', ...classes].join(' ') }, entry.parts);
}
