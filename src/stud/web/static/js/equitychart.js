// The replayer's equity chart: each player's share of the pot street by street
// (GET /api/hands/ID/equity), drawn as a small SVG by hand, with the numbers in a table
// beneath it that doubles as the legend. A filled dot is an exact count, a hollow one sampled.

import { h } from './dom.js';
import { formatNumber, t } from './i18n.js';

const SVG = 'http://www.w3.org/2000/svg';
const STREETS = [3, 4, 5, 6, 7];
const COLORS = ['#f2c14e', '#5fd38a', '#6fb7ff', '#ff7a7a', '#c792ea', '#ffa45c', '#4dd0c8', '#e0e0e0'];
const STREET_LABELS = { 3: () => t('equity.s3'), 4: () => t('equity.s4'), 5: () => t('equity.s5'), 6: () => t('equity.s6'), 7: () => t('equity.s7') };
const SIZE = { width: 320, height: 150, left: 34, right: 10, top: 10, bottom: 22 };

function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const child of children) if (child) el.append(child);
  return el;
}

/** A share of the pot as a percentage in the page's language: "41%". */
export function percent(share) {
  return formatNumber(share, { style: 'percent', maximumFractionDigits: 0 });
}

/** Each seat's share by street: Map(seat → Map(street → {equity, method})). */
export function bySeat(data) {
  const out = new Map();
  for (const street of data.streets ?? []) {
    for (const share of street.shares) {
      if (!out.has(share.seat)) out.set(share.seat, new Map());
      out.get(share.seat).set(street.street, { equity: share.equity, method: street.method });
    }
  }
  return out;
}

/**
 * The chart of `data` for players `players` ([{seat, name}]), `you` the viewer's seat.
 * Returns {root, mark(street)}: mark() shows the street the replay is on.
 */
export function equityChart(data, players, you) {
  const { width, height, left, right, top, bottom } = SIZE;
  const x = (street) => left + ((street - 3) * (width - left - right)) / 4;
  const y = (share) => top + (1 - share) * (height - top - bottom);
  const seats = bySeat(data);
  const order = players.filter((p) => seats.has(p.seat));
  const color = new Map(order.map((p, i) => [p.seat, COLORS[i % COLORS.length]]));
  const chart = svg('svg', { viewBox: `0 0 ${width} ${height}`, class: 'equity-svg', role: 'img', 'aria-label': t('equity.chart_label') });
  for (const share of [0, 0.5, 1]) {
    chart.append(svg('line', { x1: left, x2: width - right, y1: y(share), y2: y(share), class: 'grid' }));
    const label = svg('text', { x: left - 4, y: y(share) + 4, class: 'axis', 'text-anchor': 'end' });
    label.textContent = percent(share);
    chart.append(label);
  }
  const cursor = svg('rect', { x: 0, y: top, width: 18, height: height - top - bottom, class: 'cursor', visibility: 'hidden' });
  chart.append(cursor);
  for (const street of STREETS) {
    const label = svg('text', { x: x(street), y: height - 6, class: 'axis', 'text-anchor': 'middle' });
    label.textContent = STREET_LABELS[street]();
    chart.append(label);
  }
  for (const p of order) {
    const points = [...seats.get(p.seat)].sort((a, b) => a[0] - b[0]);
    const stroke = color.get(p.seat);
    const line = svg('polyline', { points: points.map(([s, v]) => `${x(s)},${y(v.equity)}`).join(' '), fill: 'none', stroke, class: p.seat === you ? 'line you' : 'line' });
    chart.append(line);
    for (const [street, v] of points) {
      const dot = svg('circle', { cx: x(street), cy: y(v.equity), r: 3.2, stroke, fill: v.method === 'exact' ? stroke : '#1b2a22', class: 'dot', 'data-seat': p.seat, 'data-street': street });
      const title = svg('title');
      title.textContent = t('equity.point', { name: p.name, share: percent(v.equity), street: STREET_LABELS[street]() });
      dot.append(title);
      chart.append(dot);
    }
  }
  const reached = (data.streets ?? []).map((s) => s.street);
  const table = h('table', { class: 'equity-table' },
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, t('equity.player'))),
      reached.map((s) => h('th', { scope: 'col', dataset: { street: s } }, STREET_LABELS[s]())))),
    h('tbody', {}, order.map((p) => h('tr', { dataset: { seat: p.seat } },
      h('th', { scope: 'row' }, h('span', { class: 'swatch', style: { background: color.get(p.seat) }, 'aria-hidden': 'true' }),
        h('span', { translate: 'no' }, p.name), p.seat === you ? h('span', { class: 'muted' }, ' ', t('equity.you')) : null),
      reached.map((s) => {
        const v = seats.get(p.seat).get(s);
        return h('td', { class: 'num', dataset: { street: s, equity: v ? v.equity : '' } }, v ? percent(v.equity) : '—');
      })))));
  const methods = new Set((data.streets ?? []).map((s) => s.method));
  const note = methods.has('sampled')
    ? t('equity.note_sampled', { samples: formatNumber(data.samples) })
    : t('equity.note_exact');
  const root = h('figure', { class: 'equity-chart', dataset: { streets: reached.join(' ') } },
    h('figcaption', {}, h('b', {}, t('equity.title')), ' ', h('span', { class: 'muted' }, t('equity.seen'))),
    chart, table, h('p', { class: 'muted equity-note' }, note));
  return {
    root,
    mark(street) {
      const visible = reached.includes(street);
      cursor.setAttribute('visibility', visible ? 'visible' : 'hidden');
      if (visible) cursor.setAttribute('x', String(x(street) - 9));
      for (const th of table.querySelectorAll('[data-street]')) th.classList.toggle('now', Number(th.dataset.street) === street);
    },
  };
}
