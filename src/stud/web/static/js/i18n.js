// Languages: which one the page speaks, its message catalog, and numbers and dates
// in its format (docs/i18n.md).
//
// A catalog is static/i18n/LANG.json: one key per string, each an ICU MessageFormat
// message: `{name}`, `{n, number}`, `{n, plural, one {# chip} other {# chips}}`,
// `{x, select, a {...} other {...}}`, `{n, selectordinal, one {#st} ... other {#th}}`,
// `{d, date, medium}`. Plural rules, numbers and
// dates come from the platform's Intl. Client code names keys only as string literals,
// t('lobby.title'), or as a family and a member, tOf('game', code), so a test can
// find every key the client uses (tests/test_i18n_catalogs.py).
//
// `?lang=pseudo` (also `xx-pseudo`) shows the English catalog with accented letters,
// each message between ⟦ and ⟧: text on the page outside the markers did not come
// from a catalog (tests/test_web_i18n.py).

export const LANGUAGES = [
  { code: 'en', name: 'English' },
  { code: 'zh-Hant', name: '繁體中文' },
  { code: 'zh-Hans', name: '简体中文' },
];
export const PSEUDO = 'pseudo';
export const DEFAULT_LANGUAGE = 'en';
const STORAGE_KEY = 'stud.lang';
const OPEN = '⟦';
const CLOSE = '⟧';

const state = {
  code: DEFAULT_LANGUAGE,
  messages: {},
  fallback: {},
  compiled: new Map(),
  listeners: new Set(),
  catalogs: new Map(), // code -> Promise of its messages
  requests: 0, // useLanguage calls so far: only the latest one applies
};

/** Whether `code` is one of the languages the room speaks (the pseudo-locale is not). */
export function isLanguage(code) {
  return LANGUAGES.some((l) => l.code === code);
}

/**
 * The room's language for a list of BCP 47 tags in order of preference (navigator.languages):
 * zh-TW, zh-HK, zh-MO and zh-Hant-* read Traditional; zh-CN, zh-SG, zh-MY, zh-Hans-* and a bare
 * zh read Simplified; en-* English. null when none of them fits.
 */
export function matchLanguage(tags) {
  for (const raw of tags ?? []) {
    const parts = String(raw).trim().replace(/_/g, '-').toLowerCase().split('-');
    if (parts[0] === 'en') return 'en';
    if (parts[0] !== 'zh') continue;
    const rest = parts.slice(1);
    if (rest.includes('hant') || rest.some((p) => ['tw', 'hk', 'mo'].includes(p))) return 'zh-Hant';
    return 'zh-Hans';
  }
  return null;
}

/** The language named by the page's address (`?lang=`), if it names one; the pseudo-locale too. */
export function urlLanguage(search = location.search) {
  const asked = new URLSearchParams(search).get('lang');
  if (!asked) return null;
  if (asked === PSEUDO || asked === 'xx-pseudo') return PSEUDO;
  return isLanguage(asked) ? asked : matchLanguage([asked]);
}

/** The language this browser chose before (localStorage), if any. */
export function storedLanguage() {
  try {
    const code = localStorage.getItem(STORAGE_KEY);
    return isLanguage(code) ? code : null;
  } catch {
    return null;
  }
}

function remember(code) {
  try {
    localStorage.setItem(STORAGE_KEY, code);
  } catch {
    // private mode: the choice lasts for this page only
  }
}

/** The language now in use: 'en', 'zh-Hant', 'zh-Hans' or 'pseudo'. */
export function language() {
  return state.code;
}

/** The BCP 47 tag for `<html lang>` and for Intl (the pseudo-locale is English, en-XA). */
export function languageTag(code = state.code) {
  return code === PSEUDO ? 'en-XA' : code;
}

function intlLocale() {
  return state.code === PSEUDO ? 'en' : state.code;
}

/** A language's catalog, fetched once per page. */
function catalogOf(code) {
  let loading = state.catalogs.get(code);
  if (!loading) {
    loading = fetch(`/i18n/${code}.json`, { credentials: 'same-origin' }).then((response) => {
      if (!response.ok) throw new Error(`catalog ${code}: HTTP ${response.status}`);
      return response.json();
    });
    loading.catch(() => state.catalogs.delete(code)); // try again next time
    state.catalogs.set(code, loading);
  }
  return loading;
}

/**
 * Load `code`'s catalog and make it current; `<html lang>` follows. English is loaded too, as
 * the fallback for a key a catalog lacks (the tests keep every catalog complete).
 */
export async function useLanguage(code) {
  const wanted = code === PSEUDO || isLanguage(code) ? code : DEFAULT_LANGUAGE;
  const ticket = ++state.requests;
  const [english, messages] = await Promise.all([catalogOf('en'), catalogOf(wanted === PSEUDO ? 'en' : wanted)]);
  if (ticket !== state.requests) return; // a later choice arrived first: it wins
  state.fallback = english;
  state.messages = messages;
  state.code = wanted;
  state.compiled.clear();
  document.documentElement.lang = languageTag(wanted);
  for (const fn of [...state.listeners]) fn(wanted);
}

