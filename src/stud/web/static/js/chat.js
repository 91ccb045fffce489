// The table's chat tab: players' lines, the dealer's lines for what happens at the
// table, a box to write in, and muting a player (kept per account in localStorage).
// Every line is written with textContent: a message is text, never markup.

import { h, fill } from './dom.js';
import { chips, potName } from './format.js';
import { isNewHand } from './model.js';

const MAX_CHARS = 200;
const SHOWN = 200;

function muteKey(account) {
  return `stud.muted.${account?.id ?? 'anon'}`;
}

/** The accounts `account` muted: {id: name}. */
export function mutedBy(account) {
  try {
    return JSON.parse(localStorage.getItem(muteKey(account)) || '{}');
  } catch {
    return {};
  }
}

function saveMuted(account, muted) {
  try {
    localStorage.setItem(muteKey(account), JSON.stringify(muted));
  } catch {
    // private mode: for this page only
  }
}

/** The dealer's line for a table event, or null (names by `name(seat)`). */
export function dealerLine(e, name) {
  switch (e.type) {
    case 'new_hand': return `Hand #${e.hand_id ?? e.number} is dealt.`;
    case 'seated': return `${e.player?.name ?? name(e.seat)} sits down.`;
    case 'left': return `${e.name ?? name(e.seat)} leaves the table.`;
    case 'leaving': return e.folds ? `${name(e.seat)} folds and leaves after this hand.` : `${name(e.seat)} leaves after this hand.`;
    case 'sat_out': return e.next_hand ? `${name(e.seat)} sits out from the next hand.` : `${name(e.seat)} sits out.`;
    case 'sat_in': return `${name(e.seat)} is back.`;
    case 'timeout': return `${name(e.seat)} ran out of time.`;
    case 'topped_up':
      if (e.after_hand) return `${name(e.seat)} adds ${chips(e.amount)} chips after this hand.`;
      return `${name(e.seat)} ${e.rebuy ? 'rebuys' : 'adds'} ${chips(e.amount)} chips.`;
    case 'renamed': return `${name(e.seat)} is now registered as ${e.name}.`;
    case 'award': return `${name(e.seat)} wins ${chips(e.amount)} from ${potName(e.pot, 1)}${e.share === 'high' ? ' (high)' : e.share === 'low' ? ' (low)' : ''}.`;
    default: return null;
  }
}

export class ChatPanel {
  constructor(view) {
    this.view = view;
    this.list = h('ol', { class: 'chat-lines', 'aria-label': 'chat' });
    this.input = h('input', { name: 'chat', maxlength: MAX_CHARS, placeholder: 'Say something…', autocomplete: 'off', 'aria-label': 'chat message' });
    this.form = h('form', { class: 'chat-form' }, this.input, h('button', { class: 'btn small', type: 'submit' }, 'Send'));
    this.form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.send();
    });
    this.mutedEl = h('div', { class: 'chat-muted muted' });
    this.body = h('div', { class: 'tab-body chat-body', dataset: { body: 'chat' }, hidden: true }, this.list, this.mutedEl, this.form);
    this.seen = 0;
  }

  /** Add the tab and its body to the side panel of the table view. */
  attach(side, tab) {
    side.querySelector('.tabs').append(tab('chat', 'Chat'));
    side.append(this.body);
  }

  send() {
    const text = this.input.value.trim();
    if (!text) return;
    if (!this.view.app.account) {
      this.view.app.toast('Log in or play as a guest to chat.');
      return;
    }
    if (this.view.app.socket.send({ type: 'chat', table: this.view.model.id, text })) this.input.value = '';
  }

  /** Draw the lines of the model's log from the start (after a mount or a mute). */
  render() {
    this.list.replaceChildren();
    this.seen = 0;
    this.update();
    this.renderMuted();
  }

  /** Draw the log's lines not drawn yet. */
  update() {
    const model = this.view.model;
    const total = model.logTotal ?? 0;
    let fresh = total - this.seen;
    if (fresh <= 0) return;
    fresh = Math.min(fresh, model.log.length);
    const muted = mutedBy(this.view.app.account);
    const name = (seat) => model.name(seat);
    for (const e of model.log.slice(model.log.length - fresh)) {
      if (e.type === 'chat') {
        if (muted[e.account_id]) continue;
        this.list.append(this.chatLine(e));
      } else {
        const text = isNewHand(e) || e.type !== 'hand_started' ? dealerLine(e, name) : null;
        if (text) this.list.append(h('li', { class: 'chat-line dealer' }, h('b', {}, 'Dealer: '), text));
      }
    }
    while (this.list.childElementCount > SHOWN) this.list.firstElementChild.remove();
    this.seen = total;
    this.list.parentElement.scrollTop = this.list.parentElement.scrollHeight;
  }

  chatLine(e) {
    const mine = e.account_id === this.view.app.account?.id;
    const line = h('li', { class: `chat-line player${mine ? ' mine' : ''}`, dataset: { account: e.account_id } },
      h('b', { class: 'chat-name' }, e.name), ': ');
    line.append(h('span', { class: 'chat-text' }, e.text)); // text, never markup
    if (!mine && this.view.app.account) {
      line.append(' ', h('button', { class: 'link mute', title: `Hide ${e.name}'s messages`, onclick: () => this.mute(e.account_id, e.name) }, 'mute'));
    }
    return line;
  }

  mute(id, name) {
    const account = this.view.app.account;
    const muted = mutedBy(account);
    muted[id] = name;
    saveMuted(account, muted);
    this.render();
  }

  unmute(id) {
    const account = this.view.app.account;
    const muted = mutedBy(account);
    delete muted[id];
    saveMuted(account, muted);
    this.render();
  }

  renderMuted() {
    const muted = Object.entries(mutedBy(this.view.app.account));
    if (!muted.length) {
      fill(this.mutedEl);
      return;
    }
    fill(this.mutedEl, 'Muted: ', muted.map(([id, name], i) => [i ? ', ' : '', name, ' ',
      h('button', { class: 'link unmute', onclick: () => this.unmute(Number(id)) }, 'unmute')]));
  }
}
