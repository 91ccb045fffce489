// The operator's desk (#/admin, docs/admin.md): for a moderator or an admin only. A live
// view of the room (tables, tournaments, who is connected, players' reports, the audit
// log), drawn again every few seconds, and the actions of /api/admin/...: find an account,
// ban, mute, grant chips, change a role, close a table, call a tournament off. Every
// action asks for a reason (written in the audit log). A table opens as a spectator sees it.

import { ApiError, request } from './api.js';
import { h, fill } from './dom.js';
import { requestErrorText } from './errortext.js';
import { chips, gameName } from './format.js';
import { formatDate, t } from './i18n.js';

const REFRESH_MS = 5000;
const enc = encodeURIComponent;

export const adminApi = {
  overview: () => request('GET', '/api/admin/overview'),
  accounts: (search) => request('GET', `/api/admin/accounts?search=${enc(search)}`),
  ledger: (name) => request('GET', `/api/admin/accounts/${enc(name)}/ledger`),
  act: (name, what, body) => request('POST', `/api/admin/accounts/${enc(name)}/${what}`, body),
  closeTable: (id, reason) => request('POST', `/api/admin/tables/${id}/close`, { reason }),
  cancelTournament: (id, reason) => request('POST', `/api/admin/tournaments/${id}/cancel`, { reason }),
  resolve: (id, reason) => request('POST', `/api/admin/reports/${id}/resolve`, { reason }),
};

/** The words of an audit row's action. */
function actionWords(action) {
  switch (action) {
    case 'role': return t('admin.did.role');
    case 'grant': return t('admin.did.grant');
    case 'ban': return t('admin.did.ban');
    case 'unban': return t('admin.did.unban');
    case 'mute': return t('admin.did.mute');
    case 'unmute': return t('admin.did.unmute');
    case 'close_table': return t('admin.did.close_table');
    case 'cancel_tournament': return t('admin.did.cancel_tournament');
    case 'resolve_report': return t('admin.did.resolve_report');
    default: return action;
  }
}

function roleWords(role) {
  if (role === 'admin') return t('admin.role.admin');
  if (role === 'moderator') return t('admin.role.moderator');
  return t('admin.role.player');
}

function table(caption, heads, rows) {
  return h('table', { class: 'admin-table' },
    h('caption', { class: 'visually-hidden' }, caption),
    h('thead', {}, h('tr', {}, heads.map((x) => h('th', { scope: 'col' }, x)))),
    h('tbody', {}, rows));
}

export class AdminView {
  constructor(app) {
    this.app = app;
    this.timer = null;
    this.data = null;
    this.found = null;
    this.ledger = null;
    this.reason = h('input', { id: 'admin-reason', name: 'reason', maxlength: 500, autocomplete: 'off', placeholder: t('admin.reason_placeholder') });
    this.status = h('p', { class: 'admin-status', role: 'status', 'aria-live': 'polite' });
    this.search = h('input', { name: 'search', maxlength: 64, autocomplete: 'off', 'aria-label': t('admin.search_label'), placeholder: t('admin.search_placeholder') });
    this.body = h('div', { class: 'admin-body' }, h('p', { class: 'muted' }, t('admin.loading')));
    this.root = h('section', { class: 'admin', 'aria-labelledby': 'admin-title' },
      h('div', { class: 'lobby-head' }, h('h1', { id: 'admin-title' }, t('admin.title')), h('a', { class: 'btn ghost', href: '#/lobby' }, t('nav.back_to_lobby'))),
      this.body);
  }

  title() {
    return t('admin.title');
  }

  mount(container) {
    fill(container, this.root);
    this.load();
    this.timer = setInterval(() => this.load(), REFRESH_MS);
  }

  unmount() {
    clearInterval(this.timer);
  }

  get isAdmin() {
    return this.data?.me?.role === 'admin';
  }

  async load() {
    if (!this.app.account) {
      fill(this.body, h('p', {}, t('admin.staff_only')));
      return;
    }
    try {
      this.data = await adminApi.overview();
    } catch (error) {
      const refused = error instanceof ApiError && [401, 403].includes(error.status);
      fill(this.body, h('p', { class: refused ? '' : 'form-error' }, refused ? t('admin.staff_only') : requestErrorText(error)));
      return;
    }
    this.draw();
  }

  /** Run an action with the reason given; say what happened; draw the room again. */
  async act(run, done) {
    const reason = this.reason.value.trim();
    if (!reason) {
      this.say(t('admin.reason_needed'), true);
      this.reason.focus();
      return;
    }
    try {
      await run(reason);
    } catch (error) {
      this.say(requestErrorText(error), true);
      return;
    }
    this.say(done, false);
    if (this.search.value.trim()) await this.find();
    await this.load();
  }

