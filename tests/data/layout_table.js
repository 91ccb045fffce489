// What overlaps or leaves the screen on a table page: each seat's cards, plate and tags, the
// bets, the centre (pot, community card, results) and the action bar (tests/test_web_layout.py).
() => {
  const vw = innerWidth, vh = innerHeight;
  const box = (el) => { const r = el.getBoundingClientRect(); return { x: r.left, y: r.top, r: r.right, b: r.bottom }; };
  const visible = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  const parts = [];
  for (const seat of document.querySelectorAll('.table-view .felt .seat')) {
    const who = `seat ${seat.dataset.seat}`;
    for (const [sel, what] of [['.hand-cards', 'cards'], ['.plate', 'plate'], ['.tags', 'tags']]) {
      const el = seat.querySelector(sel);
      if (el && visible(el)) parts.push({ who, what, ...box(el) });
    }
  }
  for (const bet of document.querySelectorAll('.table-view .felt .bet')) {
    if (visible(bet)) parts.push({ who: `bet ${bet.dataset.seat ?? ''}`, what: 'bet', ...box(bet) });
  }
  for (const [sel, what] of [['.felt .centre', 'centre'], ['.action-bar', 'action bar']]) {
    for (const el of document.querySelectorAll(`.table-view ${sel}`)) if (visible(el)) parts.push({ who: what, what, ...box(el) });
  }
  const problems = [];
  const inside = (p) => p.x >= -0.5 && p.y >= -0.5 && p.r <= vw + 0.5 && p.b <= vh + 0.5;
  for (const p of parts) if (!inside(p)) problems.push(`${p.who} ${p.what} leaves the screen: ${JSON.stringify(p)}`);
  const meet = (a, b) => Math.min(a.r, b.r) - Math.max(a.x, b.x) > 1 && Math.min(a.b, b.b) - Math.max(a.y, b.y) > 1;
  for (let i = 0; i < parts.length; i += 1) {
    for (let j = i + 1; j < parts.length; j += 1) {
      const a = parts[i], b = parts[j];
      if (a.who === b.who) continue;  // a seat's own cards, plate and tags are one stack
      if (meet(a, b)) problems.push(`${a.who} ${a.what} overlaps ${b.who} ${b.what}`);
    }
  }
  // Your own plate under your cards, not over them (their DOWN tags show), its clock whole.
  const me = document.querySelector('.table-view .felt .seat.me');
  const plate = me?.querySelector('.plate');
  for (const card of me?.querySelectorAll('.cw') ?? []) {
    if (meet(box(card), box(plate))) problems.push(`your plate covers your card ${card.querySelector('[data-card]')?.dataset.card ?? ''}`);
  }
  for (const el of me?.querySelectorAll('.clock, .clock-text, .clock-bank') ?? []) {
    if (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1 || el.getBoundingClientRect().right > box(plate).r + 0.5) problems.push(`your clock is cut: ${el.textContent}`);
  }
  if (document.scrollingElement.scrollWidth > vw + 1) problems.push(`the page is ${document.scrollingElement.scrollWidth} px wide`);
  return { problems, count: parts.length };
}
