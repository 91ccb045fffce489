// Chips that move: from the pot to each winner when a hand is awarded.

import { h } from './dom.js';

function centreOf(el, box) {
  const r = el.getBoundingClientRect();
  return { x: r.left + r.width / 2 - box.left, y: r.top + r.height / 2 - box.top };
}

/** Fly a few chips from the pot to each seat in `awards` (skipped with reduced motion). */
export function flyChips(felt, awards) {
  document.body.dataset.chipFlights = String(Number(document.body.dataset.chipFlights ?? 0) + 1);
  if (window.matchMedia?.('(prefers-reduced-motion: reduce)').matches) return;
  const box = felt.getBoundingClientRect();
  const pot = felt.querySelector('.pot') ?? felt.querySelector('.centre');
  if (!pot) return;
  const from = centreOf(pot, box);
  awards.forEach((award, k) => {
    const seat = felt.querySelector(`.seat[data-seat="${award.seat}"] .plate`);
    if (!seat) return;
    const to = centreOf(seat, box);
    for (let i = 0; i < 4; i += 1) {
      const chip = h('i', {
        class: `flying-chip c${(i + k) % 3}`,
        style: { left: `${from.x}px`, top: `${from.y}px` },
      });
      felt.append(chip);
      const delay = k * 220 + i * 70;
      const move = chip.animate(
        [
          { transform: 'translate(-50%, -50%) scale(1)', opacity: 1 },
          { transform: `translate(calc(${to.x - from.x}px - 50%), calc(${to.y - from.y}px - 50%)) scale(.9)`, opacity: 1, offset: 0.85 },
          { transform: `translate(calc(${to.x - from.x}px - 50%), calc(${to.y - from.y}px - 50%)) scale(.6)`, opacity: 0 },
        ],
        { duration: 750, delay, easing: 'cubic-bezier(.3,.7,.4,1)', fill: 'forwards' },
      );
      move.onfinish = () => chip.remove();
    }
  });
}
