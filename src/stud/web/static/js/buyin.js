// Chips at a table: the buy-in (a range with a sensible default, not the maximum),
// topping up between hands, the automatic rebuy, and joining a full table's waiting list.

import { h } from './dom.js';
import { chips } from './format.js';

/** The table's buy-in range and the amount offered first: half-way, within the balance. */
export function buyInRange(settings, balance) {
  const low = settings.min_buy_in || settings.big_bet * 10;
  const high = settings.max_buy_in || settings.big_bet * 100;
  const middle = Math.round((low + high) / 2 / settings.big_bet) * settings.big_bet;
  const value = Math.max(low, Math.min(middle, high, balance));
  return { low, high, value };
}

/**
 * A dialog choosing an amount between `low` and `high` (slider and number kept together).
 * `onDone(amount, form)` runs when confirmed; `extra` is more form content (the rebuy box).
 */
export function amountDialog({ title, text, low, high, value, confirm, action = 'ok', extra = null, cls = 'buy-in', onDone }) {
  const input = h('input', { type: 'number', name: 'buy_in', min: low, max: high, step: 1, value, required: true });
  const slider = h('input', { type: 'range', name: 'buy_in_range', min: low, max: high, step: 1, value, 'aria-label': 'amount' });
  slider.addEventListener('input', () => { input.value = slider.value; });
  input.addEventListener('input', () => { slider.value = input.value; });
  const form = h('form', { method: 'dialog' },
    h('h2', {}, title),
    h('p', { class: 'muted' }, text),
    h('label', { class: 'amount' }, 'Chips ', input),
    h('div', { class: 'range-row' }, h('small', {}, chips(low)), slider, h('small', {}, chips(high))),
    extra,
    h('div', { class: 'dialog-buttons' },
      h('button', { value: 'cancel', class: 'btn ghost', formnovalidate: true }, 'Cancel'),
      h('button', { value: action, class: 'btn primary' }, confirm)));
  const dialog = h('dialog', { class: `dialog ${cls}` }, form);
  dialog.addEventListener('close', () => {
    if (dialog.returnValue === action) onDone(Math.floor(Number(input.value)), form);
    dialog.remove();
  });
  document.body.append(dialog);
  dialog.showModal();
  input.select();
  return dialog;
}

/** Sit down (or, at a full table, join the waiting list) with a chosen buy-in. */
export function sitDialog(view, seat, { wait = false } = {}) {
  const app = view.app;
  const s = view.model.state.settings;
  const balance = app.account?.balance ?? 0;
  const { low, high, value } = buyInRange(s, balance);
  const rebuy = h('input', { type: 'checkbox', name: 'auto_rebuy' });
  amountDialog({
    title: wait ? `Waiting list for ${s.name}` : seat === null ? `Sit at ${s.name}` : `Sit in seat ${seat + 1}`,
    text: `${wait ? 'You are seated with this buy-in when a seat is free. ' : ''}Buy in between ${chips(low)} and ${chips(high)}. Your balance: ${chips(balance)}.`,
    low, high, value,
    confirm: wait ? 'Join the waiting list' : 'Sit down',
    action: wait ? 'wait' : 'sit',
    extra: wait ? null : h('label', { class: 'toggle rebuy' }, rebuy, ' Rebuy automatically (back to this buy-in when below the minimum)'),
    onDone: (amount) => {
      const table = view.model.id;
      if (wait) {
        app.socket.send({ type: 'wait', table, buy_in: amount });
        return;
      }
      const msg = { type: 'sit', table, buy_in: amount };
      if (seat !== null) msg.seat = seat;
      if (rebuy.checked) msg.auto_rebuy = true;
      app.socket.send(msg);
      setTimeout(() => app.refreshAccount(), 600);
    },
  });
}

/** Add chips to your stack (now between hands, after the hand while you are in one). */
export function topUpDialog(view) {
  const app = view.app;
  const { state } = view.model;
  const s = state.settings;
  const me = state.seats[state.you];
  const pending = state.mine?.pending ?? 0;
  const high = Math.max(0, (s.max_buy_in || s.big_bet * 100) - me.stack - pending);
  const balance = app.account?.balance ?? 0;
  const most = Math.min(high, balance);
  if (most <= 0) {
    app.toast(high <= 0 ? 'Your stack is at the table maximum.' : 'Your balance is empty.');
    return;
  }
  amountDialog({
    title: 'Add chips',
    text: `Up to ${chips(most)} (the table's maximum is ${chips(s.max_buy_in)}; your balance ${chips(balance)}). ${me.in_hand ? 'They join your stack when this hand ends.' : ''}`,
    low: 1, high: most, value: most, confirm: 'Add chips', cls: 'top-up',
    onDone: (amount) => {
      app.socket.send({ type: 'top_up', table: view.model.id, amount });
      setTimeout(() => app.refreshAccount(), 600);
    },
  });
}

/** The header's chip controls for a seated player: Add chips and the automatic rebuy. */
export function chipButtons(view) {
  const mine = view.model.state.mine ?? {};
  const box = h('input', { type: 'checkbox', checked: !!mine.auto_rebuy, onchange: () => {
    view.app.socket.send({ type: 'auto_rebuy', table: view.model.id, on: box.checked });
  } });
  return [
    h('button', { class: 'btn', dataset: { do: 'top-up' }, onclick: () => topUpDialog(view) }, 'Add chips'),
    h('label', { class: 'toggle auto-rebuy', title: 'Back to your buy-in when your stack falls below the minimum' }, box, ' Auto-rebuy'),
  ];
}

/** The waiting list in the header: join it at a full table, or your place and a way off it. */
export function waitingButtons(view) {
  const { state } = view.model;
  const account = view.app.account;
  const list = state.waiting ?? [];
  const place = account ? list.findIndex((w) => w.id === account.id) + 1 : 0;
  if (place) {
    return [h('span', { class: 'waiting-place' }, `You are #${place} on the waiting list`),
      h('button', { class: 'btn ghost', onclick: () => view.app.socket.send({ type: 'unwait', table: view.model.id }) }, 'Leave the list')];
  }
  const full = (state.seats ?? []).every((p) => p);
  if (!full || !account) return [];
  return [h('button', { class: 'btn primary', dataset: { do: 'wait' }, onclick: () => sitDialog(view, null, { wait: true }) },
    `Join the waiting list${list.length ? ` (${list.length} waiting)` : ''}`)];
}
