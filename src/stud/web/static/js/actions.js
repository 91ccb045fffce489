// The action bar: a button for exactly each legal action with the chips it puts
// in, and a key for each. On a Stud 4th-street open pair a bet or raise has two
// legal amounts (small and double); both get a button.
//
// Amounts: the server's `to` is the street total after the action (PHH's cbr);
// a button says what the player adds, as the log does ("Call 3" / "calls 3"):
// Call N is N more chips, Raise to 15 shows "+12" beside it.
//
// Fold when checking is free asks first (as PokerStars and GGPoker do): the bar
// turns into "Checking is free — fold anyway?" with Check (K, Esc) and Fold (F).
//
// Several bars can be on the page (tables side by side): a key goes to one bar
// only: the one under the mouse, else the one holding the focus, else the one whose
// turn came first.

import { h, fill } from './dom.js';
import { chips } from './format.js';

const KEYS = {
  fold: 'f', check: 'k', call: 'c', 'bring-in': 'i', complete: 'o', bet: 'b', raise: 'r',
};
const DOUBLE_KEY = 'd';

/**
 * Label, key and style for each legal action. `bet` is what the player already
 * has in front of them on this street: a call adds `to - bet`.
 */
export function describeActions(legal, bet = 0) {
  const counts = {};
  for (const a of legal) counts[a.action] = (counts[a.action] ?? 0) + 1;
  const seen = {};
  return legal.map((a, index) => {
    const nth = (seen[a.action] = (seen[a.action] ?? 0) + 1);
    const double = counts[a.action] > 1 && nth > 1;
    const add = Math.max(0, (a.to ?? 0) - bet);
    let label;
    let extra = null;
    switch (a.action) {
      case 'fold': label = 'Fold'; break;
      case 'check': label = 'Check'; break;
      case 'call': label = `Call ${chips(add)}`; break;
      case 'bring-in': label = `Bring in ${chips(add)}`; break;
      case 'complete': label = `Complete to ${chips(a.to)}`; if (bet) extra = `+${chips(add)}`; break;
      case 'bet': label = `Bet ${chips(a.to)}`; if (bet) extra = `+${chips(add)}`; break;
      case 'raise': label = `Raise to ${chips(a.to)}`; if (bet) extra = `+${chips(add)}`; break;
      default: label = a.action;
    }
    if (counts[a.action] > 1) label += double ? ' (double)' : ' (single)';
    const key = double ? DOUBLE_KEY : KEYS[a.action];
    const kind = a.action === 'fold' ? 'fold' : ['check', 'call'].includes(a.action) ? 'passive' : 'aggressive';
    return { ...a, label, extra, add, key, kind, number: index + 1, double };
  });
}

/** Whether keys pressed on `target` are typing (text fields), not shortcuts. */
export function typing(target) {
  if (!target) return false;
  if (target.isContentEditable || ['TEXTAREA', 'SELECT'].includes(target.tagName)) return true;
  return target.tagName === 'INPUT' && !['checkbox', 'radio', 'button', 'submit'].includes(target.type);
}

const bars = new Set(); // every ActionBar on the page
const keyOwners = new WeakMap(); // key event -> the bar it goes to

/** The bar a key press goes to: hovered, else focused, else the longest waiting turn. */
function keyOwner() {
  const active = [...bars].filter((b) => b.actions?.length && !b.waiting());
  if (active.length <= 1) return active[0] ?? null;
  const scope = (b) => b.scope ?? b.el;
  const hovered = active.find((b) => scope(b).matches(':hover'));
  if (hovered) return hovered;
  const focused = active.find((b) => scope(b).contains(document.activeElement) && document.activeElement !== document.body);
  if (focused) return focused;
  return active.reduce((a, b) => (b.since < a.since ? b : a));
}

export class ActionBar {
  /** `scope`: the element (a table tile) whose focus or hover makes this bar take the keys. */
  constructor(el, send, { scope = null } = {}) {
    this.el = el;
    this.send = send; // (action, to) => bool
    this.scope = scope;
    this.buttons = [];
    this.pendingTurn = null;
    this.confirming = false;
    this.since = 0;
    this.onKey = (e) => this.key(e);
    document.addEventListener('keydown', this.onKey);
    bars.add(this);
  }

  destroy() {
    document.removeEventListener('keydown', this.onKey);
    bars.delete(this);
  }

  waiting() {
    return this.pendingTurn !== null && this.pendingTurn === this.turnId;
  }

