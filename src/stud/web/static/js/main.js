// The app: one websocket, the account, the tables watched, and a hash router
// between the lobby (#/lobby), a table (#/table/ID) and the replayer (#/replay/HAND).

import { AdminView } from './admin.js';
import { api } from './api.js';
import { renderAccount } from './account.js';
import { releaseRefused, setConnected } from './actions.js';
import { TurnAlerts } from './alerts.js';
import { Seeder } from './fairview.js';
import { startClocks } from './clock.js';
import { h } from './dom.js';
import { errorText, requestErrorText } from './errortext.js';
import { initI18n, onLanguageChange, t } from './i18n.js';
import { adoptAccountLanguage, mountLanguageMenu } from './langmenu.js';
import { LobbyView } from './lobby.js';
import { clearLogs, restoreLog, saveLog } from './logstore.js';
import { TableModel } from './model.js';
import { MyHandsView } from './myhands.js';
import { takePreAction } from './preactions.js';
import { bindPrefs } from './prefs.js';
import { ReplayerView } from './replayer.js';
import { RulesView } from './rules.js';
import { loadShowdownChoice, syncTable } from './showdown.js';
import { RoomSocket } from './socket.js';
import { unlockAudioOnGesture } from './sound.js';
import { TableView } from './tableview.js';
import { TilesView, tileIds } from './tiles.js';
import { wordTopBar } from './topbar.js';
// Tournaments (issue 16): the lobby's tab, a tournament's page, the level clock, the seat that follows.
import { startLevelClocks } from './levelclock.js';
import { TourneyLobbyView } from './tourneylobby.js';
import { Tourneys } from './tourneys.js';
import { TourneyView } from './tourneyview.js';
import { parseTableId } from './tourneywords.js';

// A seed that reached the table after its deal is simply not used: nothing to tell the player.
const SEED_LATE = new Set(['seeds_closed', 'stale_seed']);

class App {
  constructor() {
    this.account = null;
    this.socket = new RoomSocket();
    this.seeder = new Seeder(this.socket);
    this.tourneys = new Tourneys(this);
    this.models = new Map();
    this.view = null;
    this.viewEl = document.getElementById('view');
    this.accountEl = document.getElementById('account');
    this.statusEl = document.getElementById('status');
    this.online = true;
    this.recordsDown = new Set(); // tables waiting for the room's records (the database)
    this.toastsEl = document.getElementById('toasts');
    this.alerts = new TurnAlerts({
      inView: (id) => Boolean(this.view?.shows?.(id)),
      now: () => this.socket.now(),
      pageTitle: () => this.view?.title?.() ?? null,
    });
  }

  async start() {
    await initI18n();
    wordTopBar();
    bindPrefs();
    unlockAudioOnGesture();
    startClocks(() => this.socket.now());
    startLevelClocks(() => this.socket.now());
    this.socket.addEventListener('message', (e) => this.onMessage(e.detail));
    this.socket.addEventListener('status', (e) => this.onStatus(e.detail.open));
    try {
      this.account = await api.me();
    } catch {
      this.account = null;
    }
    await adoptAccountLanguage(this);
    mountLanguageMenu(this);
    onLanguageChange(() => {
      wordTopBar();
      renderAccount(this.accountEl, this);
      if (!this.statusEl.hidden) this.onStatus(this.online);
      this.route();
    });
    renderAccount(this.accountEl, this);
    loadShowdownChoice(this);
    this.socket.connect();
    window.addEventListener('hashchange', () => this.route());
    await this.watchMySeats();
    this.route();
    window.studApp = this; // for the browser tests and the curious
  }

  onMessage(msg) {
    if (this.tourneys.onMessage(msg)) return;
    if (msg.type === 'event' || msg.type === 'state') {
      this.models.get(msg.table)?.handle(msg);
      if (msg.type === 'state') this.seeder.onState(msg); // our seed for the next hand's deck
      if (msg.type === 'state') syncTable(this, this.models.get(msg.table)); // muck or show
      if (msg.type === 'event' && msg.event.type === 'seated') this.refreshAccountSoon();
      if (msg.type === 'event' && msg.event.type === 'left') this.refreshAccountSoon();
      // The top bar counts chips at tables: a hand you played changes them.
      if (msg.type === 'event' && msg.event.type === 'hand_finished' && this.models.get(msg.table)?.seated) this.refreshAccountSoon();
    } else if (msg.type === 'records') {
      if (msg.reconnecting) this.recordsDown.add(msg.table);
      else this.recordsDown.delete(msg.table);
      this.onStatus(this.online);
    } else if (msg.type === 'error') {
      releaseRefused(msg.table ?? null);
      if (msg.code !== 'rate_limited' && !SEED_LATE.has(msg.code)) this.toast(errorText(msg.code, msg.params ?? {}));
    } else if (msg.type === 'ok' && ['sit', 'leave', 'top_up'].includes(msg.for)) {
      this.refreshAccountSoon();
    } else if (msg.type === 'ok' && msg.for === 'wait') {
      this.toast(t('app.waiting_place', { place: msg.place }));
    } else if (msg.type === 'welcome' && msg.account && this.account && msg.account.id !== this.account.id) {
      this.refreshAccount();
    }
  }

  onStatus(open) {
    if (!open && this.online) this.recordsDown.clear(); // each table says so again on watch
    this.online = open;
    document.body.classList.toggle('offline', !open);
    setConnected(open); // no action while it cannot reach the server
    if (open && this.recordsDown.size) {
      // The server is there but its records are not: play pauses, then resumes by itself.
      this.statusEl.hidden = false;
      this.statusEl.textContent = t('app.records_reconnecting');
    } else if (open) {
      this.statusEl.hidden = true;
    } else {
      this.statusEl.hidden = false;
      this.statusEl.textContent = t('app.connection_lost');
    }
  }