  say(text, bad) {
    this.status.textContent = text;
    this.status.classList.toggle('form-error', bad);
  }

  async find() {
    try {
      this.found = (await adminApi.accounts(this.search.value.trim())).accounts;
    } catch (error) {
      this.say(requestErrorText(error), true);
      return;
    }
    this.draw();
  }

  async showLedger(name) {
    try {
      this.ledger = await adminApi.ledger(name);
    } catch (error) {
      this.say(requestErrorText(error), true);
      return;
    }
    this.draw();
  }

  draw() {
    const d = this.data;
    if (!d) return;
    const focused = this.root.contains(document.activeElement) ? document.activeElement : null;
    fill(this.body,
      h('p', { class: 'muted admin-me' }, t('admin.signed_in_as', { name: d.me.name, role: roleWords(d.me.role) })),
      h('div', { class: 'admin-reason' }, h('label', { for: 'admin-reason' }, t('admin.reason_label')), ' ', this.reason),
      this.status,
      this.section('admin-reports', t('admin.reports'), this.reports(d.reports)),
      this.section('admin-accounts', t('admin.accounts'), this.accounts()),
      this.section('admin-tables', t('admin.tables'), this.tables(d.tables)),
      this.section('admin-tournaments', t('admin.tournaments'), this.tournaments(d.tournaments)),
      this.section('admin-connected', t('admin.connected'), this.connected(d.connected)),
      this.section('admin-audit', t('admin.audit'), this.audit(d.audit)));
    if (focused && focused !== document.activeElement && this.root.contains(focused)) focused.focus();
  }

  section(id, title, ...content) {
    return h('section', { class: 'admin-part', 'aria-labelledby': id }, h('h2', { id }, title), content);
  }

  reports(reports) {
    if (!reports.length) return h('p', { class: 'muted' }, t('admin.no_reports'));
    return h('ol', { class: 'admin-reports' }, reports.map((r) => h('li', { class: 'admin-report' },
      h('p', {}, t('admin.report_line', { reporter: r.reporter, account: r.account, table: r.table, when: formatDate(r.at, 'datetime') })),
      r.line ? h('blockquote', { translate: 'no' }, r.line) : null,
      r.reason ? h('p', { class: 'muted' }, t('admin.report_reason', { reason: r.reason })) : null,
      r.context.length
        ? h('details', {}, h('summary', {}, t('admin.chat_context', { count: r.context.length })),
          h('ul', { class: 'admin-context' }, r.context.map((c) => h('li', {}, h('b', { translate: 'no' }, c.name), ': ', h('span', { translate: 'no' }, c.text)))))
        : null,
      h('div', { class: 'admin-actions' },
        this.button(t('admin.mute_hour'), () => this.act((why) => adminApi.act(r.account, 'mute', { reason: why, minutes: 60 }), t('admin.done'))),
        this.button(t('admin.ban_day'), () => this.act((why) => adminApi.act(r.account, 'ban', { reason: why, minutes: 1440 }), t('admin.done'))),
        this.button(t('admin.resolve'), () => this.act((why) => adminApi.resolve(r.id, why), t('admin.done')))))));
  }

  accounts() {
    const form = h('form', { class: 'admin-search', onsubmit: (e) => { e.preventDefault(); this.find(); } },
      this.search, ' ', h('button', { class: 'btn small', type: 'submit' }, t('admin.search')));
    const parts = [form];
    if (this.found) {
      parts.push(this.found.length ? table(t('admin.accounts'),
        [t('admin.col.name'), t('admin.col.role'), t('admin.col.balance'), t('admin.col.status'), t('admin.col.actions')],
        this.found.map((a) => this.accountRow(a))) : h('p', { class: 'muted' }, t('admin.no_accounts')));
    }
    if (this.ledger) {
      parts.push(h('h3', {}, t('admin.ledger_of', { name: this.ledger.account })),
        table(t('admin.ledger_of', { name: this.ledger.account }),
          [t('admin.col.when'), t('admin.col.kind'), t('admin.col.wallet'), t('admin.col.amount')],
          this.ledger.ledger.map((l) => h('tr', {}, h('td', {}, formatDate(l.at, 'datetime')), h('td', {}, l.kind), h('td', {}, l.wallet), h('td', { class: 'num' }, chips(l.amount))))));
    }
    return parts;
  }

