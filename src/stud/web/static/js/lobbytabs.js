// The lobby's tabs: cash tables (#/lobby) and tournaments (#/tournaments). A real tab
// list: role=tab, one tab in the keyboard's Tab order, the arrow keys (and Home, End)
// move between tabs and open them, and the focus stays on the tab chosen.

import { h } from './dom.js';
import { t } from './i18n.js';

const TABS = [
  { name: 'cash', href: '#/lobby', label: () => t('tourney.tab.cash') },
  { name: 'tournaments', href: '#/tournaments', label: () => t('tourney.tab.tournaments') },
];

let focusNext = null; // the tab to focus once the page it opened is drawn

/** The tab list with `current` chosen; `panel` (the lobby's element) becomes its tab panel. */
export function lobbyTabs(current, panel) {
  const panelId = 'lobby-panel';
  panel.id = panelId;
  panel.setAttribute('role', 'tabpanel');
  panel.setAttribute('aria-labelledby', `lobby-tab-${current}`);
  const open = (tab, focus) => {
    if (focus) focusNext = tab.name;
    if (location.hash !== tab.href) location.hash = tab.href;
    else if (focus) focusChosen();
  };
  const buttons = TABS.map((tab, index) => h('button', {
    type: 'button', role: 'tab', id: `lobby-tab-${tab.name}`, class: `lobby-tab${tab.name === current ? ' on' : ''}`,
    'aria-selected': tab.name === current ? 'true' : 'false', 'aria-controls': panelId,
    tabindex: tab.name === current ? 0 : -1, dataset: { tab: tab.name },
    onclick: () => open(tab, false),
    onkeydown: (e) => {
      const to = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: TABS.length - 1 }[e.key];
      if (to === undefined) return;
      e.preventDefault();
      open(TABS[(to + TABS.length) % TABS.length], true);
    },
  }, tab.label()));
  queueMicrotask(focusChosen);
  return h('div', { class: 'lobby-tabs', role: 'tablist', 'aria-label': t('tourney.tab.label') }, buttons);
}

function focusChosen() {
  if (!focusNext) return;
  const el = document.getElementById(`lobby-tab-${focusNext}`);
  if (el?.isConnected) {
    el.focus();
    focusNext = null;
  }
}

