// The replayer: a finished hand stepped through event by event or street by
// street, drawn on the same felt as the live table, beside its log, with each
// player's share of the pot street by street under it (equitychart.js). An imported
// PokerStars hand (#/imported/ID) replays the same way, from the account's own copy.

import { typing } from './actions.js';
import { api } from './api.js';
import { h, fill } from './dom.js';
import { equityChart } from './equitychart.js';
import { renderFelt } from './felt.js';
import { renderFairness } from './fairview.js';
import { describe, logLine } from './handlog.js';
import { t, tOf } from './i18n.js';
import { handLinks } from './history.js';
import { requestErrorText } from './errortext.js';
import { QUIET, reduce } from './reduce.js';
import { gameName, seatName, stakesText } from './tablewords.js';

const MERGE = new Set(['dealt', 'ante', 'street', 'double_bet_allowed']);

/**
 * Load a hand's public events: the server's replay data, else this browser's own
 * recording. Null when neither has it; `{missing: true}` when the server says no
 * such hand exists (404) and this browser has no recording of it either.
 */
export async function loadReplay(id, imported = false) {
  try {
    return await (imported ? api.importedReplay(id) : api.replay(id));
  } catch (error) {
    if (imported) return error?.status === 404 ? { missing: true } : null;
    const saved = sessionStorage.getItem(`stud.replay.${id}`);
    if (saved) return JSON.parse(saved);
    return error?.status === 404 ? { missing: true } : null;
  }
}

/** The steps of a hand: [{hand, events, street}] after each change a person can see. */
export function buildSteps(events) {
  const steps = [];
  let hand = null;
  let batch = [];
  let street = 3;
  const flush = () => {
    const last = steps[steps.length - 1];
    if (hand && batch.length && last && batch.every((e) => QUIET.has(e.type) || e.type === 'pots')) {
      // Nothing to see (the hand's end, a clock): part of the step before, not a step of its own.
      last.hand = hand;
      last.events = [...last.events, ...batch];
    } else if (hand && batch.length) {
      steps.push({ hand, events: batch, street });
    }
    batch = [];
  };
  for (const e of events) {
    const mergeable = MERGE.has(e.type);
    if (!mergeable && batch.length && batch.every((b) => MERGE.has(b.type))) flush();
    hand = reduce(hand, e);
    if (e.type === 'street') street = e.street;
    if (e.type === 'hand_started' || e.type === 'new_hand') continue;
    batch.push(e);
    if (!mergeable && !QUIET.has(e.type) && e.type !== 'pots') flush();
  }
  flush();
  return steps;
}

export class ReplayerView {
  constructor(app, id, { imported = false } = {}) {
    this.app = app;
    this.id = id;
    this.imported = imported;
    this.index = 0;
    this.root = h('section', { class: 'replayer', dataset: { hand: id } }, h('p', { class: 'muted' }, t('replay.loading')));
    this.onKey = (e) => this.key(e);
  }

  /** The tab's title while the replayer is shown: "Hand #311". */
  title() {
    if (this.imported) return t('replay.imported', { id: String(this.data?.site_hand_id ?? this.id) });
    return t('table.log.hand', { id: String(this.id) });
  }

  mount(container) {
    fill(container, this.root);
    document.addEventListener('keydown', this.onKey);
    this.load();
  }

  unmount() {
    document.removeEventListener('keydown', this.onKey);
    clearInterval(this.playing);
  }

  async load() {
    const data = await loadReplay(this.id, this.imported);
    if (data?.missing) {
      fill(this.root, h('div', { class: 'replay-missing' },
        h('h1', {}, t('replay.missing', { id: String(this.id) })),
        h('p', { class: 'muted' }, t('replay.missing_text')),
        h('p', {}, h('a', { class: 'btn', href: '#/lobby' }, t('table.back_to_lobby')))));
      this.root.dataset.missing = '1';
      return;
    }
    if (!data || !Array.isArray(data.events) || !data.events.length) {
      fill(this.root, h('h1', {}, t('replay.title', { id: String(this.id) })),
        h('p', {}, t('replay.unavailable')),
        this.imported ? null : handLinks(this.id), h('p', {}, h('a', { href: '#/lobby' }, t('table.back_to_lobby'))));
      return;
    }
    this.data = data;
    this.steps = buildSteps(data.events);
    const started = data.events.find((e) => e.type === 'hand_started' && e.stacks) ?? {};
    this.settings = {
      name: data.table_name ?? t('replay.table_name', { id: String(data.table_id ?? '') }),
      game: data.game ?? started.game,
      ante: data.ante ?? started.ante, bring_in: data.bring_in ?? started.bring_in,
      small_bet: data.small_bet ?? started.small_bet, big_bet: data.big_bet ?? started.big_bet,
      seats: data.table_seats ?? data.seats ?? Math.max(2, ...Object.keys(started.stacks ?? {}).map((s) => Number(s) + 1)),
    };
    this.names = new Map((data.players ?? []).map((p) => [p.seat, p.name]));
    this.build();
    this.go(0);
    if (!data.source) this.loadEquity();
  }

