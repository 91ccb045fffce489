// Your turn somewhere you are not looking: at another table, in the lobby, the
// replayer, or with the page in the background. Four ways at once:
//   - a banner under the top bar with a link to the table (and its clock);
//   - the tab title ("▶ Your turn · Ada — Stud card room") until the turn is over (else the
//     page's own title, "Lobby — Stud card room", in the page's language);
//   - the turn sound, when the sound is on;
//   - a browser notification (Notification API) when the player allowed them.
// The alert goes when the turn is over (acted, timed out) or the table comes into view.

import { h, fill } from './dom.js';
import { t } from './i18n.js';
import { prefs } from './prefs.js';
import { seconds } from './format.js';
import { turnBeep } from './sound.js';
import { tParts } from './tparts.js';
import { parseTableId, tableTitle } from './tourneywords.js';

export class TurnAlerts {
  /**
   * `inView(id)`: whether table `id` is on the screen now; `now()`: the server's clock;
   * `pageTitle()`: the name of the page shown (null: the room's name alone).
   */
  constructor({ inView, now, pageTitle = () => null }) {
    this.inView = inView;
    this.now = now;
    this.pending = new Map(); // table id -> {model, turn, notification}
    this.pageTitle = pageTitle;
    this.el = h('div', { class: 'turn-alerts', 'aria-live': 'assertive' });
    document.querySelector('.topbar')?.after(this.el);
    this.notified = 0; // for the tests: notifications shown
    setInterval(() => this.tick(), 500);
    document.addEventListener('visibilitychange', () => this.routed([...this.pending.values()].map((e) => e.model)));
  }

  /** Follow `model`: its turn events raise an alert, its states clear it. */
  follow(model) {
    model.addEventListener('change', () => this.check(model));
  }

  visible(id) {
    return this.inView(id) && document.visibilityState !== 'hidden';
  }

  raise(model) {
    const turn = model.state.turn.turn;
    const name = tableTitle(model.state) ?? t('lobby.table_n', { id: String(model.id) }); // tournament tables too
    const entry = { model, turn, name, notification: null };
    this.pending.get(model.id)?.notification?.close?.();
    this.pending.set(model.id, entry);
    if (model.alerted !== turn) {
      // Once per turn: coming back to the lobby during the same turn shows the banner again, quietly.
      model.alerted = turn;
      turnBeep();
      entry.notification = this.notify(model.id, name);
    }
    this.refresh();
  }

  notify(id, name) {
    if (!('Notification' in window) || Notification.permission !== 'granted' || !prefs.notify) return null;
    try {
      const n = new Notification(t('alerts.notify_title', { table: name }), {
        body: t('alerts.notify_body'), tag: `stud-turn-${id}`, renotify: true, lang: document.documentElement.lang,
      });
      n.onclick = () => {
        window.focus();
        location.hash = `#/table/${id}`;
        n.close();
      };
      this.notified += 1;
      document.body.dataset.notified = String(this.notified);
      return n;
    } catch {
      return null; // some browsers allow notifications only from a service worker
    }
  }

  /** Raise the alert of `model` when it is our turn out of sight; clear it when over or in view. */
  check(model) {
    const entry = this.pending.get(model.id);
    const state = model.state;
    const mine = Boolean(state?.turn && state.turn.seat === state.you && state.legal?.length);
    const visible = this.visible(model.id);
    if (mine && !visible && model.preTaken !== state.turn.turn) {
      if (entry?.turn !== state.turn.turn) this.raise(model);
    } else if (entry) {
      this.clear(model.id);
    }
  }

  clear(id) {
    const entry = this.pending.get(id);
    if (!entry) return;
    entry.notification?.close?.();
    this.pending.delete(id);
    this.refresh();
  }

  /** After a route change: drop the alerts of the tables now in view. */
  routed(models) {
    for (const model of models) this.check(model);
    this.refresh();
  }

  refresh() {
    const entries = [...this.pending.values()];
    fill(this.el, entries.map((e) => h('div', { class: 'turn-alert', role: 'alert', dataset: { table: e.model.id } },
      h('span', { class: 'turn-alert-icon', 'aria-hidden': 'true' }, '▶'),
      ' ', tParts((marks) => t('alerts.banner', marks), { table: h('a', { href: `#/table/${e.model.id}`, class: 'turn-alert-link', translate: 'no' }, e.name) }),
      h('span', { class: 'turn-alert-clock' }, ''))));
    document.body.classList.toggle('has-turn-alert', entries.length > 0);
    const first = entries[0];
    const room = t('app.title');
    const page = this.pageTitle();
    document.title = first
      ? `▶ ${t('alerts.tab_title', { n: entries.length, table: first.name })} — ${room}`
      : page ? `${page} — ${room}` : room;
    this.tick();
  }

  tick() {
    for (const el of this.el.querySelectorAll('.turn-alert')) {
      const entry = this.pending.get(parseTableId(el.dataset.table)); // a number, or a tournament's "t7.2"
      const turn = entry?.model.state?.turn;
      const clock = el.querySelector('.turn-alert-clock');
      if (!turn || !clock) continue;
      const left = (turn.deadline ?? turn.clock_ends) - this.now();
      clock.textContent = left > 0 ? ` · ${t('alerts.left', { time: seconds(left) })}` : '';
    }
  }
}
