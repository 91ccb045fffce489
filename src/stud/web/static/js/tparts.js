// Messages with elements inside them ("Your turn at <a>Table 3</a>"): the catalog's
// message decides where the element goes (word order differs between languages), the
// code supplies the element. t() renders the message with a private-use character in
// the element's place; the text is then cut there and the element put in. The key stays a
// literal in the caller's t() call, where tests/test_i18n_catalogs.py reads it:
//
//   tParts((marks) => t('alerts.banner', marks), { table: link })

import { language, PSEUDO } from './i18n.js';

const MARK = 0xe000; // Unicode private use: never in a catalog message or a name

/**
 * The nodes of a message: `render(marks)` words it (a t() call given `marks` among its
 * parameters); each element of `elements` ({table: <a>}) stands where its placeholder is.
 */
export function tParts(render, elements) {
  const names = Object.keys(elements);
  const marks = {};
  names.forEach((name, i) => { marks[name] = String.fromCharCode(MARK + i); });
  const text = render(marks);
  const out = [];
  let run = '';
  for (const ch of text) {
    const index = ch.charCodeAt(0) - MARK;
    if (index >= 0 && index < names.length) {
      if (run) out.push(run);
      run = '';
      out.push(elements[names[index]]);
    } else {
      run += ch;
    }
  }
  if (run) out.push(run);
  return out;
}

/** Items (strings or elements) joined as the language lists them: "A, B and C", "A、B和C". */
export function listParts(items) {
  if (items.length <= 1) return [...items];
  if (language() === PSEUDO) return items.flatMap((item, i) => (i ? [', ', item] : [item]));
  const marks = items.map((_, i) => String.fromCharCode(MARK + i));
  const format = new Intl.ListFormat(language(), { type: 'conjunction' });
  return format.formatToParts(marks).map((part) => (part.type === 'element' ? items[part.value.charCodeAt(0) - MARK] : part.value));
}
