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
//
// The single-key shortcuts (WCAG 2.1.4) are on by default, as card-room players expect,
// and can be turned off (prefs.shortcuts, a box under the table): then a letter or a
// digit does nothing and the buttons stay reachable with Tab, Enter and Space.

import { h, fill } from './dom.js';
import { formatChips as chips, t, tOf } from './i18n.js';
import { prefs } from './prefs.js';

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
      case 'fold':
      case 'check': label = tOf('action', a.action); break;
      case 'call':
      case 'bring-in': label = tOf('action_to', a.action, { amount: chips(add) }); break;
      default:
        label = tOf('action_to', a.action, { amount: chips(a.to) });
        if (bet) extra = t('table.act.adds', { amount: chips(add) });
    }
    if (counts[a.action] > 1) label = double ? t('table.act.double', { label }) : t('table.act.single', { label });
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
let connected = true; // the room's socket is open: an action can reach the server

/**
 * The socket closed (`false`) or opened again (`true`): while it is down no button acts, nor
 * does a key, and the bar says why; every bar is drawn again when it changes.
 */
export function setConnected(open) {
  if (connected === open) return;
  connected = open;
  for (const bar of bars) if (bar.lastArgs) bar.update(...bar.lastArgs);
}

/**
 * The server refused something (`table`: the table its error names, or null): a bar waiting
 * for the answer to its action gets its buttons back, or the turn would run out on disabled
 * buttons. A refusal changed nothing on the server, so acting again is safe; one that names
 * no table (a rate limit, a tournament table's refusal) frees every waiting bar.
 */
export function releaseRefused(table = null) {
  for (const bar of bars) {
    if (table === null || bar.table === null || String(bar.table) === String(table)) bar.release();
  }
}

let confirmIds = 0;

/** The key of a shortcut drawn on its button (none when shortcuts are off): a key, not a word. */
function keyCap(key) {
  return prefs.shortcuts ? h('kbd', { translate: 'no', 'aria-hidden': 'true' }, key.toUpperCase()) : null;
}
const keyOwners = new WeakMap(); // key event -> the bar it goes to