  setAccount(account) {
    if (account?.id !== this.account?.id) clearLogs();
    this.account = account;
    adoptAccountLanguage(this); // its language, if it has one: the page is drawn again in it
    loadShowdownChoice(this);
    renderAccount(this.accountEl, this);
    this.socket.reconnect(); // the socket speaks for the account its cookie names
    this.route();
    this.watchMySeats();
  }

  async guest() {
    try {
      this.setAccount(await api.guest());
    } catch (error) {
      this.toast(requestErrorText(error));
    }
  }

  /**
   * Ask the server who we are again. Only its answer that no one is logged in (401) logs the
   * bar out: a request that failed on the way (no network, a server restarting) says
   * nothing about the session, so the bar keeps the account it shows.
   */
  async refreshAccount() {
    try {
      this.account = await api.me();
    } catch (error) {
      if (error?.status !== 401) return;
      this.account = null;
    }
    renderAccount(this.accountEl, this);
  }

  refreshAccountSoon() {
    clearTimeout(this.accountTimer);
    this.accountTimer = setTimeout(() => this.refreshAccount(), 300);
  }

  /** After a reload: watch every table the account sits at, so its turns alert from anywhere. */
  async watchMySeats() {
    const me = this.account;
    if (!me) return;
    try {
      const tables = await api.tables();
      for (const t of tables) {
        if ((t.players ?? []).some((p) => !p.bot && p.name === me.name)) this.model(t.id).expectSeat = true;
      }
    } catch {
      // the lobby is unreachable: the tables are watched when opened
    }
  }

  seatedTables() {
    return [...this.models.values()].filter((m) => m.seated);
  }

  model(id) {
    let model = this.models.get(id);
    if (!model) {
      model = new TableModel(id);
      restoreLog(model, this.account); // the log of the hands already seen, after a reload
      model.addEventListener('event', (e) => {
        if (e.detail.event.type === 'hand_finished') saveLog(model, this.account);
      });
      this.models.set(id, model);
      // First listener of every state: a ticked pre-action box is taken before anything is drawn.
      model.addEventListener('change', () => takePreAction(model,
        (action, to, turn) => this.socket.send({ type: 'act', table: id, action, to, turn })));
      this.alerts.follow(model);
      this.socket.watch(id, () => model.since());
    }
    return model;
  }

  /** Stop watching tables we are not seated at and not looking at. */
  release(keep) {
    const kept = new Set([keep].flat());
    for (const [id, model] of this.models) {
      const awaited = model.expectSeat && !model.state; // seated, says the lobby; no state yet
      const waiting = (model.state?.waiting ?? []).some((w) => w.id === this.account?.id);
      if (!kept.has(id) && !model.seated && !awaited && !waiting) {
        this.socket.unwatch(id);
        this.models.delete(id);
      }
    }
  }

  route() {
    const [path, query = ''] = (location.hash || '#/lobby').slice(1).split('?');
    const params = new URLSearchParams(query);
    const parts = path.split('/').filter(Boolean);
    this.view?.unmount();
    let tableId = null;
    if (parts[0] === 'table' && parseTableId(parts[1]) !== null) {
      tableId = parseTableId(parts[1]); // a cash table's number, or a tournament's table "t7.2"
      this.view = new TableView(this, this.model(tableId), { autoSit: params.has('sit') });
      document.body.dataset.view = 'table';
    } else if (parts[0] === 'tables') {
      tableId = tileIds(parts[1], this);
      this.view = new TilesView(this, tableId);
      document.body.dataset.view = 'tiles';
    } else if (parts[0] === 'hands') {
      this.view = new MyHandsView(this);
      document.body.dataset.view = 'hands';
    } else if (parts[0] === 'replay' && Number(parts[1])) {
      this.view = new ReplayerView(this, Number(parts[1]));
      document.body.dataset.view = 'replay';
    } else if (parts[0] === 'imported' && Number(parts[1])) {
      this.view = new ReplayerView(this, Number(parts[1]), { imported: true });
      document.body.dataset.view = 'replay';
    } else if (parts[0] === 'tournaments') {
      this.view = new TourneyLobbyView(this, { game: params.get('game') ?? '' });
      document.body.dataset.view = 'tournaments';
    } else if (parts[0] === 'tournament' && Number(parts[1])) {
      this.view = new TourneyView(this, Number(parts[1]));
      document.body.dataset.view = 'tournament';
    } else if (parts[0] === 'admin') {
      this.view = new AdminView(this); // the operator's desk: moderators and admins (admin.js)
      document.body.dataset.view = 'admin';
    } else if (parts[0] === 'rules') {
      this.view = new RulesView(this, parts[1]);
      document.body.dataset.view = 'rules';
    } else {
      this.view = new LobbyView(this, { game: params.get('game') ?? '' });
      document.body.dataset.view = 'lobby';
    }
    this.release(tableId);
    this.view.mount(this.viewEl);
    this.alerts.routed([...this.models.values()]);
    if (params.has('sit')) history.replaceState(null, '', `#/${parts.join('/')}`);
  }

  toast(text) {
    const el = h('div', { class: 'toast', role: 'alert' }, text);
    this.toastsEl.append(el);
    setTimeout(() => el.classList.add('gone'), 3500);
    setTimeout(() => el.remove(), 4000);
  }
}

new App().start();