/**
 * The language a page starts in: the address's `?lang=`, else the one chosen before in this
 * browser, else the browser's preferences, else English.
 */
export function initialLanguage() {
  return urlLanguage() ?? storedLanguage() ?? matchLanguage(navigator.languages ?? [navigator.language]) ?? DEFAULT_LANGUAGE;
}

/** Load the starting language before anything is drawn. */
export async function initI18n() {
  await useLanguage(initialLanguage());
}

/** The person picked a language: use it and remember it in this browser. */
export async function chooseLanguage(code) {
  if (!isLanguage(code)) throw new Error(`unknown language ${code}`);
  remember(code);
  await useLanguage(code);
}

/** Call `fn(code)` whenever the language changes; returns a function that stops it. */
export function onLanguageChange(fn) {
  state.listeners.add(fn);
  return () => state.listeners.delete(fn);
}

// -- messages ------------------------------------------------------------------------------

/** The words of `key` in the current language, its placeholders filled from `params`. */
export function t(key, params = {}) {
  let program = state.compiled.get(key);
  if (program === undefined) {
    const source = state.messages[key] ?? state.fallback[key];
    if (source === undefined) {
      console.warn(`i18n: no message ${key}`);
      return key;
    }
    program = parse(String(source), key);
    state.compiled.set(key, program);
  }
  let text;
  try {
    text = render(program, params, null);
  } catch (error) {
    console.warn(`i18n: ${key}: ${error.message}`);
    text = state.messages[key] ?? key;
  }
  return state.code === PSEUDO ? `${OPEN}${text}${CLOSE}` : text;
}

/** An ICU message given as text (not a key) rendered now: for tests and tools, not for words. */
export function formatMessage(source, params = {}) {
  return render(parse(String(source)), params, null);
}

/** A key of a family whose member is known only at run time: tOf('game', 'razz') is t('game.razz'). */
export function tOf(family, member, params = {}) {
  return t(`${family}.${member}`, params);
}

/** Whether the current catalogs have a message for `family.member` (an unknown server code...). */
export function hasKey(family, member) {
  const key = `${family}.${member}`;
  return key in state.messages || key in state.fallback;
}

// -- numbers and dates ---------------------------------------------------------------------

const formats = new Map();
function cachedFormat(kind, options) {
  const id = `${kind}|${intlLocale()}|${JSON.stringify(options)}`;
  let format = formats.get(id);
  if (!format) {
    format = kind === 'number' ? new Intl.NumberFormat(intlLocale(), options)
      : kind === 'plural' ? new Intl.PluralRules(intlLocale(), options)
        : new Intl.DateTimeFormat(intlLocale(), options);
    formats.set(id, format);
  }
  return format;
}

/** A number in the current language's format (grouping, decimal mark). */
export function formatNumber(n, options = {}) {
  return cachedFormat('number', options).format(Number(n ?? 0));
}

/** A chip amount: a whole number, grouped as the language groups digits. */
export function formatChips(n) {
  return formatNumber(n, { maximumFractionDigits: 0 });
}

const DATE_STYLES = {
  short: { dateStyle: 'short' },
  medium: { dateStyle: 'medium' },
  long: { dateStyle: 'long' },
  full: { dateStyle: 'full' },
  datetime: { dateStyle: 'medium', timeStyle: 'short' },
  time: { timeStyle: 'short' },
};

/** A date (a Date, or seconds since 1970 as the server sends them) in the language's format. */
export function formatDate(value, style = 'medium') {
  const date = value instanceof Date ? value : new Date(Number(value) * 1000);
  return cachedFormat('date', DATE_STYLES[style] ?? DATE_STYLES.medium).format(date);
}

// -- ICU MessageFormat: a parser for the subset the catalogs use, and its renderer ---------

class MessageError extends Error {}

/**
 * A message as a list of parts: strings, and {arg, type, style, options} for placeholders.
 * Quoting as ICU: '' is one apostrophe; '{...}' is literal text; any other apostrophe is itself.
 */
