// A hand in words while it is played. The server reads the cards with the same
// evaluators as the showdown (stud.table.readout) and sends them: your own hand in
// your state only (`readout`), every seat's up cards to everyone (`boards`). The
// high hand comes in the evaluators' fixed words, which handwords.js says in the
// page's language; a low comes as its ranks (7,5,3,2,A) with whether it is made.

import { describeHand } from './handwords.js';
import { t } from './i18n.js';

/** "Lo: 7,5,3,2,A", "Lo draw: 7,5,3", "no low" (Stud Hi/Lo); "7,5,4,3,2" or "7,4,2 so far" (Razz). */
function lowText(low, game, { up = false } = {}) {
  if (!low) return null;
  if (game === 'razz') return low.made || up ? t('table.readout.razz', { ranks: low.ranks }) : t('table.readout.razz_so_far', { ranks: low.ranks });
  if (low.made) return t('table.readout.low', { ranks: low.ranks });
  if (!low.possible) return up ? null : t('table.readout.no_low');
  return t('table.readout.low_draw', { ranks: low.ranks });
}

/** One line for a readout ({high, low}) in `game`; `up` for a board of up cards. */
export function readoutText(words, game, options = {}) {
  if (!words) return '';
  const parts = [];
  if (words.high) parts.push(describeHand(words.high));
  const low = lowText(words.low, game, options);
  if (low) parts.push(low);
  return parts.join(' · ');
}

/** Words for the up cards a seat shows ("showing a pair of Nines"). */
export function boardText(words, game) {
  const text = readoutText(words, game, { up: true });
  return text ? t('table.readout.showing', { words: text }) : '';
}
