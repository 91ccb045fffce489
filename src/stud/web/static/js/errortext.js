// The server's error codes (docs/protocol.md) in the page's language: the client words
// them from the catalogs' `error.*` messages rather than show the server's English.

import { hasKey, t, tOf } from './i18n.js';

/** What to tell the player about error `code` (a code without words of its own says so). */
export function errorText(code) {
  return hasKey('error', code) ? tOf('error', code) : t('errors.unknown', { code: String(code) });
}
