// Shared helpers for every tilebag page: the board layout and tile set (English), clock
// formatting, the overtime penalty, a tiny DOM builder and the JSON API.

/** Column letters of the 15×15 board (GCG: `8D` is across, `D8` is down). */
export const COLS = 'ABCDEFGHIJKLMNO';
export const SIZE = 15;

// = triple word, - double word, " triple letter, ' double letter (as in tilebag-core's Layout).
const LAYOUT = [
  "=  '   =   '  =",
  ' -   "   "   - ',
  "  -   ' '   -  ",
  "'  -   '   -  '",
  '    -     -    ',
  ' "   "   "   " ',
  "  '   ' '   '  ",
  "=  '   -   '  =",
  "  '   ' '   '  ",
  ' "   "   "   " ',
  '    -     -    ',
  "'  -   '   -  '",
  "  -   ' '   -  ",
  ' -   "   "   - ',
  "=  '   =   '  =",
];

/** The premium of a square: 'tw', 'dw', 'tl', 'dl' or ''. */
export function premiumAt(r, c) {
  switch (LAYOUT[r][c]) {
    case '=': return 'tw';
    case '-': return 'dw';
    case '"': return 'tl';
    case "'": return 'dl';
    default: return '';
  }
}

export const PREMIUM_NAMES = {
  tw: 'triple word', dw: 'double word', tl: 'triple letter', dl: 'double letter', '': '',
};

/** English tile set: count and value per letter, `?` the blank (NASPA III.A.2, WESPA 1.3). */
export const TILES = {
  A: [9, 1], B: [2, 3], C: [2, 3], D: [4, 2], E: [12, 1], F: [2, 4], G: [3, 2], H: [2, 4],
  I: [9, 1], J: [1, 8], K: [1, 5], L: [4, 1], M: [2, 3], N: [6, 1], O: [8, 1], P: [2, 3],
  Q: [1, 10], R: [6, 1], S: [4, 1], T: [6, 1], U: [4, 1], V: [2, 4], W: [2, 4], X: [1, 8],
  Y: [2, 4], Z: [1, 10], '?': [2, 0],
};

/** The value of a tile as shown on a rack (`?` is a blank) or the board (lowercase is a blank). */
export function tileValue(ch) {
  if (ch === '?' || (ch >= 'a' && ch <= 'z')) return 0;
  return TILES[ch] ? TILES[ch][1] : 0;
}

const VOWELS = new Set(['A', 'E', 'I', 'O', 'U']);

/** Unseen tiles for someone who sees only the board: the full set minus the board's tiles. */
export function unseenFromBoard(rows) {
  const left = {};
  for (const [ch, [n]] of Object.entries(TILES)) left[ch] = n;
  for (const row of rows) {
    for (const ch of row) {
      if (ch === '.') continue;
      const key = ch >= 'a' && ch <= 'z' ? '?' : ch;
      if (left[key] > 0) left[key] -= 1;
    }
  }
  let s = '';
  for (const ch of Object.keys(TILES).sort(tileOrder)) s += ch.repeat(left[ch]);
  return s;
}

/** Letters first (A–Z), the blank last: the order the server sorts racks in. */
export function tileOrder(a, b) {
  if (a === b) return 0;
  if (a === '?') return 1;
  if (b === '?') return -1;
  return a < b ? -1 : 1;
}

/** Render a tile string (`AAB?`) as a tracking grid: each letter with how many remain. */
export function renderTracking(container, tiles, caption) {
  const counts = new Map();
  for (const ch of tiles) counts.set(ch, (counts.get(ch) || 0) + 1);
  let vowels = 0;
  let consonants = 0;
  for (const [ch, n] of counts) {
    if (ch === '?') continue;
    if (VOWELS.has(ch)) vowels += n; else consonants += n;
  }
  container.replaceChildren();
  const list = el('ul', { class: 'tracking-list', 'aria-label': caption });
  for (const ch of Object.keys(TILES).sort(tileOrder)) {
    const n = counts.get(ch) || 0;
    if (n === 0) continue;
    list.append(el('li', { 'aria-label': `${ch === '?' ? 'blank' : ch}: ${n}` },
      el('span', { class: 'tr-letter' }, ch), el('span', { class: 'tr-count' }, String(n))));
  }
  container.append(
    el('p', { class: 'tracking-summary' },
      `${tiles.length} unseen · ${vowels} vowels · ${consonants} consonants` +
      (counts.get('?') ? ` · ${counts.get('?')} blank${counts.get('?') > 1 ? 's' : ''}` : '')),
    list);
}

/**
 * A clock reading: `m:ss` counting down, `−m:ss` in overtime. A positive remainder is rounded
 * up (0.3 s left shows 0:01), overtime is rounded down (−0.5 s shows −0:00, which costs nothing,
 * as in NASPA V.G.2).
 */
export function fmtClock(ms) {
  const neg = ms < 0;
  const secs = neg ? Math.floor(-ms / 1000) : Math.ceil(ms / 1000);
  const m = Math.floor(secs / 60);
  const s = secs % 60;
  return `${neg ? '\u2212' : ''}${m}:${String(s).padStart(2, '0')}`;
}