/** The bar a key press goes to: hovered, else focused, else the longest waiting turn. */
function keyOwner() {
  if (!connected) return null;
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
  constructor(el, send, { scope = null, table = null } = {}) {
    this.el = el;
    this.send = send; // (action, to) => bool
    this.scope = scope;
    this.table = table; // the table it acts at: a refusal naming it gives the buttons back
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

  /** The action sent was refused: the turn is still ours, so the buttons come back. */
  release() {
    if (!this.waiting()) return;
    this.pendingTurn = null;
    this.update(...this.lastArgs);
  }

  /**
   * Show the buttons for `legal` at turn `turnId` (no buttons when it is not our turn);
   * `bet` is our bet on this street; `idle` is drawn instead of the hint when there is no turn.
   */
  update(legal, turnId, hint, options = {}) {
    const focus = this.focusMark();
    this.draw(legal, turnId, hint, options);
    if (focus) this.restoreFocus(focus);
  }

  /** Where the focus is in the bar (a button's action, a box's value, the bar), else null. */
  focusMark() {
    const el = document.activeElement;
    if (!el || !this.el.contains(el)) return null;
    if (el.dataset?.action) return { action: el.dataset.action, index: this.buttons.indexOf(el) };
    if (el.tagName === 'INPUT') return { value: el.value };
    return { bar: true };
  }

  /**
   * The bar was drawn again under the focus: put it back on the same control, else on the
   * check or call of a turn that just came, else on the bar itself (parked until the next
   * turn, so a keyboard player never starts again from the top of the page).
   */
  restoreFocus(mark) {
    let target = null;
    if (mark.action) {
      target = this.buttons.find((b, i) => b.dataset.action === mark.action && (i === mark.index || !this.buttons[mark.index]));
      target ??= this.buttons.find((b) => b.dataset.action === mark.action);
    } else if (mark.value !== undefined) {
      target = this.el.querySelector(`input[value="${CSS.escape(mark.value)}"]`);
    }
    if (!target && this.buttons.length) {
      target = this.buttons.find((b) => ['check', 'call'].includes(b.dataset.action)) ?? this.buttons[0];
    }
    if (!target) {
      this.park();
      return;
    }
    if (document.activeElement !== target) target.focus();
  }

  /** Keep the focus on the bar itself between turns. */
  park() {
    this.el.tabIndex = -1;
    if (document.activeElement !== this.el) this.el.focus();
  }

  draw(legal, turnId, hint, options = {}) {
    const { bet = 0, idle = null, readout = null } = options;
    this.lastArgs = [legal, turnId, hint, options];
    if (this.pendingTurn !== null && this.pendingTurn !== turnId) this.pendingTurn = null;
    const actions = legal?.length ? describeActions(legal, bet) : [];
    if (turnId !== this.turnId || !actions.length) this.confirming = false;
    if (actions.length && (!this.actions?.length || turnId !== this.turnId)) this.since = performance.now();
    this.actions = actions;
    this.turnId = turnId;
    this.el.classList.toggle('active', actions.length > 0);
    const words = readout ? h('div', { class: 'your-hand', title: t('table.your_hand') }, readout) : null;
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
    const keys = prefs.shortcuts;
    this.buttons = actions.map((a) => h('button', {
      class: `act-btn ${a.kind}${a.double ? ' double' : ''}`,
      dataset: { action: a.action, to: a.to, add: a.add },
      disabled: waiting || !connected,
      title: keys ? t('table.act.title_keys', { label: a.label, key: a.key.toUpperCase(), number: String(a.number) }) : null,
      'aria-keyshortcuts': keys ? `${a.key.toUpperCase()} ${a.number}` : null,
      onclick: () => this.choose(a),
    }, h('span', { class: 'label' }, a.label), a.extra ? h('small', { class: 'adds' }, ' ', a.extra) : null,
    keyCap(a.key)));
    const prompt = connected
      ? h('div', { class: 'your-turn' }, t('table.your_turn'))
      : h('div', { class: 'your-turn offline' }, t('table.act.offline'));
    fill(this.el, words, prompt, h('div', { class: 'act-buttons', role: 'group', 'aria-label': t('table.act.group') }, this.buttons));
  }

  /** Folding when checking is free: ask first. */
  drawConfirm(words) {
    const check = this.actions.find((a) => a.action === 'check');
    const fold = this.actions.find((a) => a.action === 'fold');
    this.buttons = [
      h('button', { class: 'act-btn passive', dataset: { action: 'check', to: check.to, add: 0 }, disabled: !connected, onclick: () => this.choose(check, true) },
        h('span', { class: 'label' }, tOf('action', 'check')), keyCap('k')),
      h('button', { class: 'act-btn fold', dataset: { action: 'fold', to: fold.to, add: 0, confirm: '1' }, disabled: !connected, onclick: () => this.choose(fold, true) },
        h('span', { class: 'label' }, t('table.act.fold_anyway')), keyCap('f')),
    ];
    const question = h('div', { class: 'fold-confirm', id: `fold-confirm-${++confirmIds}` }, t('table.act.fold_confirm'));
    fill(this.el, words, question,
      h('div', { class: 'act-buttons', role: 'group', 'aria-labelledby': question.id }, this.buttons));

  }

  choose(a, confirmed = false) {
    if (this.pendingTurn === this.turnId || !connected) return;
    const canCheck = this.actions.some((x) => x.action === 'check');
    if (a.action === 'fold' && canCheck && !confirmed) {
      this.confirming = true;
      const focused = this.el.contains(document.activeElement);
      this.drawConfirm(this.el.querySelector('.your-hand'));
      if (focused) this.buttons[0].focus(); // the question replaced the Fold button: Check is safe
      return;
    }
    this.confirming = false;
    if (this.send(a.action, a.to)) {
      this.pendingTurn = this.turnId;
      if (this.el.contains(document.activeElement)) this.park(); // a disabled button drops the focus
      for (const b of this.buttons) b.disabled = true;
    }
  }

  key(e) {
    if (!this.actions?.length || e.ctrlKey || e.metaKey || e.altKey) return;
    if (typing(e.target)) return;
    if (!prefs.shortcuts && e.key !== 'Escape') return; // single-key shortcuts turned off
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
