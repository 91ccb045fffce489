// The turn clock: a bar that runs down over the turn's seconds, then over the
// player's time bank (another colour), with the seconds left; the bank shows
// beside the turn's seconds from the start, before it runs.

import { t } from './i18n.js';
import { timeLeft } from './tablewords.js';

/** Update every `.clock` on the page once; `now` is the server's clock in seconds. */
export function tickClocks(now) {
  for (const el of document.querySelectorAll('.clock[data-deadline]')) {
    const clockEnds = Number(el.dataset.clockEnds);
    const deadline = Number(el.dataset.deadline);
    const turnSeconds = Number(el.dataset.turnSeconds) || 20;
    const bar = el.querySelector('.clock-bar');
    const text = el.querySelector('.clock-text');
    if (!deadline) continue;
    let fraction;
    let label;
    if (now < clockEnds) {
      fraction = (clockEnds - now) / turnSeconds;
      label = timeLeft(clockEnds - now);
      el.classList.remove('bank');
    } else {
      const bank = Math.max(0, deadline - clockEnds);
      fraction = bank > 0 ? (deadline - now) / bank : 0;
      label = t('table.clock.bank', { time: timeLeft(deadline - now) });
      el.classList.add('bank');
    }
    el.querySelector('.clock-bank')?.toggleAttribute('hidden', now >= clockEnds);
    fraction = Math.max(0, Math.min(1, fraction));
    el.classList.toggle('low', fraction < 0.3);
    bar.style.width = `${(fraction * 100).toFixed(1)}%`;
    text.textContent = label;
  }
}

export function startClocks(now) {
  const tick = () => tickClocks(now());
  tick();
  return setInterval(tick, 200);
}
