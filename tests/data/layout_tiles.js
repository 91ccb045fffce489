// Each tile inside the screen, and inside each tile no part of one seat over another's or past
// the tile's edge (tests/test_web_layout.py).
() => {
  const vw = innerWidth, vh = innerHeight;
  const box = (el) => { const r = el.getBoundingClientRect(); return { x: r.left, y: r.top, r: r.right, b: r.bottom }; };
  const meet = (a, b) => Math.min(a.r, b.r) - Math.max(a.x, b.x) > 1 && Math.min(a.b, b.b) - Math.max(a.y, b.y) > 1;
  const within = (a, o) => a.x >= o.x - 0.5 && a.y >= o.y - 0.5 && a.r <= o.r + 0.5 && a.b <= o.b + 0.5;
  const problems = [];
  document.querySelectorAll('.tile').forEach((tile, t) => {
    const edge = box(tile);
    if (!within(edge, { x: 0, y: 0, r: vw, b: vh })) problems.push(`tile ${t} leaves the screen: ${JSON.stringify(edge)}`);
    const parts = [];
    for (const seat of tile.querySelectorAll('.felt .seat')) {
      for (const sel of ['.hand-cards', '.plate', '.tags']) {
        const el = seat.querySelector(sel);
        if (el && el.getBoundingClientRect().width > 0) parts.push({ who: `seat ${seat.dataset.seat}`, what: sel, ...box(el) });
      }
    }
    for (const bet of tile.querySelectorAll('.felt .bet')) parts.push({ who: `bet ${bet.dataset.seat ?? ''}`, what: 'bet', ...box(bet) });
    for (const el of tile.querySelectorAll('.felt .centre, .action-bar')) parts.push({ who: el.className, what: '', ...box(el) });
    for (const p of parts) if (!within(p, edge)) problems.push(`tile ${t}: ${p.who} ${p.what} leaves the tile`);
    for (let i = 0; i < parts.length; i += 1) for (let j = i + 1; j < parts.length; j += 1) {
      const a = parts[i], b = parts[j];
      if (a.who !== b.who && meet(a, b)) problems.push(`tile ${t}: ${a.who} ${a.what} overlaps ${b.who} ${b.what}`);
    }
  });
  return problems;
}
