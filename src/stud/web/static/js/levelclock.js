// The tournament's level clock: this level's ante, bring-in and bets, the next level's,
// the time left in this one counting down, and the players left of the entrants. The
// tournament changes levels between hands: when the time is up the clock says the next
// level starts with the next hand.

import { h } from './dom.js';
import { t } from './i18n.js';
import { clockText, stakesText } from './tourneywords.js';

const LOW = 60; // the last minute of a level shows in gold

/**
 * The clock for `level` (tourneywords.levelInfo), or null when the tournament has not started.
 * `now` is the server's clock in seconds; `players` is {left, entrants} (optional).
 */
export function levelClock(level, now, { players = null, finalTable = false } = {}) {
  if (!level || !level.number) return null;
  const time = h('span', { class: 'lc-time', role: 'timer' });
  const el = h('div', {
    class: 'level-clock', role: 'group', 'aria-label': t('tourney.clock.label'),
    dataset: { endsAt: level.ends_at ?? '', level: level.number },
  },
  h('div', { class: 'lc-now' },
    h('span', { class: 'lc-level' }, t('tourney.clock.level', { number: level.number })),
    h('span', { class: 'lc-stakes' }, stakesText(level))),
  h('div', { class: 'lc-left' }, h('span', { class: 'lc-label' }, t('tourney.clock.left')), time),
  level.next ? h('div', { class: 'lc-next' },
    t('tourney.clock.next', { number: level.next.number, stakes: stakesText(level.next) })) : null,
  players ? h('div', { class: 'lc-players' },
    t('tourney.clock.players', { left: players.left, entrants: players.entrants }),
    finalTable ? h('span', { class: 'final-badge' }, t('tourney.final_table')) : null) : null);
  tickOne(el, now);
  return el;
}

function tickOne(el, now) {
  const endsAt = Number(el.dataset.endsAt);
  const time = el.querySelector('.lc-time');
  if (!time) return;
  if (!endsAt) {
    time.textContent = '—';
    return;
  }
  const left = endsAt - now;
  const text = left > 0 ? clockText(left) : t('tourney.clock.next_hand');
  if (time.textContent !== text) time.textContent = text;
  el.classList.toggle('low', left > 0 && left <= LOW);
  el.classList.toggle('up', left <= 0);
}

/** Update every level clock on the page once; `now` is the server's clock in seconds. */
export function tickLevelClocks(now) {
  for (const el of document.querySelectorAll('.level-clock')) tickOne(el, now);
}

/** Tick the level clocks twice a second from now on. */
export function startLevelClocks(now) {
  const tick = () => tickLevelClocks(now());
  tick();
  return setInterval(tick, 500);
}
