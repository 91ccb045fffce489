// The lobby's table list as players read it: sort by any column (click its head
// again to reverse), the buy-in range, the players on hover or tap, and hands per
// hour only once a table has dealt enough hands for the rate to mean something.

import { chips } from './format.js';
import { t } from './i18n.js';

export const MIN_HANDS_FOR_RATE = 10;

/** Hands per hour, or null while the table has dealt fewer than MIN_HANDS_FOR_RATE hands. */
export function handsPerHour(t) {
  return (t.hands ?? 0) >= MIN_HANDS_FOR_RATE && t.hands_per_hour ? t.hands_per_hour : null;
}

/** "50–500": the buy-in range of a lobby entry. */
export function buyInRange(t) {
  const low = t.min_buy_in ?? t.big_bet * 10;
  const high = t.max_buy_in ?? t.big_bet * 100;
  return `${chips(low)}–${chips(high)}`;
}

/** The columns a player can sort by: key, heading (in the page's language), value to sort on, first direction. */
export const COLUMNS = [
  { key: 'name', label: () => t('lobby.col.name'), value: (row) => row.name.toLowerCase(), dir: 1 },
  { key: 'game', label: () => t('lobby.col.game'), value: (row) => row.game, dir: 1 },
  { key: 'stakes', label: () => t('lobby.col.stakes'), value: (row) => row.big_bet * 1e6 + row.ante, dir: -1, num: true },
  { key: 'buyin', label: () => t('lobby.col.buyin'), value: (row) => row.min_buy_in ?? 0, dir: -1, num: true },
  { key: 'seats', label: () => t('lobby.col.seats'), value: (row) => row.seats_taken / Math.max(1, row.seats), dir: -1, num: true },
  { key: 'pot', label: () => t('lobby.col.pot'), value: (row) => row.average_pot ?? 0, dir: -1, num: true, narrow: true },
  { key: 'rate', label: () => t('lobby.col.rate'), value: (row) => handsPerHour(row) ?? -1, dir: -1, num: true, narrow: true },
];

/** `tables` sorted by column `key` in direction `dir` (1 up, -1 down); ties keep the lobby's order. */
export function sortTables(tables, key, dir) {
  const column = COLUMNS.find((c) => c.key === key);
  if (!column) return tables;
  return tables
    .map((t, i) => [t, i])
    .sort(([a, i], [b, j]) => {
      const x = column.value(a);
      const y = column.value(b);
      if (x < y) return -dir;
      if (x > y) return dir;
      return i - j;
    })
    .map(([t]) => t);
}