  /** The equity chart under the felt: asked for once the hand is drawn. */
  async loadEquity() {
    fill(this.chartEl, h('p', { class: 'muted' }, t('equity.loading')));
    let data;
    try {
      data = await (this.imported ? api.importedEquity(this.id) : api.equity(this.id));
    } catch (error) {
      fill(this.chartEl, h('p', { class: 'muted' }, t('equity.failed', { why: requestErrorText(error) })));
      return;
    }
    if (!data.streets?.length) {
      fill(this.chartEl, h('p', { class: 'muted' }, t('equity.none')));
      return;
    }
    const players = (this.data.players ?? []).map((p) => ({ seat: p.seat, name: this.name(p.seat) }));
    this.chart = equityChart(data, players, this.data.you ?? null);
    fill(this.chartEl, this.chart.root);
    this.chart.mark(this.steps[this.index]?.street);
  }

  build() {
    const s = this.settings;
    // A button's name is its words ("Next step"); the arrows beside them are drawn, not read.
    const button = (step, [before, words, after], title, keys) => h('button', {
      class: 'btn', dataset: { step }, title, 'aria-keyshortcuts': keys, onclick: () => this.control(step),
    }, before ? h('span', { 'aria-hidden': 'true' }, before, ' ') : null, h('span', { class: 'words' }, words),
    after ? h('span', { 'aria-hidden': 'true' }, ' ', after) : null);
    this.felt = h('div', { class: 'felt', role: 'group', 'aria-label': t('table.felt_label') });
    this.caption = h('div', { class: 'replay-caption', 'aria-live': 'polite' });
    this.logEl = h('ol', { class: 'log', 'aria-label': t('table.log.label') });
    this.fairEl = h('div', { class: 'fair-panel' });
    this.chartEl = h('div', { class: 'equity-panel' });
    this.playBtn = button('play', ['▶', t('replay.play'), ''], t('replay.play_title'), 'Space');
    fill(this.root,
      h('div', { class: 'table-head' },
        h('div', { class: 'table-name' },
          h('h1', {}, this.imported ? t('replay.imported', { id: String(this.data.site_hand_id ?? this.id) }) : t('table.log.hand', { id: String(this.data.id ?? this.id) })),
          h('span', { class: 'game-badge', dataset: { game: s.game } }, gameName(s.game)),
          h('span', { class: 'muted' }, stakesText(s)),
          this.data.source ? h('span', { class: 'muted' }, ' · ', t('replay.recorded_here')) : null),
        h('div', { class: 'table-buttons' }, this.imported ? h('a', { class: 'btn ghost', href: '#/hands' }, t('account.my_hands')) : handLinks(this.id),
          this.data.table_id ? h('a', { class: 'btn ghost', href: `#/table/${this.data.table_id}` }, t('replay.table')) : null,
          h('a', { class: 'btn ghost', href: '#/lobby' }, t('table.back_to_lobby')))),
      h('div', { class: 'table-main' },
        h('div', { class: 'felt-column' },
          h('div', { class: 'felt-wrap' }, this.felt),
          h('div', { class: 'replay-controls', role: 'group', 'aria-label': t('replay.controls') },
            button('first', ['|◀', t('replay.start'), ''], t('replay.start_title'), 'Home'),
            button('prev-street', ['◀◀', t('replay.prev_street'), ''], t('replay.prev_street_title'), 'ArrowUp'),
            button('prev', ['◀', t('replay.prev'), ''], t('replay.prev_title'), 'ArrowLeft'), this.playBtn,
            button('next', ['', t('replay.next'), '▶'], t('replay.next_title'), 'ArrowRight'),
            button('next-street', ['', t('replay.next_street'), '▶▶'], t('replay.next_street_title'), 'ArrowDown'),
            button('last', ['', t('replay.end'), '▶|'], t('replay.end_title'), 'End')),
          this.caption, this.chartEl, this.fairEl),
        h('aside', { class: 'side', 'aria-label': t('table.log.label') }, h('div', { class: 'tabs' }, h('h2', { class: 'tab on' }, t('table.tab.log'))),
          h('div', { class: 'tab-body log-body', tabindex: '0' }, this.logEl))));
    renderFairness(this.fairEl, { shuffle: this.data.shuffle, events: this.data.events, players: this.data.players, id: this.id });
    const ctx = { bigBet: s.big_bet, pots: 1 };
    this.steps.forEach((step, i) => {
      for (const e of step.events) {
        if (e.type === 'street') ctx.street = e.street;
        if (e.type === 'pots') ctx.pots = e.pots.length;
        const entry = describe(e, (seat) => this.name(seat), this.data.you ?? null, ctx);
        if (!entry) continue;
        const line = logLine(entry);
        line.dataset.step = String(i);
        line.addEventListener('click', () => this.go(i));
        this.logEl.append(line);
      }
    });
  }

