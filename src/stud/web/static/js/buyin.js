// Chips at a table: the buy-in (a range with a sensible default, not the maximum),
// topping up between hands, the automatic rebuy, and joining a full table's waiting list.

import { h } from './dom.js';
import { chips } from './format.js';
import { t } from './i18n.js';
import { openModal, uniqueId } from './modal.js';
import { tParts } from './tparts.js';

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
  const slider = h('input', { type: 'range', name: 'buy_in_range', min: low, max: high, step: 1, value, 'aria-label': t('buyin.slider') });
  const textId = uniqueId('amount-text');
  slider.addEventListener('input', () => { input.value = slider.value; });
  input.addEventListener('input', () => { slider.value = input.value; });
  const form = h('form', { method: 'dialog' },
    h('h2', {}, title),
    h('p', { class: 'muted', id: textId }, text),
    h('label', { class: 'amount' }, t('buyin.chips'), ' ', input),
    h('div', { class: 'range-row' }, h('small', {}, chips(low)), slider, h('small', {}, chips(high))),
    extra,
    h('div', { class: 'dialog-buttons' },
      h('button', { value: 'cancel', class: 'btn ghost', formnovalidate: true }, t('common.cancel')),
      h('button', { value: action, class: 'btn primary' }, confirm)));
  const dialog = openModal({
    cls,
    children: form,
    focus: input,
    describedBy: textId,
    onClose: (returned) => { if (returned === action) onDone(Math.floor(Number(input.value)), form); },
  });
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
  const table = () => h('span', { translate: 'no' }, s.name);
  const range = t('buyin.range', { low: chips(low), high: chips(high), balance: chips(balance) });
  amountDialog({
    title: wait ? tParts((marks) => t('buyin.wait_title', marks), { table: table() })
      : seat === null ? tParts((marks) => t('buyin.sit_title', marks), { table: table() }) : t('buyin.seat_title', { seat: seat + 1 }),
    text: wait ? t('buyin.wait_text', { range }) : range,
    low, high, value,
    confirm: wait ? t('buyin.wait_confirm') : t('buyin.sit_confirm'),
    action: wait ? 'wait' : 'sit',
    extra: wait ? null : h('label', { class: 'toggle rebuy' }, rebuy, ' ', t('buyin.auto_rebuy_long')),
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
    app.toast(high <= 0 ? t('buyin.at_maximum') : t('buyin.balance_empty'));
    return;
  }
  amountDialog({
    title: t('buyin.add_chips'),
    text: [t('buyin.top_up_text', { most: chips(most), max: chips(s.max_buy_in), balance: chips(balance) }),
      me.in_hand ? [' ', t('buyin.top_up_after_hand')] : null],
    low: 1, high: most, value: most, confirm: t('buyin.add_chips'), cls: 'top-up',
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
    h('button', { class: 'btn', dataset: { do: 'top-up' }, onclick: () => topUpDialog(view) }, t('buyin.add_chips')),
    h('label', { class: 'toggle auto-rebuy', title: t('buyin.auto_rebuy_hint') }, box, ' ', t('buyin.auto_rebuy')),
  ];
}

/** The waiting list in the header: join it at a full table, or your place and a way off it. */
export function waitingButtons(view) {
  const { state } = view.model;
  const account = view.app.account;
  const list = state.waiting ?? [];
  const place = account ? list.findIndex((w) => w.id === account.id) + 1 : 0;
  if (place) {
    return [h('span', { class: 'waiting-place' }, t('buyin.waiting_place', { place })),
      h('button', { class: 'btn ghost', onclick: () => view.app.socket.send({ type: 'unwait', table: view.model.id }) }, t('buyin.leave_list'))];
  }
  const full = (state.seats ?? []).every((p) => p);
  if (!full || !account) return [];
  return [h('button', { class: 'btn primary', dataset: { do: 'wait' }, onclick: () => sitDialog(view, null, { wait: true }) },
    t('buyin.join_list', { n: list.length }))];
}
