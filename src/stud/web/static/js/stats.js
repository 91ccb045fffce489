// A player's stats on hover or tap of their seat (issue 38): the server sums them from the
// stored hands (GET /api/players/{id}/stats): of another player only the hands you were
// dealt into together, of yourself all of yours. The card shows your note on them too,
// with the button that edits it.

import { api } from './api.js';
import { h, fill } from './dom.js';
import { requestErrorText } from './errortext.js';
import { t } from './i18n.js';
import { editNote, noteMark, noteOf } from './notes.js';

const FRESH_MS = 20_000; // a player's stats are asked for again after this long
/** The rates a card shows, in order, each with its name in the page's language. */
function rates() {
  return [
    ['vpip', t('stats.rate.vpip')], ['raised', t('stats.rate.raised')], ['steal', t('stats.rate.steal')],
    ['fold_to_4th_bet', t('stats.rate.fold_to_4th_bet')], ['went_to_showdown', t('stats.rate.went_to_showdown')],
    ['won_at_showdown', t('stats.rate.won_at_showdown')],
  ];
}
const cache = new Map(); // account id -> {at, data}
let pop = null; // the card on the page, and the plate it belongs to
let anchor = null;

function percent(rate) {
  return rate === null || rate === undefined ? '—' : `${Math.round(rate * 100)}%`;
}

async function statsOf(accountId) {
  const hit = cache.get(accountId);
  if (hit && Date.now() - hit.at < FRESH_MS) return hit.data;
  const data = await api.stats(accountId);
  cache.set(accountId, { at: Date.now(), data });
  return data;
}

/** The card's content for player `player` (`you`: the viewer's account id). */
function statsBody(data, player, you, redraw) {
  const own = player.id === you;
  const rows = rates().map(([name, label]) => h('tr', { dataset: { rate: name } },
    h('th', { scope: 'row' }, label), h('td', { class: 'num' }, percent(data.rates[name]))));
  const note = own ? null : noteOf(player.id);
  return [
    h('h3', { translate: 'no' }, player.name),
    h('p', { class: 'muted stats-hands' }, own ? t('stats.own_hands', { n: data.hands }) : t('stats.hands_together', { n: data.hands })),
    h('table', { class: 'stats-table' }, h('tbody', {}, rows)),
    note ? h('p', { class: 'stats-note' }, noteMark(player.id), h('span', { class: 'stats-note-full' }, note.text)) : null,
    own ? null : h('button', {
      type: 'button', class: 'btn ghost small', dataset: { do: 'edit-note' },
      onclick: () => { hideStats(); editNote(player.id, player.name, redraw); },
    }, note ? t('notes.edit') : t('notes.add')),
  ];
}

/** Show player `player`'s card beside `plate`. */
export async function showStats(plate, player, you, redraw) {
  hideStats();
  anchor = plate;
  pop = h('div', { class: 'stats-pop', role: 'dialog', 'aria-label': t('stats.label', { name: player.name }), dataset: { account: player.id } },
    h('p', { class: 'muted' }, t('stats.loading')));
  pop.addEventListener('mouseleave', (e) => { if (!plate.contains(e.relatedTarget)) hideStats(); });
  document.body.append(pop);
  place(pop, plate);
  const mine = pop;
  try {
    const data = await statsOf(player.id);
    if (pop === mine) fill(pop, statsBody(data, player, you, redraw));
  } catch (error) {
    if (pop === mine) fill(pop, h('p', { class: 'form-error' }, t('stats.failed', { why: requestErrorText(error) })));
  }
  if (pop === mine) place(pop, plate);
}

function place(card, plate) {
  const r = plate.getBoundingClientRect();
  const width = card.offsetWidth || 220;
  const left = Math.max(4, Math.min(window.innerWidth - width - 4, r.left + r.width / 2 - width / 2));
  const below = r.bottom + card.offsetHeight + 8 < window.innerHeight;
  card.style.left = `${left + window.scrollX}px`;
  card.style.top = `${(below ? r.bottom + 6 : Math.max(4, r.top - card.offsetHeight - 6)) + window.scrollY}px`;
}

export function hideStats() {
  pop?.remove();
  pop = null;
  anchor = null;
}

// A card placed beside a seat no longer sits there once the window changes size (a phone
// turned, a window narrowed): it closes rather than reach past the screen.
window.addEventListener('resize', hideStats);

/**
 * A seat's extras for a logged-in viewer (`you`: its account id): the mark of its note on
 * the plate, and the player's card on hover of the plate or a tap on it.
 */
export function decorateSeat(plate, player, you, redraw) {
  if (!player || player.id === undefined || you === null || you === undefined) return;
  const mark = player.id === you ? null : noteMark(player.id);
  if (mark) plate.append(mark);
  plate.classList.add('has-stats');
  plate.addEventListener('mouseenter', () => { if (anchor !== plate) showStats(plate, player, you, redraw); });
  plate.addEventListener('mouseleave', (e) => { if (!pop?.contains(e.relatedTarget)) hideStats(); });
  plate.addEventListener('click', (e) => {
    e.stopPropagation(); // a tap on the plate shows the card, not the board's words
    if (pop && anchor === plate) hideStats();
    else showStats(plate, player, you, redraw);
  });
}

document.addEventListener('keydown', (e) => { if (e.key === 'Escape') hideStats(); });

const SVG = 'http://www.w3.org/2000/svg';