export function parse(source, key = '') {
  let i = 0;
  const fail = (why) => { throw new MessageError(`message ${key}: ${why} at ${i}: ${source}`); };

  function parseParts(inPlural, depth) {
    const parts = [];
    let text = '';
    while (i < source.length) {
      const c = source[i];
      if (c === "'") {
        if (source[i + 1] === "'") { text += "'"; i += 2; continue; }
        if ('{}#'.includes(source[i + 1] ?? '')) {
          const end = source.indexOf("'", i + 1);
          if (end < 0) fail('unclosed quote');
          text += source.slice(i + 1, end);
          i = end + 1;
          continue;
        }
        text += c; i += 1; continue;
      }
      if (c === '{') {
        if (text) parts.push(text);
        text = '';
        i += 1;
        parts.push(parseArgument(depth));
        continue;
      }
      if (c === '}') {
        if (depth === 0) fail('unmatched }');
        break;
      }
      if (c === '#' && inPlural) {
        if (text) parts.push(text);
        text = '';
        parts.push({ pound: true });
        i += 1;
        continue;
      }
      text += c;
      i += 1;
    }
    if (text) parts.push(text);
    return parts;
  }

  function word() {
    while (source[i] === ' ') i += 1;
    const start = i;
    while (i < source.length && !' ,{}'.includes(source[i])) i += 1;
    const w = source.slice(start, i);
    while (source[i] === ' ') i += 1;
    return w;
  }

  function parseArgument(depth) {
    const arg = word();
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(arg)) fail(`bad argument name ${JSON.stringify(arg)}`);
    if (source[i] === '}') { i += 1; return { arg }; }
    if (source[i] !== ',') fail('expected , or }');
    i += 1;
    const type = word();
    if (type === 'plural' || type === 'select' || type === 'selectordinal') {
      if (source[i] !== ',') fail(`expected , after ${type}`);
      i += 1;
      const options = {};
      for (;;) {
        const selector = word();
        if (!selector) break;
        if (source[i] !== '{') fail(`expected { after ${selector}`);
        i += 1;
        options[selector] = parseParts(type !== 'select', depth + 1);
        if (source[i] !== '}') fail('unclosed option');
        i += 1;
      }
      if (source[i] !== '}') fail('unclosed argument');
      i += 1;
      if (!('other' in options)) fail(`${type} needs an "other" option`);
      return { arg, type, options };
    }
    if (type !== 'number' && type !== 'date' && type !== 'time') fail(`unknown type ${type}`);
    let style = null;
    if (source[i] === ',') { i += 1; style = word(); }
    if (source[i] !== '}') fail('unclosed argument');
    i += 1;
    return { arg, type, style };
  }

  const parts = parseParts(false, 0);
  if (i < source.length) fail('unexpected }');
  return parts;
}

function pseudoText(text) {
  return state.code === PSEUDO ? accent(text) : text;
}

const ACCENTS = {
  a: 'á', b: 'ƀ', c: 'ç', d: 'ð', e: 'é', f: 'ƒ', g: 'ĝ', h: 'ĥ', i: 'í', j: 'ĵ', k: 'ķ', l: 'ĺ', m: 'ɱ',
  n: 'ñ', o: 'ó', p: 'þ', q: 'ǫ', r: 'ŕ', s: 'š', t: 'ţ', u: 'ú', v: 'ṽ', w: 'ŵ', x: 'ẋ', y: 'ý', z: 'ž',
  A: 'Á', B: 'Ɓ', C: 'Ç', D: 'Ð', E: 'É', F: 'Ƒ', G: 'Ĝ', H: 'Ĥ', I: 'Í', J: 'Ĵ', K: 'Ķ', L: 'Ĺ', M: 'Ṁ',
  N: 'Ñ', O: 'Ó', P: 'Þ', Q: 'Ǫ', R: 'Ŕ', S: 'Š', T: 'Ţ', U: 'Ú', V: 'Ṽ', W: 'Ŵ', X: 'Ẋ', Y: 'Ý', Z: 'Ž',
};

/** English letters as accented look-alikes (the pseudo-locale: still readable, plainly not raw). */
export function accent(text) {
  return text.replace(/[A-Za-z]/g, (ch) => ACCENTS[ch] ?? ch);
}

function value(params, arg) {
  if (!(arg in params)) throw new MessageError(`missing parameter ${arg}`);
  return params[arg];
}

function render(parts, params, pound) {
  let out = '';
  for (const part of parts) {
    if (typeof part === 'string') { out += pseudoText(part); continue; }
    if (part.pound) { out += pound ?? '#'; continue; }
    const v = value(params, part.arg);
    if (!part.type) {
      out += typeof v === 'number' ? formatNumber(v) : v instanceof Date ? formatDate(v) : String(v);
    } else if (part.type === 'number') {
      out += part.style === 'percent' ? formatNumber(v, { style: 'percent' }) : formatNumber(v);
    } else if (part.type === 'date') {
      out += formatDate(v, part.style ?? 'medium');
    } else if (part.type === 'time') {
      out += formatDate(v, 'time');
    } else if (part.type === 'plural' || part.type === 'selectordinal') {
      const n = Number(v);
      const exact = part.options[`=${n}`];
      const rules = cachedFormat('plural', part.type === 'selectordinal' ? { type: 'ordinal' } : {});
      const branch = exact ?? part.options[rules.select(n)] ?? part.options.other;
      out += render(branch, params, formatNumber(n));
    } else {
      const branch = part.options[String(v)] ?? part.options.other;
      out += render(branch, params, pound);
    }
  }
  return out;
}