/** Points lost for a clock at `ms`: `perMinute` per started minute past zero (−0:01 costs one). */
export function overtimePenalty(ms, perMinute) {
  if (ms >= 0) return 0;
  const secs = Math.floor(-ms / 1000);
  if (secs === 0) return 0;
  return Math.ceil(secs / 60) * perMinute;
}

/** Format a signed score the way GCG does: `+24`, `-7`, `+0`. */
export function signed(n) {
  return n < 0 ? `-${-n}` : `+${n}`;
}

/** Create an element: `el('button', {class: 'x', onclick: f}, 'text', child)`. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') node.addEventListener(k.slice(2), v);
    else if (k === 'class') node.className = v;
    else if (k === 'dataset') Object.assign(node.dataset, v);
    else if (v === true) node.setAttribute(k, '');
    else node.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

/** An SVG element. */
export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  for (const c of children.flat()) {
    if (c === undefined || c === null) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

/** Call the JSON API. Resolves to the parsed body; rejects with an Error carrying the message. */
export async function api(path, options = {}) {
  const init = { ...options, headers: { Accept: 'application/json', ...(options.headers || {}) } };
  if (options.json !== undefined) {
    init.method = init.method || 'POST';
    init.body = JSON.stringify(options.json);
    init.headers['Content-Type'] = 'application/json';
    delete init.json;
  }
  const res = await fetch(path, init);
  const text = await res.text();
  let body = null;
  try { body = text ? JSON.parse(text) : null; } catch { body = null; }
  if (!res.ok) {
    const err = new Error((body && body.message) || `${res.status} ${res.statusText}`);
    err.status = res.status;
    err.code = body && body.code;
    throw err;
  }
  return body;
}

/** Offer `text` as a file download named `name`. */
export function download(name, text, type = 'text/plain;charset=utf-8') {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = el('a', { href: url, download: name, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The squares a GCG play covers: `8D` across starts at row 8 column D, `D8` down. */
export function playSquares(position, word) {
  const m = /^\s*(?:(\d{1,2})([A-Oa-o])|([A-Oa-o])(\d{1,2}))\s*$/.exec(position || '');
  if (!m) return [];
  const across = m[1] !== undefined;
  const r0 = Number(across ? m[1] : m[4]) - 1;
  const c0 = COLS.indexOf((across ? m[2] : m[3]).toUpperCase());
  const out = [];
  for (let i = 0; i < [...word].length; i++) {
    const r = across ? r0 : r0 + i;
    const c = across ? c0 + i : c0;
    if (r < SIZE && c < SIZE) out.push([r, c]);
  }
  return out;
}

/**
 * A played word as a person reads it: the whole word, the letters played through in a lighter
 * style, blanks marked. `word` is GCG (`.` for a letter already on the board); `charAt(r, c)`
 * reads the board the word was played on (`.` for an empty square).
 */
export function wordNode(position, word, charAt) {
  const squares = playSquares(position, word || '');
  const node = el('span', { class: 'word', 'data-testid': 'word' });
  [...(word || '')].forEach((ch, i) => {
    if (ch === '.') {
      const sq = squares[i];
      const on = sq ? charAt(sq[0], sq[1]) : '.';
      const letter = on === '.' || !on ? '?' : on;
      const blank = letter >= 'a' && letter <= 'z';
      node.append(el('span', {
        class: 'through' + (blank ? ' blank-letter' : ''),
        title: `${letter.toUpperCase()}: already on the board${blank ? ' (a blank)' : ''}`,
      }, letter.toUpperCase()));
    } else if (ch >= 'a' && ch <= 'z') {
      node.append(el('span', { class: 'blank-letter', title: `${ch.toUpperCase()}: a blank` },
        ch.toUpperCase(), el('span', { class: 'visually-hidden' }, ' (blank)')));
    } else {
      node.append(ch);
    }
  });
  return node;
}

/** `tiles` (a tile string, `?` a blank) without the tiles of `rack`, one for one. */
export function withoutTiles(tiles, rack) {
  const left = [...tiles];
  for (const ch of rack || '') {
    const i = left.indexOf(ch);
    if (i >= 0) left.splice(i, 1);
  }
  return left.join('');
}

/** A small status line helper: `say(node, text, kind)` with kind 'ok' | 'error' | ''. */
export function say(node, text, kind = '') {
  node.textContent = text;
  node.dataset.kind = kind;
}

/** The site navigation shared by every page. */
export function navLinks(current) {
  const links = [
    ['/', 'Games'],
    ['/clock', 'Clock'],
    ['/judge', 'Word judge'],
    ['/scoresheet', 'Score sheet'],
    ['/td', 'Director'],
    ['/account', 'Account'],
  ];
  return el('nav', { 'aria-label': 'tilebag pages' },
    el('ul', {}, links.map(([href, label]) => el('li', {},
      el('a', { href, 'aria-current': href === current ? 'page' : null }, label)))));
}
