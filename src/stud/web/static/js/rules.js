// The rules of each game, in the page's language (#/rules/stud, #/rules/stud8, #/rules/razz).
//
// The words live in the catalogs (static/i18n/LANG.json, keys rules.*), the page's shape
// here: which sections a game has and which cards each worked example shows, drawn with
// the table's own cards (cards.js). The facts are the rule book's (docs/rules.md).

import { cardSVG } from './cards.js';
import { fill, fromHTML, h } from './dom.js';
import { categoryName, handWords } from './handwords.js';
import { formatChips, t, tOf } from './i18n.js';

export const RULE_GAMES = ['stud', 'stud8', 'razz'];
const ACTIONS = ['fold', 'check', 'bet', 'call', 'raise', 'bring-in', 'complete'];

/** The address of a game's rules page. */
export function rulesHref(game) {
  return `#/rules/${RULE_GAMES.includes(game) ? game : 'stud'}`;
}

/** A link to a game's rules for the table's header: a new tab, so a seated player stays at the table. */
export function rulesLink(game) {
  return h('a', {
    class: 'rules-link', href: rulesHref(game), target: '_blank', rel: 'noopener',
    'aria-label': t('rules.link_label', { game: tOf('game', game) }),
  }, t('rules.link'));
}

/** The lobby's links to the three rules pages. */
export function rulesNav() {
  return h('nav', { class: 'rules-nav', 'aria-label': t('rules.nav_label') },
    h('span', { class: 'muted' }, t('rules.nav_title')), ' ',
    RULE_GAMES.map((g) => h('a', { href: rulesHref(g), dataset: { rules: g } }, tOf('game', g))));
}

// -- pieces of the page --------------------------------------------------------------------

function cards(list, { label = null } = {}) {
  return h('span', { class: 'rules-cards', role: label ? 'group' : null, 'aria-label': label },
    list.map((card) => {
      const down = card.startsWith('_');
      const face = down ? card.slice(1) : card;
      return h('span', { class: `cw${down ? ' down mine' : ''}` }, fromHTML(cardSVG(face === '??' ? null : face)));
    }));
}

/** A worked example: rows of cards, each with what it says. */
function example(rows, caption = null) {
  return h('figure', { class: 'rules-example' },
    rows.map(([list, text]) => h('div', { class: 'rules-row' }, cards(list, { label: text }), h('span', { class: 'rules-says' }, text))),
    caption ? h('figcaption', {}, caption) : null);
}

function section(id, title, ...body) {
  return h('section', { class: 'rules-section', id: `rules-${id}`, 'aria-labelledby': `rules-${id}-h`, tabindex: -1 },
    h('h2', { id: `rules-${id}-h` }, title), body);
}

const p = (text) => h('p', {}, text);
const chips = formatChips;

// -- the sections --------------------------------------------------------------------------

function overview(game) {
  const intro = { stud: t('rules.stud.intro'), stud8: t('rules.stud8.intro'), razz: t('rules.razz.intro') }[game];
  return section('overview', t('rules.h.overview'),
    p(intro),
    p(t('rules.common.limit', { small: chips(2), big: chips(4), players: 8 })));
}

function streets(game) {
  const high = game !== 'razz';
  const item = (title, text) => h('li', {}, h('h3', {}, title), p(text));
  return section('streets', t('rules.h.streets'),
    h('ol', { class: 'rules-streets' },
      item(t('rules.h.antes'), t('rules.common.antes')),
      item(tOf('street', 3), t('rules.common.street3')),
      item(tOf('street', 4), high ? t('rules.high.street4') : t('rules.low.street4')),
      item(tOf('street', 5), t('rules.common.street5')),
      item(tOf('street', 6), t('rules.common.street6')),
      item(tOf('street', 7), t('rules.common.street7')),
      item(t('rules.h.showdown'), t('rules.common.showdown'))),
    example([[['_Ah', '_9c', '5d', 'Kc', '5s', 'Jh', '_2d'], t('rules.common.seven_cards')]]));
}

function bringIn(game) {
  const high = game !== 'razz';
  return section('bringin', t('rules.h.bringin'),
    p(high ? t('rules.high.bringin') : t('rules.low.bringin')),
    p(t('rules.common.suits')),
    high
      ? example([[['2d'], t('rules.high.suit_brings_in')], [['2h'], t('rules.high.suit_waits')]])
      : example([[['Qh'], t('rules.low.suit_brings_in')], [['Qd'], t('rules.low.suit_waits')]]),
    p(t('rules.common.complete')),
    p(t('rules.common.buttons', {
      small: chips(2), big: chips(4), bringin: chips(1),
      bring: tOf('action_to', 'bring-in', { amount: chips(1) }),
      complete: tOf('action_to', 'complete', { amount: chips(2) }),
    })),
    p(t('rules.common.bringin_allin')));
}

