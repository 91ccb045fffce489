// A short two-tone beep on your turn (WebAudio; no sound files). Switchable in prefs.

import { prefs } from './prefs.js';

let context = null;

function audio() {
  if (!context) {
    const Ctor = window.AudioContext || window.webkitAudioContext;
    if (!Ctor) return null;
    context = new Ctor();
  }
  return context;
}

/** Browsers start audio only after a gesture: unlock on the first click or key. */
export function unlockAudioOnGesture() {
  const unlock = () => {
    const ctx = audio();
    if (ctx && ctx.state === 'suspended') ctx.resume();
  };
  window.addEventListener('pointerdown', unlock, { once: true });
  window.addEventListener('keydown', unlock, { once: true });
}

export let beeps = 0; // for the tests: how many times the turn sound played

export function turnBeep() {
  if (!prefs.sound) return false;
  beeps += 1;
  document.body.dataset.beeps = String(beeps);
  const ctx = audio();
  if (!ctx) return false;
  const t = ctx.currentTime;
  for (const [offset, freq] of [[0, 880], [0.14, 1320]]) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = 'sine';
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, t + offset);
    gain.gain.exponentialRampToValueAtTime(0.18, t + offset + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, t + offset + 0.12);
    osc.connect(gain).connect(ctx.destination);
    osc.start(t + offset);
    osc.stop(t + offset + 0.13);
  }
  return true;
}
