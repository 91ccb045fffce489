// The account's showdown choice (issue 38): muck a hand that cannot win (the room's
// default) or show it. Kept with the account (GET/PUT /api/me/preferences) and told to
// each cash table the account sits at: a table's state says the choice it holds
// (`mine.muck_losing_hands`), and the client sends the kept one where they differ, so
// every way of being seated (the buy-in, the waiting list, a reconnection) follows it.

import { api } from './api.js';

let muck = true;
let room = null; // the app, once its account is known
const sent = new Map(); // table -> the choice last sent to it, until its state shows it

/** Whether the account mucks losing hands (true until its kept choice is read). */
export function mucksLosingHands() {
  return muck;
}

/** Read the account's kept choice (the default for nobody logged in). */
export async function loadShowdownChoice(app) {
  room = app;
  muck = true;
  sent.clear();
  if (!app.account) return;
  try {
    muck = (await api.preferences()).muck_losing_hands;
  } catch {
    // unread: the default stands, and the tables keep theirs
  }
  for (const model of app.seatedTables()) syncTable(app, model);
}

/** Whether an account is logged in to keep the choice. */
export function canChooseShowdown() {
  return Boolean(room?.account);
}

/** Keep a new choice, then tell every cash table the account sits at. */
export async function setMuckLosingHands(on) {
  await api.setPreferences({ muck_losing_hands: on });
  muck = on;
  for (const model of room.seatedTables()) syncTable(room, model);
}

/** After a table's state: send the kept choice if the table holds another. */
export function syncTable(app, model) {
  const state = model?.state;
  const held = state?.mine?.muck_losing_hands;
  if (!model?.seated || state.tournament || held === undefined) return;
  if (held === muck) {
    sent.delete(model.id);
    return;
  }
  if (sent.get(model.id) === muck) return;
  sent.set(model.id, muck);
  app.socket.send({ type: 'muck_losing_hands', table: model.id, on: muck });
}
