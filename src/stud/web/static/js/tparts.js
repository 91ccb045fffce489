// A catalog message with page elements in its placeholders: a player's name (marked
// translate="no"), cards drawn in colour, a link. The message decides the word order
// ("{who} calls 3", "未跟注的 5 退還給 {who}"); the code gives the elements.
//
//   splice(t('table.log.uncalled', { who: slot('who'), amount }), { who: nameEl })
//
// In the pseudo-locale each piece of text between the elements gets its own ⟦ ⟧ marks,
// so the check that reads text node by text node still sees it came from a catalog.

import { language, PSEUDO } from './i18n.js';

const OPEN = '\uE000';
const CLOSE = '\uE001';
const SLOT = new RegExp(`${OPEN}([A-Za-z_][A-Za-z0-9_]*)${CLOSE}`);

/** The stand-in for element `name` inside a message's parameters. */
export function slot(name) {
  return `${OPEN}${name}${CLOSE}`;
}

/** How deep in ⟦ ⟧ marks the end of `text` is, starting at `depth`. */
function depthAfter(text, depth) {
  let d = depth;
  for (const ch of text) {
    if (ch === '⟦') d += 1;
    else if (ch === '⟧') d = Math.max(0, d - 1);
  }
  return d;
}

/**
 * `text` (a rendered message) as a list of strings and elements: each slot(name) in it is
 * replaced by `nodes[name]` (a Node, a string, or a list of them). A slot with no node stays
 * out of the result.
 */
export function splice(text, nodes) {
  const out = [];
  const pseudo = language() === PSEUDO;
  let rest = String(text);
  let depth = 0; // inside how many ⟦ ⟧ marks (the pseudo-locale) the next piece starts
  for (;;) {
    const match = SLOT.exec(rest);
    const before = match ? rest.slice(0, match.index) : rest;
    if (pseudo) {
      // Each piece between elements closes the marks it is inside of, and opens them again.
      const after = depthAfter(before, depth);
      const piece = '⟦'.repeat(depth) + before + '⟧'.repeat(after);
      depth = after;
      if (/[^⟦⟧]/.test(piece)) out.push(piece);
    } else if (before) {
      out.push(before);
    }
    if (!match) break;
    const node = nodes[match[1]];
    if (Array.isArray(node)) out.push(...node);
    else if (node !== undefined && node !== null) out.push(node);
    rest = rest.slice(match.index + match[0].length);
  }
  return out;
}

/**
 * The nodes of a message whose placeholders are elements, in one call: `render(marks)` words
 * it (a t() call given `marks` among its parameters, so the key stays a literal where the
 * catalog test reads it); each element of `elements` ({table: <a>}) stands where its
 * placeholder is.
 *
 *   tParts((marks) => t('alerts.banner', marks), { table: link })
 */
export function tParts(render, elements) {
  const marks = {};
  for (const name of Object.keys(elements)) marks[name] = slot(name);
  return splice(render(marks), elements);
}

/** Items (strings or elements) joined as the language lists them: "A, B and C", "A、B和C". */
export function listParts(items) {
  if (items.length <= 1) return [...items];
  if (language() === PSEUDO) return items.flatMap((item, i) => (i ? [', ', item] : [item]));
  const nodes = {};
  const marks = items.map((item, i) => {
    nodes[`i${i}`] = item;
    return slot(`i${i}`);
  });
  const format = new Intl.ListFormat(language(), { type: 'conjunction' });
  return splice(format.format(marks), nodes);
}