function firstToAct(game) {
  const high = game !== 'razz';
  return section('first', t('rules.h.first'),
    p(high ? t('rules.high.first') : t('rules.low.first')),
    high
      ? example([
        [['Kd', 'Ks'], t('rules.high.first_pair')],
        [['Ac', '7h'], t('rules.high.first_ace')],
      ], t('rules.high.first_example'))
      : example([
        [['8s', '4d', '2c'], t('rules.low.first_eight')],
        [['Qh', '5c', '3d'], t('rules.low.first_queen')],
        [['7s', '7h', 'Ad'], t('rules.low.first_pair')],
      ], t('rules.low.first_example')),
    p(t('rules.common.first_tie')));
}

function betting(game) {
  return section('limits', t('rules.h.limits'),
    p(t('rules.common.units', { small: chips(2), big: chips(4) })),
    p(t('rules.common.cap')),
    game === 'stud'
      ? [p(t('rules.stud.open_pair', { small: chips(2), big: chips(4) })),
        example([[['9c', '9d'], t('rules.stud.open_pair_example', { small: chips(2), big: chips(4) })]])]
      : p(t('rules.common.no_open_pair')),
    p(t('rules.common.short_allin')),
    h('h3', {}, t('rules.h.actions')),
    h('dl', { class: 'rules-actions' },
      ACTIONS.map((kind) => [h('dt', {}, tOf('action', kind)), h('dd', {}, tOf('rules.action', kind))])));
}

const HIGH_EXAMPLES = [
  ['straight_flush', ['9h', '8h', '7h', '6h', '5h'], { from: '5', to: '9' }],
  ['four_of_a_kind', ['Qs', 'Qh', 'Qd', 'Qc', '4s'], { quads: 'Q' }],
  ['full_house', ['Kc', 'Kh', 'Ks', '7d', '7s'], { trips: 'K', pair: '7' }],
  ['flush', ['Ad', 'Jd', '8d', '6d', '3d'], { top: 'A' }],
  ['straight', ['Ts', '9d', '8c', '7h', '6s'], { from: '6', to: 'T' }],
  ['three_of_a_kind', ['5c', '5d', '5h', 'Kd', '2s'], { trips: '5' }],
  ['two_pair', ['Jh', 'Jc', '4d', '4s', 'As'], { high: 'J', low: '4' }],
  ['pair', ['8s', '8d', 'Ah', 'Tc', '3h'], { pair: '8' }],
  ['high_card', ['Ac', 'Qd', '9s', '6h', '2c'], { top: 'A' }],
];

function highRanking() {
  return [
    p(t('rules.high.ranking')),
    h('ol', { class: 'rules-ranking' },
      HIGH_EXAMPLES.map(([category, list, ranks]) => h('li', {},
        h('span', { class: 'rules-category' }, categoryName(category)),
        cards(list, { label: handWords({ category, ranks }) }),
        h('span', { class: 'rules-says' }, handWords({ category, ranks }))))),
    p(t('rules.high.best_five')),
  ];
}

const low = (list) => handWords({ category: 'low', cards: list });

function lowRanking(game) {
  const parts = [
    p(t('rules.low.ace_to_five')),
    example([
      [['6s', '4h', '3d', '2c', 'Ah'], t('rules.low.wins', { hand: low(['6', '4', '3', '2', 'A']) })],
      [['6d', '5c', '4s', '3h', '2d'], t('rules.low.loses', { hand: low(['6', '5', '4', '3', '2']) })],
    ], t('rules.low.compare_example')),
    p(t('rules.low.wheel', { cards: '5-4-3-2-A' })),
  ];
  if (game === 'razz') {
    parts.push(
      p(t('rules.razz.pairs')),
      example([
        [['Ks', 'Qd', 'Jc', 'Th', '9s'], t('rules.low.wins', { hand: low(['K', 'Q', 'J', 'T', '9']) })],
        [['2s', '2d', '7c', '6h', '5s'], t('rules.low.loses', { hand: low(['2', '2', '7', '6', '5']) })],
      ], t('rules.razz.pair_example')),
      p(t('rules.razz.seven_cards')),
      example([[['As', 'Ad', '2c', '3h', '4s', '9d', '9c'], t('rules.razz.seven_example', { hand: low(['9', '4', '3', '2', 'A']) })]]));
  }
  return parts;
}

