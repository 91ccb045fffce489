// The table's chat tab: players' lines, the dealer's lines for what happens at the
// table, a box to write in, and muting a player (kept per account in localStorage).
// Every line is written with textContent: a message is text, never markup.

import { request } from './api.js';
import { h, fill } from './dom.js';
import { requestErrorText } from './errortext.js';
import { chips, potName } from './format.js';
import { t } from './i18n.js';
import { listParts } from './tparts.js';
import { isNewHand } from './model.js';

const MAX_CHARS = 200;
const SHOWN = 200;
const PENDING = 5; // lines kept while offline, as many as the server's burst
// Quick-chat phrases (sent in the sender's language) and emoticons (put into the box).
function phrases() {
  return [['good_luck', t('chat.quick.good_luck')], ['nice_hand', t('chat.quick.nice_hand')], ['thanks', t('chat.quick.thanks')],
    ['well_played', t('chat.quick.well_played')], ['sorry', t('chat.quick.sorry')], ['brb', t('chat.quick.brb')]];
}

function emoticons() {
  return [['smile', '🙂', t('chat.emoticon.smile')], ['laugh', '😂', t('chat.emoticon.laugh')], ['cool', '😎', t('chat.emoticon.cool')],
    ['sad', '😢', t('chat.emoticon.sad')], ['thumbs_up', '👍', t('chat.emoticon.thumbs_up')], ['clap', '👏', t('chat.emoticon.clap')]];
}

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
    case 'new_hand': return t('chat.dealt', { hand: String(e.hand_id ?? e.number) });
    case 'seated': return t('chat.sits_down', { name: e.player?.name ?? name(e.seat) });
    case 'left': return t('chat.leaves', { name: e.name ?? name(e.seat) });
    case 'leaving': return e.folds ? t('chat.folds_and_leaves', { name: name(e.seat) }) : t('chat.leaves_after', { name: name(e.seat) });
    case 'sat_out': return e.next_hand ? t('chat.sits_out_next', { name: name(e.seat) }) : t('chat.sits_out', { name: name(e.seat) });
    case 'sat_in': return t('chat.back', { name: name(e.seat) });
    case 'timeout': return t('chat.timed_out', { name: name(e.seat) });
    case 'topped_up':
      if (e.after_hand) return t('chat.adds_after', { name: name(e.seat), amount: chips(e.amount) });
      return e.rebuy ? t('chat.rebuys', { name: name(e.seat), amount: chips(e.amount) }) : t('chat.adds', { name: name(e.seat), amount: chips(e.amount) });
    case 'renamed': return t('chat.renamed', { name: name(e.seat), new_name: e.name });
    case 'award': return t('chat.wins', { name: name(e.seat), amount: chips(e.amount), pot: potName(e.pot, 1), share: e.share ?? 'all' });
    default: return null;
  }
}

