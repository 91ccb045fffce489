// The action bar: a button for exactly each legal action with its amount, and a
// key for each. On a Stud 4th-street open pair a bet or raise has two legal
// amounts (small and double); both get a button.

import { h, fill } from './dom.js';
import { chips } from './format.js';

const KEYS = {
  fold: 'f', check: 'k', call: 'c', 'bring-in': 'i', complete: 'o', bet: 'b', raise: 'r',
};
const DOUBLE_KEY = 'd';

/** Label, key and style for each legal action; amounts are `to` (the street total). */
export function describeActions(legal) {
  const counts = {};
  for (const a of legal) counts[a.action] = (counts[a.action] ?? 0) + 1;
  const seen = {};
  return legal.map((a, index) => {
    const nth = (seen[a.action] = (seen[a.action] ?? 0) + 1);
    const double = counts[a.action] > 1 && nth > 1;
    let label;
    switch (a.action) {
      case 'fold': label = 'Fold'; break;
      case 'check': label = 'Check'; break;
      case 'call': label = `Call ${chips(a.to)}`; break;
      case 'bring-in': label = `Bring in ${chips(a.to)}`; break;
      case 'complete': label = `Complete to ${chips(a.to)}`; break;
      case 'bet': label = `Bet ${chips(a.to)}`; break;
      case 'raise': label = `Raise to ${chips(a.to)}`; break;
      default: label = a.action;
    }
    if (counts[a.action] > 1) label += double ? ' (double)' : ' (single)';
    const key = double ? DOUBLE_KEY : KEYS[a.action];
    const kind = a.action === 'fold' ? 'fold' : ['check', 'call'].includes(a.action) ? 'passive' : 'aggressive';
    return { ...a, label, key, kind, number: index + 1, double };
  });
}

/** Whether keys pressed on `target` are typing (text fields), not shortcuts. */
export function typing(target) {
  if (!target) return false;
  if (target.isContentEditable || ['TEXTAREA', 'SELECT'].includes(target.tagName)) return true;
  return target.tagName === 'INPUT' && !['checkbox', 'radio', 'button', 'submit'].includes(target.type);
}

export class ActionBar {
  constructor(el, send) {
    this.el = el;
    this.send = send; // (action, to) => bool
    this.buttons = [];
    this.pendingTurn = null;
    this.onKey = (e) => this.key(e);
    document.addEventListener('keydown', this.onKey);
  }

  destroy() {
    document.removeEventListener('keydown', this.onKey);
  }

  /** Show the buttons for `legal` at turn `turnId` (no buttons when it is not our turn). */
  update(legal, turnId, hint) {
    if (this.pendingTurn !== null && this.pendingTurn !== turnId) this.pendingTurn = null;
    const actions = legal?.length ? describeActions(legal) : [];
    this.actions = actions;
    this.turnId = turnId;
    this.el.classList.toggle('active', actions.length > 0);
    if (!actions.length) {
      fill(this.el, h('div', { class: 'action-hint' }, hint ?? ''));
      this.buttons = [];
      return;
    }
    const waiting = this.pendingTurn === turnId;
    this.buttons = actions.map((a) => h('button', {
      class: `act-btn ${a.kind}${a.double ? ' double' : ''}`,
      dataset: { action: a.action, to: a.to },
      disabled: waiting,
      title: `${a.label} — key ${a.key.toUpperCase()} or ${a.number}`,
      onclick: () => this.choose(a),
    }, h('span', { class: 'label' }, a.label), h('kbd', {}, a.key.toUpperCase())));
    fill(this.el, h('div', { class: 'your-turn' }, 'Your turn'), h('div', { class: 'act-buttons' }, this.buttons));
  }

  choose(a) {
    if (this.pendingTurn === this.turnId) return;
    if (this.send(a.action, a.to)) {
      this.pendingTurn = this.turnId;
      for (const b of this.buttons) b.disabled = true;
    }
  }

  key(e) {
    if (!this.actions?.length || e.ctrlKey || e.metaKey || e.altKey) return;
    if (typing(e.target)) return;
    const k = e.key.toLowerCase();
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