  /**
   * Show the buttons for `legal` at turn `turnId` (no buttons when it is not our turn);
   * `bet` is our bet on this street; `idle` is drawn instead of the hint when there is no turn.
   */
  update(legal, turnId, hint, options = {}) {
    const { bet = 0, idle = null, readout = null } = options;
    this.lastArgs = [legal, turnId, hint, options];
    if (this.pendingTurn !== null && this.pendingTurn !== turnId) this.pendingTurn = null;
    const actions = legal?.length ? describeActions(legal, bet) : [];
    if (turnId !== this.turnId || !actions.length) this.confirming = false;
    if (actions.length && (!this.actions?.length || turnId !== this.turnId)) this.since = performance.now();
    this.actions = actions;
    this.turnId = turnId;
    this.el.classList.toggle('active', actions.length > 0);
    const words = readout ? h('div', { class: 'your-hand', title: 'your hand' }, readout) : null;
    if (!actions.length) {
      fill(this.el, words, h('div', { class: 'action-hint' }, hint ?? ''), idle);
      this.buttons = [];
      return;
    }
    if (this.confirming) {
      this.drawConfirm(words);
      return;
    }
    const waiting = this.pendingTurn === turnId;
    this.buttons = actions.map((a) => h('button', {
      class: `act-btn ${a.kind}${a.double ? ' double' : ''}`,
      dataset: { action: a.action, to: a.to, add: a.add },
      disabled: waiting,
      title: `${a.label}${a.extra ? ` (${a.extra})` : ''} — key ${a.key.toUpperCase()} or ${a.number}`,
      onclick: () => this.choose(a),
    }, h('span', { class: 'label' }, a.label), a.extra ? h('small', { class: 'adds' }, a.extra) : null,
    h('kbd', {}, a.key.toUpperCase())));
    fill(this.el, words, h('div', { class: 'your-turn' }, 'Your turn'), h('div', { class: 'act-buttons' }, this.buttons));
  }

  /** Folding when checking is free: ask first. */
  drawConfirm(words) {
    const check = this.actions.find((a) => a.action === 'check');
    const fold = this.actions.find((a) => a.action === 'fold');
    this.buttons = [
      h('button', { class: 'act-btn passive', dataset: { action: 'check', to: check.to, add: 0 }, onclick: () => this.choose(check, true) },
        h('span', { class: 'label' }, 'Check'), h('kbd', {}, 'K')),
      h('button', { class: 'act-btn fold', dataset: { action: 'fold', to: fold.to, add: 0, confirm: '1' }, onclick: () => this.choose(fold, true) },
        h('span', { class: 'label' }, 'Fold anyway'), h('kbd', {}, 'F')),
    ];
    fill(this.el, words,
      h('div', { class: 'fold-confirm', role: 'alertdialog', 'aria-label': 'Fold when checking is free?' },
        'Checking is free — fold anyway?'),
      h('div', { class: 'act-buttons' }, this.buttons));
  }

  choose(a, confirmed = false) {
    if (this.pendingTurn === this.turnId) return;
    const canCheck = this.actions.some((x) => x.action === 'check');
    if (a.action === 'fold' && canCheck && !confirmed) {
      this.confirming = true;
      this.drawConfirm(this.el.querySelector('.your-hand'));
      return;
    }
    this.confirming = false;
    if (this.send(a.action, a.to)) {
      this.pendingTurn = this.turnId;
      for (const b of this.buttons) b.disabled = true;
    }
  }

  key(e) {
    if (!this.actions?.length || e.ctrlKey || e.metaKey || e.altKey) return;
    if (typing(e.target)) return;
    // Decided once per key press: the bar that acts first stops being a candidate.
    if (!keyOwners.has(e)) keyOwners.set(e, keyOwner());
    if (keyOwners.get(e) !== this) return;
    const k = e.key.toLowerCase();
    if (this.confirming) {
      const pick = { f: 'fold', k: 'check', c: 'check', escape: 'check' }[k];
      if (!pick) return;
      e.preventDefault();
      if (k === 'escape') {
        this.confirming = false;
        this.update(...this.lastArgs);
        return;
      }
      this.choose(this.actions.find((a) => a.action === pick), true);
      return;
    }
    let choice = this.actions.find((a) => a.key === k);
    if (!choice && k === 'c') choice = this.actions.find((a) => a.action === 'check');
    if (!choice && k === 'k') choice = this.actions.find((a) => a.action === 'call');
    if (!choice && /^[1-9]$/.test(k)) choice = this.actions[Number(k) - 1];
    if (choice) {
      e.preventDefault();
      this.choose(choice);
    }
  }
}
