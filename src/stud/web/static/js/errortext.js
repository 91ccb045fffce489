// The server's error codes (docs/protocol.md) in the page's language: the client words
// them from the catalogs' `error.*` messages rather than show the server's English. The
// websocket's errors and the REST API's (an ApiError from api.js) share one set of codes.

import { hasKey, t, tOf } from './i18n.js';
import { listParts } from './tparts.js';

/** What to tell the player about error `code` (a code without words of its own says so). */
export function errorText(code, params = {}) {
  return hasKey('error', code) ? tOf('error', code, params) : t('errors.unknown', { code: String(code) });
}

/**
 * What to tell the player about a failed request: the words of its code; `fieldName(field)`
 * names the fields a 422 points at (the form's own labels); a request that never reached
 * the server, or an answer without a code (a proxy's error page), is said so.
 */
export function requestErrorText(error, fieldName = null) {
  if (error?.code === 'invalid_input' && error.fields?.length && fieldName) {
    const names = [...new Set(error.fields.map(fieldName).filter(Boolean))];
    if (names.length) return t('errors.invalid_fields', { fields: listParts(names).join('') });
  }
  if (error?.code) return errorText(error.code, error.params ?? {});
  if (error?.status) return t('errors.http', { status: String(error.status) });
  return t('errors.network');
}
