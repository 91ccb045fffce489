// The table's finished hands: PHH and PokerStars downloads, and the replayer.

import { downloads } from './api.js';
import { h, fill } from './dom.js';
import { chips, GAME_SHORT } from './format.js';

export function handLinks(id) {
  return h('span', { class: 'hand-links' },
    h('a', { href: downloads.phh(id), download: `hand-${id}.phh`, class: 'dl-phh' }, 'PHH'),
    h('a', { href: downloads.pokerstars(id), download: `hand-${id}.txt`, class: 'dl-ps' }, 'PokerStars'),
    h('a', { href: `#/replay/${id}`, class: 'replay-link' }, 'Replay'));
}

/** Fill `el` with the hands in `rows` ({id, number, game, status, pot, finished_at}). */
export function renderHands(el, rows) {
  const finished = rows.filter((r) => r.status === undefined || r.status === 'finished');
  if (!finished.length) {
    fill(el, h('p', { class: 'muted' }, 'No finished hands yet.'));
    return;
  }
  fill(el, h('ul', { class: 'hand-list' }, finished.map((r) => h('li', { dataset: { hand: r.id } },
    h('span', { class: 'hand-no' }, `#${r.id}`),
    r.game ? h('span', { class: 'muted' }, ` ${GAME_SHORT[r.game] ?? r.game}`) : null,
    r.pot !== undefined && r.pot !== null ? h('span', { class: 'muted' }, ` · pot ${chips(r.pot)}`) : null,
    ' ', handLinks(r.id)))));
}
