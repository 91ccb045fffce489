// Several tables at once (#/tables/3,5 or #/tables for every table you sit at):
// each table is a tile with its own felt, action bar and pre-action boxes; a tile
// whose turn it is lights up, and keys go to the tile under the mouse or focus,
// else to the turn that came first. Turns at tables off the screen still raise
// the alert banner above.

import { h, fill } from './dom.js';
import { t } from './i18n.js';
import { TableView } from './tableview.js';
import { parseTableId } from './tourneywords.js';

/** The table ids of `#/tables/<ids>`, or every table the account sits at. */
export function tileIds(list, app) {
  const ids = (list ?? '').split(',').map(parseTableId).filter((id) => id !== null); // tournament tables too
  return [...new Set(ids.length ? ids : app.seatedTables().map((m) => m.id))].slice(0, 8);
}

export class TilesView {
  constructor(app, ids) {
    this.app = app;
    this.ids = ids;
    this.views = [];
    this.root = h('section', { class: 'tiles-view' });
  }

  title() {
    return t('tiles.title');
  }

  shows(id) {
    return this.ids.includes(id);
  }

  mount(container) {
    fill(container, this.root);
    if (!this.ids.length) {
      fill(this.root, h('div', { class: 'tiles-empty' },
        h('h1', {}, t('tiles.title')),
        h('p', { class: 'muted' }, t('tiles.empty')),
        h('a', { class: 'btn primary', href: '#/lobby' }, t('lobby.title'))));
      return;
    }
    const grid = h('div', { class: 'tiles', dataset: { count: this.ids.length } });
    fill(this.root, h('div', { class: 'tiles-head' }, h('h1', {}, t('tiles.title')),
      h('a', { class: 'btn ghost', href: '#/lobby' }, t('nav.back_to_lobby'))), grid);
    for (const id of this.ids) {
      const slot = h('div', { class: 'tile', dataset: { table: id } });
      grid.append(slot);
      const view = new TableView(this.app, this.app.model(id), { tile: true });
      view.mount(slot);
      this.views.push(view);
    }
  }

  unmount() {
    for (const view of this.views) view.unmount();
    this.views = [];
  }
}
