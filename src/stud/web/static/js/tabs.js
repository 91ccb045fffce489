// Tabs as assistive technology knows them (WAI-ARIA tabs pattern): a tablist of tab
// buttons, one tab selected (aria-selected, the only one in the Tab order), arrow keys,
// Home and End move between tabs and select them; the panel is a tabpanel named by the
// selected tab.

import { h } from './dom.js';

let serial = 0;

/**
 * A tab list. `tabs`: [{id, label, attrs}]; `selected`: the id chosen first; `label`: the
 * list's accessible name; `onSelect(id)` when the person picks another tab; `panel`: the
 * element shown under it (made its tabpanel). Returns {list, select(id), relabel(tabs)}.
 */
export function tabList({ tabs, selected, label, onSelect, panel, cls = '' }) {
  serial += 1;
  const base = `tabs-${serial}`;
  const buttons = new Map();
  let current = selected;
  const list = h('div', { class: `tablist ${cls}`.trim(), role: 'tablist', 'aria-label': label });
  panel.id ||= `${base}-panel`;
  panel.setAttribute('role', 'tabpanel');
  panel.setAttribute('tabindex', '0');
  for (const tab of tabs) {
    const button = h('button', {
      type: 'button', role: 'tab', id: `${base}-${tab.id || 'all'}`, class: 'tab', 'aria-controls': panel.id,
      onclick: () => choose(tab.id, false),
      ...tab.attrs,
    }, tab.label);
    buttons.set(tab.id, button);
    list.append(button);
  }
  list.addEventListener('keydown', (e) => {
    const ids = [...buttons.keys()];
    const at = ids.indexOf(current);
    const to = { ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1, Home: 0, End: ids.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    choose(ids[(to + ids.length) % ids.length], true);
  });
  function show() {
    for (const [id, button] of buttons) {
      const on = id === current;
      button.setAttribute('aria-selected', String(on));
      button.tabIndex = on ? 0 : -1;
      button.classList.toggle('on', on);
    }
    panel.setAttribute('aria-labelledby', buttons.get(current)?.id ?? '');
  }
  function choose(id, focus) {
    if (!buttons.has(id)) return;
    const changed = id !== current;
    current = id;
    show();
    if (focus) buttons.get(id).focus();
    if (changed) onSelect(id);
  }
  show();
  return {
    list,
    select: (id) => { current = id; show(); },
    relabel: (labels) => { for (const [id, text] of Object.entries(labels)) if (buttons.has(id)) buttons.get(id).textContent = text; },
  };
}