  name(seat) {
    return this.names.get(seat) ?? seatName(seat);
  }

  /** Step indexes where a street begins, and where the showdown begins. */
  marks() {
    const out = [0];
    this.steps.forEach((step, i) => {
      if (step.events.some((e) => e.type === 'street') && i) out.push(i);
      else if (step.events.some((e) => ['show', 'muck', 'award'].includes(e.type)) && !this.steps[i - 1]?.events.some((e) => ['show', 'muck', 'award'].includes(e.type))) out.push(i);
    });
    return [...new Set(out)].sort((a, b) => a - b);
  }

  control(kind) {
    if (!this.steps?.length) return;
    const last = this.steps.length - 1;
    const marks = this.marks();
    switch (kind) {
      case 'first': this.go(0); break;
      case 'last': this.go(last); break;
      case 'prev': this.go(this.index - 1); break;
      case 'next': this.go(this.index + 1); break;
      case 'prev-street': this.go([...marks].reverse().find((m) => m < this.index) ?? 0); break;
      case 'next-street': this.go(marks.find((m) => m > this.index) ?? last); break;
      case 'play': this.togglePlay(); break;
      default: break;
    }
  }

  togglePlay() {
    if (this.playing) {
      clearInterval(this.playing);
      this.playing = null;
      fill(this.playBtn, h('span', { 'aria-hidden': 'true' }, '▶ '), h('span', { class: 'words' }, t('replay.play')));
      return;
    }
    if (this.index >= this.steps.length - 1) this.go(0);
    fill(this.playBtn, h('span', { 'aria-hidden': 'true' }, '|| '), h('span', { class: 'words' }, t('replay.pause')));
    this.playing = setInterval(() => {
      if (this.index >= this.steps.length - 1) this.togglePlay();
      else this.go(this.index + 1);
    }, 900);
  }

  go(i) {
    this.index = Math.max(0, Math.min(this.steps.length - 1, i));
    const step = this.steps[this.index];
    const hand = step.hand;
    const seats = Array(this.settings.seats).fill(null);
    for (const s of hand.seats) seats[s.seat] = { seat: s.seat, name: this.name(s.seat), stack: s.stack };
    const result = hand.result;
    const showing = result.awards.length || Object.keys(result.shows).length;
    renderFelt(this.felt, {
      settings: this.settings, seats, hand, you: this.data.you ?? null, button: null, turn: null,
      result: showing ? result : null, names: (seat) => this.name(seat), live: false, handKey: this.id,
    });
    const said = step.events.map((e) => describe(e, (seat) => this.name(seat), this.data.you ?? null, { bigBet: this.settings.big_bet }));
    const entry = said.filter(Boolean).pop() ?? null;
    // The step's last line as the log draws it (names untranslated, cards named).
    fill(this.caption, h('b', { class: 'replay-street' }, tOf('street', step.street)), ' · ',
      t('replay.step', { n: this.index + 1, total: this.steps.length }), entry ? [' · ', ...entry.parts] : null);
    this.chart?.mark(step.street);
    this.root.dataset.step = String(this.index);
    this.root.dataset.street = String(step.street);
    for (const line of this.logEl.children) {
      const n = Number(line.dataset.step);
      line.classList.toggle('current', n === this.index);
      line.classList.toggle('future', n > this.index);
    }
    this.logEl.querySelector('.current')?.scrollIntoView({ block: 'nearest' });
  }

  key(e) {
    if (typing(e.target) || e.ctrlKey || e.metaKey || e.altKey) return;
    // Space and Enter on a focused button or link press it, as everywhere else.
    if ((e.key === ' ' || e.key === 'Enter') && e.target?.closest?.('button, a, summary')) return;
    const map = { ArrowLeft: 'prev', ArrowRight: 'next', ArrowUp: 'prev-street', ArrowDown: 'next-street', Home: 'first', End: 'last', ' ': 'play' };
    const kind = map[e.key];
    if (kind) {
      e.preventDefault();
      this.control(kind);
    }
  }
}
