// The running log of the hands already seen at a table survives a reload: kept in
// sessionStorage (this tab only) per account and table, saved as each hand ends,
// and put back before the table's first state arrives (which brings the hand in play).

const PREFIX = 'stud.log.';
const KEEP = 500;

function key(account, table) {
  return `${PREFIX}${account?.id ?? 'anon'}.${table}`;
}

/** Keep `model`'s log up to its last finished hand. */
export function saveLog(model, account) {
  const log = model.log;
  let end = log.length;
  while (end > 0 && log[end - 1].type !== 'hand_finished') end -= 1;
  if (!end) return;
  try {
    sessionStorage.setItem(key(account, model.id), JSON.stringify(log.slice(Math.max(0, end - KEEP), end)));
  } catch {
    // storage full or disabled: the log starts afresh after a reload
  }
}

/** Put a saved log back into a new `model` (before any event of it is drawn). */
export function restoreLog(model, account) {
  let saved = null;
  try {
    saved = JSON.parse(sessionStorage.getItem(key(account, model.id)) || 'null');
  } catch {
    saved = null;
  }
  if (!Array.isArray(saved) || !saved.length) return;
  model.log = saved;
  model.logTotal = saved.length;
}

/** Forget every saved log (logging out: the next account must not see this one's cards). */
export function clearLogs() {
  try {
    for (const k of Object.keys(sessionStorage)) if (k.startsWith(PREFIX)) sessionStorage.removeItem(k);
  } catch {
    // nothing kept
  }
}
