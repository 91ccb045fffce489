// The player's preferences, kept in localStorage: four-colour deck, turn sound, turn
// notifications, single-key action shortcuts (on by default; a table offers the box to
// turn them off, WCAG 2.1.4), the felt's colour and the card backs (settings.js).

import { h } from './dom.js';

const KEY = 'stud.prefs';
const defaults = { fourColour: false, sound: true, notify: true, shortcuts: true, felt: 'green', back: 'blue' };

function load() {
  try {
    return { ...defaults, ...JSON.parse(localStorage.getItem(KEY) || '{}') };
  } catch {
    return { ...defaults };
  }
}

export const prefs = load();

export function setPref(name, value) {
  prefs[name] = value;
  try {
    localStorage.setItem(KEY, JSON.stringify(prefs));
  } catch {
    // private mode: keep it for this page only
  }
  apply();
}

export function apply() {
  document.body.classList.toggle('four-colour', prefs.fourColour);
  document.body.dataset.felt = prefs.felt; // the settings menu's (settings.js, css/regulars.css)
  document.body.dataset.back = prefs.back;
}

/** Wire the two header checkboxes. */
export function bindPrefs() {
  const four = document.getElementById('pref-four-colour');
  const sound = document.getElementById('pref-sound');
  four.checked = prefs.fourColour;
  sound.checked = prefs.sound;
  four.addEventListener('change', () => setPref('fourColour', four.checked));
  sound.addEventListener('change', () => setPref('sound', sound.checked));
  bindNotify(document.getElementById('pref-notify'));
  apply();
}

/** The notifications box: on asks the browser's permission (it needs the click). */
function bindNotify(box) {
  if (!box) return;
  const supported = 'Notification' in window;
  box.disabled = !supported;
  box.checked = supported && prefs.notify && Notification.permission === 'granted';
  box.addEventListener('change', async () => {
    if (box.checked && Notification.permission !== 'granted') {
      const answer = await Notification.requestPermission();
      box.checked = answer === 'granted';
    }
    setPref('notify', box.checked);
  });
}

/**
 * A labelled checkbox for preference `name`, built by code (a table's own preferences);
 * `changed()` runs after each change, and every box of the same preference follows.
 */
export function prefBox(name, label, hint, changed = () => {}) {
  const box = h('input', { type: 'checkbox', dataset: { pref: name }, checked: Boolean(prefs[name]) });
  box.addEventListener('change', () => {
    setPref(name, box.checked);
    for (const other of document.querySelectorAll(`input[data-pref="${name}"]`)) other.checked = box.checked;
    changed();
  });
  return h('label', { class: 'toggle', title: hint }, box, ' ', label);
}