  accountRow(a) {
    const status = [];
    if (a.banned) status.push(a.banned_until ? t('admin.banned_until', { when: formatDate(a.banned_until, 'datetime') }) : t('admin.banned'));
    if (a.muted_until) status.push(t('admin.muted_until', { when: formatDate(a.muted_until, 'datetime') }));
    const amount = h('input', { type: 'number', class: 'admin-amount', 'aria-label': t('admin.amount_label', { name: a.name }), step: 1 });
    const role = h('select', { 'aria-label': t('admin.role_label', { name: a.name }) },
      ['player', 'moderator', 'admin'].map((r) => h('option', { value: r, selected: r === a.role }, roleWords(r))));
    const done = t('admin.done');
    return h('tr', { dataset: { account: a.name } },
      h('th', { scope: 'row', translate: 'no' }, a.name),
      h('td', {}, roleWords(a.role)),
      h('td', { class: 'num' }, chips(a.balance), a.at_tables ? h('small', { class: 'muted' }, ' ', t('account.at_tables', { amount: chips(a.at_tables) })) : null),
      h('td', {}, status.join(' · ') || t('admin.in_good_standing')),
      h('td', { class: 'admin-actions' },
        a.banned
          ? this.button(t('admin.unban'), () => this.act((why) => adminApi.act(a.name, 'unban', { reason: why }), done))
          : this.button(t('admin.ban'), () => this.act((why) => adminApi.act(a.name, 'ban', { reason: why }), done)),
        a.muted_until
          ? this.button(t('admin.unmute'), () => this.act((why) => adminApi.act(a.name, 'mute', { reason: why, minutes: 0 }), done))
          : this.button(t('admin.mute_hour'), () => this.act((why) => adminApi.act(a.name, 'mute', { reason: why, minutes: 60 }), done)),
        this.button(t('admin.show_ledger'), () => this.showLedger(a.name)),
        this.isAdmin ? [amount, this.button(t('admin.grant'), () => this.act((why) => adminApi.act(a.name, 'grant', { reason: why, amount: Number(amount.value) }), done))] : null,
        this.isAdmin ? [role, this.button(t('admin.set_role'), () => this.act((why) => adminApi.act(a.name, 'role', { reason: why, role: role.value }), done))] : null));
  }

  tables(tables) {
    if (!tables.length) return h('p', { class: 'muted' }, t('admin.no_tables'));
    return table(t('admin.tables'),
      [t('admin.col.table'), t('admin.col.game'), t('admin.col.players'), t('admin.col.watchers'), t('admin.col.actions')],
      tables.map((x) => h('tr', {},
        h('th', { scope: 'row', translate: 'no' }, `${x.id} · ${x.name}`),
        h('td', {}, gameName(x.game)),
        h('td', {}, t('admin.seats_taken', { taken: x.seats_taken, seats: x.seats })),
        h('td', { class: 'num' }, String(x.watchers ?? 0)),
        h('td', { class: 'admin-actions' },
          h('a', { class: 'btn small ghost', href: `#/table/${x.id}` }, t('admin.watch')),
          this.isAdmin ? this.button(t('admin.close_table'), () => this.act((why) => adminApi.closeTable(x.id, why), t('admin.done'))) : null))));
  }

  tournaments(rows) {
    if (!rows.length) return h('p', { class: 'muted' }, t('admin.no_tournaments'));
    return table(t('admin.tournaments'),
      [t('admin.col.tournament'), t('admin.col.game'), t('admin.col.state'), t('admin.col.entrants'), t('admin.col.actions')],
      rows.map((x) => h('tr', {},
        h('th', { scope: 'row', translate: 'no' }, `${x.id} · ${x.name}`),
        h('td', {}, gameName(x.game)),
        h('td', {}, x.state),
        h('td', { class: 'num' }, String(x.entrants ?? 0)),
        h('td', { class: 'admin-actions' },
          h('a', { class: 'btn small ghost', href: `#/tournament/${x.id}` }, t('admin.open')),
          this.isAdmin && ['registering', 'late_registration', 'running'].includes(x.state)
            ? this.button(t('admin.cancel_tournament'), () => this.act((why) => adminApi.cancelTournament(x.id, why), t('admin.done')))
            : null))));
  }

  connected(people) {
    if (!people.length) return h('p', { class: 'muted' }, t('admin.nobody_connected'));
    return h('ul', { class: 'admin-connected' }, people.map((p) => h('li', { translate: 'no' }, p.name)));
  }

  audit(rows) {
    if (!rows.length) return h('p', { class: 'muted' }, t('admin.no_audit'));
    return table(t('admin.audit'),
      [t('admin.col.when'), t('admin.col.who'), t('admin.col.action'), t('admin.col.target'), t('admin.col.reason')],
      rows.map((r) => h('tr', {},
        h('td', {}, formatDate(r.at, 'datetime')),
        h('td', { translate: 'no' }, r.actor),
        h('td', {}, actionWords(r.action)),
        h('td', { translate: 'no' }, r.target),
        h('td', {}, r.reason))));
  }

  button(text, onclick) {
    return h('button', { class: 'btn small', type: 'button', onclick }, text);
  }
}
