// The tournament room's REST side (docs/rest.md, Tournaments): the list, one
// tournament's page, creating a Sit & Go, registering, and filling one with bots.

import { request } from './api.js';

export const tourneyApi = {
  list: () => request('GET', '/api/tournaments'),
  get: (id) => request('GET', `/api/tournaments/${id}`),
  create: (spec) => request('POST', '/api/tournaments', spec),
  register: (id) => request('POST', `/api/tournaments/${id}/register`),
  unregister: (id) => request('DELETE', `/api/tournaments/${id}/register`),
  fill: (id) => request('POST', `/api/tournaments/${id}/fill`),
};

