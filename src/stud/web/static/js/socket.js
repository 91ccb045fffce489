// One websocket to the room, kept open: reconnects with backoff and resumes every
// watched table from the last event number it saw (the server replays what was
// missed, or sends a full state when the gap is too old).

const PING_EVERY = 15000;
const SILENCE_LIMIT = 40000;

export class RoomSocket extends EventTarget {
  constructor(url = defaultUrl()) {
    super();
    this.url = url;
    this.ws = null;
    this.open = false;
    this.account = null;
    this.offset = 0; // server clock minus ours, in seconds
    this.watched = new Map(); // table id -> () => last event number seen (or 0)
    this.retries = 0;
    this.lastHeard = 0;
    this.timer = null;
    this.stopped = false;
    this.frames = 0;
    // The browser knows first when the network goes: a socket over a dead network may
    // not close for a long while (until the heartbeat's silence limit), so it is dropped
    // at once, and opened again as soon as the network is back.
    window.addEventListener('offline', () => this.drop());
    window.addEventListener('online', () => {
      if (this.open || this.stopped) return;
      this.retries = 0;
      this.connect();
    });
  }

  connect() {
    this.stopped = false;
    clearTimeout(this.timer);
    const pending = this.ws;
    this.ws = null;
    if (pending) pending.close(); // an attempt still opening gives way to this one
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.addEventListener('open', () => {
      if (ws !== this.ws) return;
      this.open = true;
      this.retries = 0;
      this.lastHeard = Date.now();
      this.emit('status', { open: true });
      this.heartbeat();
    });
    ws.addEventListener('message', (e) => {
      if (ws !== this.ws) return;
      this.lastHeard = Date.now();
      this.frames += 1;
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch {
        return;
      }
      // A frame holds one message, or an array of messages sent together (in order).
      if (Array.isArray(msg)) msg.forEach((m) => this.receive(m));
      else this.receive(msg);
    });
    ws.addEventListener('close', () => {
      if (ws !== this.ws) return;
      this.open = false;
      this.emit('status', { open: false });
      if (!this.stopped) this.scheduleReconnect();
    });
    ws.addEventListener('error', () => ws.close());
  }

  /** Close and open again (after logging in or out: the socket speaks for one account). */
  reconnect() {
    const old = this.ws;
    this.ws = null;
    this.open = false;
    if (old) old.close();
    this.connect();
  }

  /** The network is gone: the socket counts as closed now, and tries again with backoff. */
  drop() {
    const old = this.ws;
    if (!old) return;
    this.ws = null;
    this.open = false;
    old.close();
    this.emit('status', { open: false });
    if (!this.stopped) this.scheduleReconnect();
  }

  scheduleReconnect() {
    const delay = Math.min(5000, 300 * 2 ** this.retries) * (0.75 + Math.random() * 0.5);
    this.retries += 1;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  heartbeat() {
    const ws = this.ws;
    const beat = () => {
      if (ws !== this.ws || !this.open) return;
      if (Date.now() - this.lastHeard > SILENCE_LIMIT) {
        this.reconnect();
        return;
      }
      this.send({ type: 'ping' });
      setTimeout(beat, PING_EVERY);
    };
    setTimeout(beat, PING_EVERY);
  }

  receive(msg) {
    if (msg.type === 'welcome') {
      this.account = msg.account;
      this.setClock(msg.server_time);
      for (const [table, since] of this.watched) this.sendWatch(table, since());
      this.emit('welcome', msg);
    } else if (msg.type === 'pong') {
      this.setClock(msg.server_time);
    }
    this.emit('message', msg);
  }

  setClock(serverTime) {
    if (typeof serverTime === 'number') this.offset = serverTime - Date.now() / 1000;
  }

  /** The server's clock now, in seconds (turn deadlines are in its time). */
  now() {
    return Date.now() / 1000 + this.offset;
  }

  send(msg) {
    if (!this.open || !this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  /** Watch a table; `since()` gives the last event number seen, asked again on each reconnect. */
  watch(table, since = () => 0) {
    this.watched.set(table, since);
    if (this.open) this.sendWatch(table, since());
  }

  sendWatch(table, n) {
    const msg = { type: 'watch', table };
    if (n > 0) msg.since = n;
    this.send(msg);
  }

  unwatch(table) {
    if (this.watched.delete(table)) this.send({ type: 'unwatch', table });
  }

  emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }
}

function defaultUrl() {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/ws?batch=1`; // a turn's messages in one frame
}
