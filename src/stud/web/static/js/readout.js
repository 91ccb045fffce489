// A hand in words while it is played. The server reads the cards with the same
// evaluators as the showdown (stud.table.readout) and sends the words: your own
// hand in your state only (`readout`), every seat's up cards to everyone
// (`boards`). This module only puts them into a line of text.

/** "Lo: 7,5,3,2,A", "Lo draw: 7,5,3", "no low" (Stud Hi/Lo); "7,5,4,3,2" or "7,4,2 draw" (Razz). */
function lowText(low, game, { up = false } = {}) {
  if (!low) return null;
  if (game === 'razz') return low.made || up ? low.ranks : `${low.ranks} so far`;
  if (low.made) return `Lo: ${low.ranks}`;
  if (!low.possible) return up ? null : 'no low';
  return `Lo draw: ${low.ranks}`;
}

/** One line for a readout ({high, low}) in `game`; `up` for a board of up cards. */
export function readoutText(words, game, options = {}) {
  if (!words) return '';
  const parts = [];
  if (words.high) parts.push(words.high);
  const low = lowText(words.low, game, options);
  if (low) parts.push(low);
  return parts.join(' · ');
}

/** Words for the up cards a seat shows ("showing a pair of Nines"). */
export function boardText(words, game) {
  const text = readoutText(words, game, { up: true });
  return text ? `showing ${text}` : '';
}
