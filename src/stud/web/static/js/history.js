// The table's finished hands: PHH and PokerStars downloads, and the replayer.

import { downloads } from './api.js';
import { h, fill } from './dom.js';
import { chips, gameShort } from './format.js';
import { t } from './i18n.js';

export function handLinks(id) {
  return h('span', { class: 'hand-links' },
    // The formats' names are names (translate=no); the links say what they do.
    h('a', { href: downloads.phh(id), download: `hand-${id}.phh`, class: 'dl-phh', 'aria-label': t('history.download_phh', { id: String(id) }), title: t('history.download_phh', { id: String(id) }) },
      h('span', { translate: 'no' }, 'PHH')),
    h('a', { href: downloads.pokerstars(id), download: `hand-${id}.txt`, class: 'dl-ps', 'aria-label': t('history.download_pokerstars', { id: String(id) }), title: t('history.download_pokerstars', { id: String(id) }) },
      h('span', { translate: 'no' }, 'PokerStars')),
    h('a', { href: `#/replay/${id}`, class: 'replay-link', 'aria-label': t('history.replay_hand', { id: String(id) }) }, t('history.replay')));
}

/** Fill `el` with the hands in `rows` ({id, number, game, status, pot, finished_at}). */
export function renderHands(el, rows) {
  const finished = rows.filter((r) => r.status === undefined || r.status === 'finished');
  if (!finished.length) {
    fill(el, h('p', { class: 'muted' }, t('history.none')));
    return;
  }
  fill(el, h('ul', { class: 'hand-list' }, finished.map((r) => h('li', { dataset: { hand: r.id } },
    h('span', { class: 'hand-no' }, `#${r.id}`),
    r.game ? h('span', { class: 'muted' }, ' ', gameShort(r.game)) : null,
    r.pot !== undefined && r.pot !== null ? h('span', { class: 'muted' }, ' · ', t('history.pot', { pot: chips(r.pot) })) : null,
    ' ', handLinks(r.id)))));
}