function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) if (c) el.append(c);
  return el;
}

/**
 * A chart of `sessions` (newest first, as the server lists them): a bar per session for
 * what it won or lost, oldest on the left, and the running total as a line. SVG by hand.
 */
export function sessionsChart(sessions, signed) {
  const list = [...sessions].reverse();
  const width = 320;
  const height = 120;
  const pad = 6;
  let total = 0;
  const totals = list.map((s) => { total += s.net; return total; });
  const values = [0, ...list.map((s) => s.net), ...totals];
  const top = Math.max(...values);
  const bottom = Math.min(...values);
  const span = top - bottom || 1;
  const y = (v) => pad + ((top - v) / span) * (height - 2 * pad);
  const step = (width - 2 * pad) / Math.max(list.length, 1);
  const bars = list.map((s, i) => svg('rect', {
    class: s.net >= 0 ? 'bar won' : 'bar lost',
    x: (pad + i * step + step * 0.15).toFixed(1), width: Math.max(1, step * 0.7).toFixed(1),
    y: y(Math.max(s.net, 0)).toFixed(1), height: Math.max(1, Math.abs(y(s.net) - y(0))).toFixed(1),
  }, svg('title', {}, document.createTextNode(t('stats.session_bar', { n: s.hands, amount: signed(s.net) })))));
  const points = totals.map((v, i) => `${(pad + (i + 0.5) * step).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  return svg('svg', { class: 'sessions-chart', viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': t('stats.chart_label', { n: list.length, amount: signed(total) }) },
    svg('line', { class: 'zero', x1: pad, x2: width - pad, y1: y(0).toFixed(1), y2: y(0).toFixed(1) }),
    ...bars,
    list.length > 1 ? svg('polyline', { class: 'running', points }) : null);
}

/** What an imported hand's `net` counts, in words: a currency's code, tournament chips, play money. */
function unitName(unit) {
  if (unit === 'tourney') return t('stats.unit.tourney');
  if (unit === 'play') return t('stats.unit.play');
  return unit;
}

/** An imported game's result in its money: a currency's cents as such, chips as they are. */
function unitAmount(g, signed) {
  if (g.unit === 'tourney' || g.unit === 'play') return signed(g.net);
  const sign = g.net > 0 ? '+' : g.net < 0 ? '−' : '';
  return `${sign}${(Math.abs(g.net) / 100).toFixed(2)}`;
}

/**
 * The viewer's own results under My hands: the room's hands by game, and by session with
 * the chart; then the imported hands by game, each in its own money (never added to the
 * room's chips).
 */
export function resultsSection(results, { chips, gameShort, signed }) {
  const room = (list) => list.filter((x) => (x.unit ?? 'chips') === 'chips');
  const sessions = room(results.by_session);
  const imported = results.by_game.filter((g) => (g.unit ?? 'chips') !== 'chips');
  const games = room(results.by_game);
  return h('section', { class: 'my-results', 'aria-labelledby': 'my-results-title' },
    h('h2', { id: 'my-results-title' }, t('stats.results_title')),
    sessions.length ? sessionsChart(sessions, signed) : null,
    games.length ? h('table', { class: 'tables results-by-game' },
      h('caption', {}, t('stats.by_game')),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('lobby.col.game')), h('th', { scope: 'col', class: 'num' }, t('stats.col.hands')), h('th', { scope: 'col', class: 'num' }, t('myhands.col.net')))),
      h('tbody', {}, games.map((g) => h('tr', { dataset: { game: g.game } },
        h('td', {}, gameShort(g.game)), h('td', { class: 'num' }, chips(g.hands)),
        h('td', { class: `num ${g.net > 0 ? 'won' : g.net < 0 ? 'lost' : ''}` }, signed(g.net)))))) : null,
    sessions.length ? h('table', { class: 'tables results-by-session' },
      h('caption', {}, t('stats.by_session')),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('stats.col.session')), h('th', { scope: 'col', class: 'num' }, t('stats.col.hands')), h('th', { scope: 'col', class: 'num' }, t('myhands.col.net')))),
      h('tbody', {}, sessions.map((s) => h('tr', { dataset: { session: s.session } },
        h('td', {}, t('stats.session_when', { start: s.start, end: s.end })), h('td', { class: 'num' }, chips(s.hands)),
        h('td', { class: `num ${s.net > 0 ? 'won' : s.net < 0 ? 'lost' : ''}` }, signed(s.net)))))) : null,
    imported.length ? h('table', { class: 'tables results-imported' },
      h('caption', {}, t('stats.imported_title')),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('lobby.col.game')), h('th', { scope: 'col' }, t('stats.col.unit')), h('th', { scope: 'col', class: 'num' }, t('stats.col.hands')), h('th', { scope: 'col', class: 'num' }, t('myhands.col.net')))),
      h('tbody', {}, imported.map((g) => h('tr', { dataset: { game: g.game, unit: g.unit } },
        h('td', {}, gameShort(g.game)), h('td', {}, unitName(g.unit)), h('td', { class: 'num' }, chips(g.hands)),
        h('td', { class: `num ${g.net > 0 ? 'won' : g.net < 0 ? 'lost' : ''}` }, unitAmount(g, signed))))))
      : null);
}

/** The viewer's own stats and results (`account`): for My hands. */
export function ownStats(account) {
  return api.stats(account.id);
}
