// Pre-action boxes: while another player acts, tick what you will do when your
// turn comes, as PokerStars and GGPoker players know them.
//
//   facing a bet:      [ ] Fold        [ ] Call N        [ ] Call any
//   nothing to call:   [ ] Check/Fold  [ ] Check         [ ] Call any
//
// One box at a time. "Call N" is cleared when the amount to call changes and
// "Check" when a bet comes in; every box is cleared at a new street or hand, and
// once taken. When the turn comes the box is taken at once (a Fold box checks
// instead when checking turns out to be free; Call any checks when there is
// nothing to call). The choice lives on the table's model, so it is taken even
// while you look at the lobby or another table.

import { h, fill } from './dom.js';
import { formatChips as chips, t, tOf } from './i18n.js';

/** What the player in `state` would have to add to call now, and the context of the choice. */
export function situation(state) {
  const hand = state?.hand;
  const you = state?.you;
  if (!hand || you === null || you === undefined || hand.is_over) return null;
  const me = hand.seats?.find((s) => s.seat === you);
  if (!me || !me.live || me.all_in) return null;
  if (hand.street === 3 && !hand.level) return null; // the bring-in is not in yet
  const toCall = Math.max(0, Math.min(hand.level - me.bet, me.stack));
  return { toCall, street: hand.street, number: state.hand_number, stack: me.stack };
}

/** The boxes offered in `sit` (a situation). */
export function options(sit) {
  if (!sit) return [];
  if (sit.toCall > 0) {
    return [
      { kind: 'fold', label: tOf('action', 'fold') },
      { kind: 'call', label: tOf('action_to', 'call', { amount: chips(sit.toCall) }) },
      { kind: 'callany', label: t('table.pre.call_any') },
    ];
  }
  return [
    { kind: 'checkfold', label: t('table.pre.check_fold') },
    { kind: 'check', label: tOf('action', 'check') },
    { kind: 'callany', label: t('table.pre.call_any') },
  ];
}

export class PreActions extends EventTarget {
  constructor() {
    super();
    this.choice = null; // {kind, toCall, street, number}
  }

  set(kind, sit) {
    this.choice = kind && sit ? { kind, toCall: sit.toCall, street: sit.street, number: sit.number } : null;
    this.dispatchEvent(new Event('change'));
  }

  /** Drop a choice the table has moved past (new street or hand, the bet changed). */
  sync(state) {
    const c = this.choice;
    if (!c) return;
    const sit = situation(state);
    const stale = !sit || sit.number !== c.number || sit.street !== c.street
      || (c.kind === 'call' && sit.toCall !== c.toCall)
      || (c.kind === 'check' && sit.toCall > 0);
    if (stale) {
      this.choice = null;
      this.dispatchEvent(new Event('change'));
    }
  }

  /** The action to send now that it is our turn with `legal`, or null (and the choice is spent). */
  take(legal) {
    const c = this.choice;
    if (!c || !legal?.length) return null;
    const find = (action) => legal.find((a) => a.action === action) ?? null;
    let pick = null;
    switch (c.kind) {
      case 'fold': pick = find('check') ?? find('fold'); break;
      case 'checkfold': pick = find('check') ?? find('fold'); break;
      case 'check': pick = find('check'); break;
      case 'call': pick = find('call'); break;
      case 'callany': pick = find('call') ?? find('check'); break;
      default: break;
    }
    this.choice = null;
    this.dispatchEvent(new Event('change'));
    return pick;
  }
}

/** The model's pre-actions (made on first use). */
export function preActionsOf(model) {
  if (!model.preactions) model.preactions = new PreActions();
  return model.preactions;
}

/**
 * Take a ticked box when the turn comes: called on every state of every watched table.
 * `send(action, to, turn)` sends the act; returns the action taken or null.
 */
export function takePreAction(model, send) {
  const state = model.state;
  const pre = preActionsOf(model);
  pre.sync(state);
  const turn = state?.turn;
  if (!turn || turn.seat !== state.you || !state.legal?.length) return null;
  if (model.preTaken === turn.turn) return null;
  const pick = pre.take(state.legal);
  if (!pick) return null;
  if (send(pick.action, pick.to, turn.turn)) {
    model.preTaken = turn.turn;
    return pick;
  }
  return null;
}

/** The boxes for `model` (or null when none are offered now). */
export function preActionBoxes(model) {
  const state = model.state;
  const sit = situation(state);
  const mine = state?.turn && state.turn.seat === state.you;
  if (!sit || mine) return null;
  const pre = preActionsOf(model);
  pre.sync(state);
  const box = h('div', { class: 'preactions', role: 'group', 'aria-label': t('table.pre.label') });
  const draw = () => {
    const chosen = pre.choice?.kind ?? null;
    fill(box, options(sit).map((o) => {
      const input = h('input', { type: 'checkbox', name: 'preaction', value: o.kind, checked: chosen === o.kind });
      input.addEventListener('change', () => {
        pre.set(input.checked ? o.kind : null, sit);
        draw();
      });
      return h('label', { class: `pre-box${chosen === o.kind ? ' on' : ''}`, dataset: { pre: o.kind } }, input, o.label);
    }));
  };
  draw();
  return box;
}
