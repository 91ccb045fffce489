// The server's REST side: accounts, lobby, hand histories (see /docs on the server).

export class ApiError extends Error {
  constructor(status, message, code = null) {
    super(message);
    this.status = status;
    this.code = code; // the server's error code ({"detail", "code"}), when it sent one
  }
}

function detail(data, status) {
  const d = data?.detail;
  if (typeof d === 'string') return d;
  if (Array.isArray(d) && d.length) {
    return d.map((e) => `${(e.loc ?? []).slice(1).join('.') || 'input'}: ${e.msg}`).join('; ');
  }
  return `request failed (${status})`;
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
  if (!response.ok) throw new ApiError(response.status, detail(data, response.status), data?.code ?? null);
  return data;
}

export const api = {
  me: () => request('GET', '/api/me'),
  register: (name, password) => request('POST', '/api/register', { name, password }),
  login: (name, password) => request('POST', '/api/login', { name, password }),
  guest: () => request('POST', '/api/guest'),
  registerGuest: (name, password) => request('POST', '/api/register-guest', { name, password }),
  logout: () => request('POST', '/api/logout'),
  tables: (game) => request('GET', game ? `/api/tables?game=${encodeURIComponent(game)}` : '/api/tables'),
  table: (id) => request('GET', `/api/tables/${id}`),
  createTable: (spec) => request('POST', '/api/tables', spec),
  tableHands: (id) => request('GET', `/api/tables/${id}/hands`),
  myHands: () => request('GET', '/api/me/hands'),
  language: () => request('GET', '/api/me/language'),
  setLanguage: (language) => request('PUT', '/api/me/language', { language }),
  hand: (id) => request('GET', `/api/hands/${id}`),
  replay: (id) => request('GET', `/api/hands/${id}/replay`),
};

export const downloads = {
  phh: (id) => `/api/hands/${id}/phh`,
  pokerstars: (id) => `/api/hands/${id}/pokerstars`,
};