export class ChatPanel {
  constructor(view) {
    this.view = view;
    this.list = h('ol', { class: 'chat-lines', 'aria-label': t('chat.lines_label') });
    this.input = h('input', { name: 'chat', maxlength: MAX_CHARS, placeholder: t('chat.placeholder'), autocomplete: 'off', 'aria-label': t('chat.input_label') });
    this.form = h('form', { class: 'chat-form' }, this.input, h('button', { class: 'btn small', type: 'submit' }, t('chat.send')));
    this.form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.send();
    });
    this.mutedEl = h('div', { class: 'chat-muted muted' });
    this.quick = h('div', { class: 'quick-chat', role: 'group', 'aria-label': t('chat.quick_label') },
      phrases().map(([key, words]) => h('button', { type: 'button', class: 'btn small ghost', dataset: { phrase: key }, onclick: () => this.say(words) }, words)),
      emoticons().map(([name, face, label]) => h('button', {
        type: 'button', class: 'btn small ghost', dataset: { emoticon: name }, title: label, 'aria-label': label,
        onclick: () => { this.input.value = `${this.input.value}${face}`.slice(0, MAX_CHARS); this.input.focus(); },
      }, face)));
    // Report a player (not a line) to the room's moderators: whoever sits here but you.
    this.reportWho = h('select', { name: 'report-who', 'aria-label': t('chat.report_who') });
    this.reportWhy = h('input', { name: 'report-why', maxlength: 500, autocomplete: 'off', placeholder: t('chat.report_why'), 'aria-label': t('chat.report_why') });
    this.reportEl = h('details', { class: 'chat-report', ontoggle: () => this.listPlayers() },
      h('summary', {}, t('chat.report_player')),
      h('form', { class: 'chat-form', onsubmit: (e) => { e.preventDefault(); this.reportPlayer(); } },
        this.reportWho, this.reportWhy, h('button', { class: 'btn small', type: 'submit' }, t('chat.report_send'))));
    this.body = h('div', { class: 'tab-body chat-body', dataset: { body: 'chat' }, hidden: true }, this.list, this.mutedEl, this.quick, this.form, this.reportEl);
    this.seen = 0;
  }

  /** Add the tab and its body to the side panel of the table view. */
  attach(side, tab) {
    side.querySelector('.tabs').append(tab('chat', t('chat.tab')));
    side.append(this.body);
  }

  send() {
    const text = this.input.value.trim();
    if (!text) return;
    if (this.say(text)) this.input.value = '';
  }

  /** Send one line; false when it could not go (nobody logged in). */
  say(text) {
    if (!this.view.app.account) {
      this.view.app.toast(t('chat.log_in'));
      return false;
    }
    if (this.view.app.socket.send({ type: 'chat', table: this.view.model.id, text })) return true;
    // Offline (the socket is reconnecting): the line leaves once the connection is back.
    this.pending = [...(this.pending ?? []), text].slice(-PENDING);
    this.view.app.toast(t('chat.offline'));
    return true;
  }

  /** Send the lines written while the socket was down (called on each welcome). */
  flush() {
    const lines = this.pending ?? [];
    this.pending = [];
    for (const text of lines) this.view.app.socket.send({ type: 'chat', table: this.view.model.id, text });
  }

  /** Draw the lines of the model's log from the start (after a mount or a mute). */
  render() {
    this.list.replaceChildren();
    this.seen = 0;
    this.update();
    this.renderMuted();
    this.reportEl.hidden = !this.view.app.account; // only an account reports
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
        if (text) this.list.append(h('li', { class: 'chat-line dealer' }, h('b', {}, t('chat.dealer')), ' ', text));
      }
    }
    while (this.list.childElementCount > SHOWN) this.list.firstElementChild.remove();
    this.seen = total;
    this.list.parentElement.scrollTop = this.list.parentElement.scrollHeight;
  }

  chatLine(e) {
    const mine = e.account_id === this.view.app.account?.id;
    const line = h('li', { class: `chat-line player${mine ? ' mine' : ''}`, dataset: { account: e.account_id } },
      h('b', { class: 'chat-name', translate: 'no' }, e.name), t('chat.said'), ' ');
    line.append(h('span', { class: 'chat-text', translate: 'no' }, e.text)); // text, never markup
    if (!mine && this.view.app.account) {
      const label = t('chat.mute_label', { name: e.name });
      line.append(' ', h('button', { class: 'link mute', title: label, 'aria-label': label, onclick: () => this.mute(e.account_id, e.name) }, t('chat.mute')));
      const report = t('chat.report_label', { name: e.name });
      line.append(' ', h('button', { class: 'link report', title: report, 'aria-label': report, onclick: () => this.report(e) }, t('chat.report')));
    }
    return line;
  }

  /** The people seated here but you, to report one. */
  listPlayers() {
    const me = this.view.app.account?.id;
    const seated = (this.view.model.state?.seats ?? []).filter((p) => p && !p.bot && p.id !== me);
    fill(this.reportWho, seated.map((p) => h('option', { value: p.id, translate: 'no' }, p.name)));
  }

  async reportPlayer() {
    if (!this.view.app.account || !this.reportWho.value) return;
    try {
      await request('POST', '/api/reports', { table: String(this.view.model.id), account_id: Number(this.reportWho.value), reason: this.reportWhy.value.trim() });
      this.reportWhy.value = '';
      this.reportEl.open = false;
      this.view.app.toast(t('chat.reported'));
    } catch (error) {
      this.view.app.toast(requestErrorText(error));
    }
  }

  /** Report a line to the room's moderators (POST /api/reports, docs/admin.md). */
  async report(e) {
    try {
      await request('POST', '/api/reports', { table: String(this.view.model.id), account_id: e.account_id, line: e.text });
      this.view.app.toast(t('chat.reported'));
    } catch (error) {
      this.view.app.toast(requestErrorText(error));
    }
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
    fill(this.mutedEl, t('chat.muted'), ' ', listParts(muted.map(([id, name]) => h('span', {}, h('span', { translate: 'no' }, name), ' ',
      h('button', { class: 'link unmute', 'aria-label': t('chat.unmute_label', { name }), onclick: () => this.unmute(Number(id)) }, t('chat.unmute'))))));
  }
}