function ranking(game) {
  if (game === 'stud') return section('ranking', t('rules.h.ranking'), highRanking());
  if (game === 'razz') return section('ranking', t('rules.h.ranking'), lowRanking(game));
  return section('ranking', t('rules.h.ranking'),
    h('h3', {}, t('rules.h.high_hands')), highRanking(),
    h('h3', {}, t('rules.h.low_hands')), lowRanking(game),
    p(t('rules.stud8.qualifier')),
    example([
      [['8h', '7c', '6d', '5s', '4h'], t('rules.stud8.qualifies', { hand: low(['8', '7', '6', '5', '4']) })],
      [['9s', '5d', '4c', '3h', '2s'], t('rules.stud8.no_qualify', { hand: low(['9', '5', '4', '3', '2']) })],
    ]),
    p(t('rules.stud8.no_low')),
    p(t('rules.stud8.two_hands')),
    h('h3', {}, t('rules.h.scoop')),
    p(t('rules.stud8.scoop')),
    example([
      [['As', '2d', '3c', '4h', '5s', 'Kd', 'Kh'], t('rules.stud8.scoop_winner', {
        high: handWords({ category: 'straight', ranks: { from: 'A', to: '5' } }), low: low(['5', '4', '3', '2', 'A']),
      })],
      [['Qs', 'Qd', 'Qc', '9h', '8s', 'Jd', '2h'], t('rules.stud8.scoop_loser', {
        high: handWords({ category: 'three_of_a_kind', ranks: { trips: 'Q' } }),
      })],
    ], t('rules.stud8.scoop_example', { pot: chips(60) })),
    h('h3', {}, t('rules.h.quartered')),
    p(t('rules.stud8.quartered')),
    example([
      [['Ah', '2h', '3d', '6h', '7h', 'Jh', 'Kc'], t('rules.stud8.quarter_a', {
        high: handWords({ category: 'flush', ranks: { top: 'A' } }), low: low(['7', '6', '3', '2', 'A']),
      })],
      [['Ac', '2s', '3s', '6d', '7c', 'Qd', 'Qs'], t('rules.stud8.quarter_b', {
        low: low(['7', '6', '3', '2', 'A']),
      })],
    ], t('rules.stud8.quarter_example', { pot: chips(80), a: chips(60), b: chips(20) })));
}

function pots(game) {
  const oddChip = { stud: t('rules.stud.odd_chip'), stud8: t('rules.stud8.odd_chip'), razz: t('rules.razz.odd_chip') }[game];
  return section('pots', t('rules.h.pots'),
    p(t('rules.common.side_pots')),
    p(t('rules.common.side_pot_example', { allin: chips(20), others: chips(50), main: chips(60), side: chips(60) })),
    p(t('rules.common.folded_out')),
    p(t('rules.common.all_in_runout')),
    h('h3', {}, t('rules.h.odd_chips')),
    p(oddChip));
}

function community() {
  return section('community', t('rules.h.community'),
    p(t('rules.common.community', { players: 8, dealt: 48, left: 4 })),
    example([[['Kc'], t('rules.common.community_card')]]));
}

// -- the page ------------------------------------------------------------------------------

export class RulesView {
  constructor(app, game) {
    this.app = app;
    this.game = RULE_GAMES.includes(game) ? game : 'stud';
  }

  /** The tab's title: "How to play Razz". */
  title() {
    return t('rules.title', { game: tOf('game', this.game) });
  }

  mount(container) {
    const game = this.game;
    const name = tOf('game', game);
    const contents = [
      ['overview', t('rules.h.overview')], ['streets', t('rules.h.streets')], ['bringin', t('rules.h.bringin')],
      ['first', t('rules.h.first')], ['limits', t('rules.h.limits')], ['ranking', t('rules.h.ranking')],
      ['pots', t('rules.h.pots')], ['community', t('rules.h.community')],
    ];
    const root = h('article', { class: 'rules', dataset: { game } },
      h('header', { class: 'rules-head' },
        h('h1', {}, t('rules.title', { game: name })),
        h('nav', { class: 'rules-games', 'aria-label': t('rules.games_label') },
          RULE_GAMES.map((g) => h('a', {
            href: rulesHref(g), class: g === game ? 'on' : null, 'aria-current': g === game ? 'page' : null, dataset: { rules: g },
          }, tOf('game', g))))),
      h('nav', { class: 'rules-contents', 'aria-label': t('rules.contents_label') },
        h('ol', {}, contents.map(([id, title]) => h('li', {}, h('a', {
          href: `#/rules/${game}`, dataset: { section: id }, onclick: (e) => { e.preventDefault(); this.show(id); },
        }, title))))),
      overview(game), streets(game), bringIn(game), firstToAct(game), betting(game), ranking(game), pots(game), community());
    this.root = root;
    fill(container, root);
    window.scrollTo(0, 0);
  }

  /** Bring a section into view and move the keyboard's focus to it. */
  show(id) {
    const target = this.root.querySelector(`#rules-${id}`);
    target?.scrollIntoView({ block: 'start' });
    target?.focus({ preventScroll: true });
  }

  unmount() {}
}
