// The server's REST side: accounts, lobby, hand histories (see /docs on the server).
// A refused request is an ApiError carrying the server's machine `code` (docs/rest.md,
// "REST errors"), the values its words need (`params`) and, for a 422 on the request's
// shape, the fields at fault: the page words them (errortext.js), never the server's English.

export class ApiError extends Error {
  constructor(status, { code = null, params = {}, fields = [], detail = '' } = {}) {
    super(detail || `HTTP ${status}`); // the server's English, for the console only
    this.status = status;
    this.code = code;
    this.params = params;
    this.fields = fields;
  }
}

function refusal(data, status) {
  const d = data?.detail;
  const fields = Array.isArray(d) ? d.map((e) => String((e.loc ?? []).slice(1).join('.'))).filter(Boolean) : [];
  return new ApiError(status, {
    code: typeof data?.code === 'string' ? data.code : null,
    params: data?.params && typeof data.params === 'object' ? data.params : {},
    fields,
    detail: typeof d === 'string' ? d : JSON.stringify(d ?? null),
  });
}

/** One JSON request to the server; an ApiError (with the server's words and code) when refused. */
export async function request(method, path, body) {
  const init = { method, credentials: 'same-origin', headers: {} };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) throw refusal(data, response.status);
  return data;
}

export const api = {
  me: () => request('GET', '/api/me'),
  topUp: () => request('POST', '/api/me/top-up'),
  register: (name, password) => request('POST', '/api/register', { name, password }),
  login: (name, password) => request('POST', '/api/login', { name, password }),
  guest: () => request('POST', '/api/guest'),
  registerGuest: (name, password) => request('POST', '/api/register-guest', { name, password }),
  logout: () => request('POST', '/api/logout'),
  logoutEverywhere: () => request('POST', '/api/logout-everywhere'),
  tables: (game) => request('GET', game ? `/api/tables?game=${encodeURIComponent(game)}` : '/api/tables'),
  table: (id) => request('GET', `/api/tables/${id}`),
  createTable: (spec) => request('POST', '/api/tables', spec),
  tableHands: (id) => request('GET', `/api/tables/${id}/hands`),
  myHands: () => request('GET', '/api/me/hands'),
  language: () => request('GET', '/api/me/language'),
  setLanguage: (language) => request('PUT', '/api/me/language', { language }),
  preferences: () => request('GET', '/api/me/preferences'),
  setPreferences: (choices) => request('PUT', '/api/me/preferences', choices),
  hand: (id) => request('GET', `/api/hands/${id}`),
  replay: (id) => request('GET', `/api/hands/${id}/replay`),
  equity: (id) => request('GET', `/api/hands/${id}/equity`),
  imports: () => request('GET', '/api/me/imports'),
  importedReplay: (id) => request('GET', `/api/me/imports/${id}/replay`),
  importedEquity: (id) => request('GET', `/api/me/imports/${id}/equity`),
  importHands: (files) => upload('/api/me/imports', files),
  notes: () => request('GET', '/api/me/notes'),
  setNote: (id, text, color) => request('PUT', `/api/players/${id}/note`, { text, color }),
  stats: (id) => request('GET', `/api/players/${id}/stats`),
};

/** Files to the server as multipart/form-data (field `files`); an ApiError when refused. */
export async function upload(path, files) {
  const body = new FormData();
  for (const file of files) body.append('files', file, file.name);
  const response = await fetch(path, { method: 'POST', credentials: 'same-origin', body });
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) throw refusal(data, response.status);
  return data;
}

export const downloads = {
  phh: (id) => `/api/hands/${id}/phh`,
  pokerstars: (id) => `/api/hands/${id}/pokerstars`,
};
