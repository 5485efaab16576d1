// The game page: /game/ID?token=SEAT_TOKEN plays a seat, /game/ID without a token watches.
// Everything shown comes from the server's view (sent on connect and after every change); the
// page keeps only what is local: the rack's order, tiles placed but not yet played, the cursor.

import {
  COLS, SIZE, api, el, fmtClock, navLinks, overtimePenalty, playSquares, renderTracking, signed,
  svg, tileOrder, tileValue, unseenFromBoard, withoutTiles, wordNode as wordOn,
} from './common.js';
import { BoardView, tileNode } from './board.js';
import { Analysis } from './analysis.js';
import { rematchOnEnd } from './rematch.js';

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const token = params.get('token');
// /game/ID or /games/ID (the links the API hands out).
const gameId = decodeURIComponent(location.pathname.split('/').filter(Boolean)[1] || '');

const S = {
  view: null,
  recvAt: 0,
  ruleset: null,
  seat: null,
  rack: [], // [{id, ch}] in the player's own order
  nextTileId: 1,
  placed: new Map(), // "r,c" -> {tileId, letter, blank, r, c}
  order: [], // keys of placed tiles, oldest first (Backspace removes the newest)
  cursor: null, // {r, c, dir: 'across' | 'down'}
  exchange: false,
  exchangeSel: new Set(),
  ws: null,
  retry: 0,
  retryTimer: null,
  msgId: 1,
  inflight: new Map(),
  drag: null,
  confirmTimers: {},
  connects: 0,
  waiting: false, // the last view said the game has not started
  preview: null, // a move the analysis shows: the moment of that turn (see previewMoment)
  step: null, // after the game: how many lines of the sheet the board shows (null: all of them)
  fresh: new Set(), // ids of the tiles drawn since this seat's last move (marked on the rack)
  freshMoves: 0, // this seat's lines on the sheet when they were drawn
  scoring: null, // {key, result|error}: the server's score of the tiles placed (a preview)
  scoringTimer: null,
  badLink: false, // the seat link's token opens no seat: stop retrying
  alerted: { turn: null, minute: [false, false] },
};

let board;
let analysis;

// ---------------------------------------------------------------------------------------------
// Connection

function wsUrl() {
  const proto = location.protocol === 'https:' ? 'wss' : 'ws';
  // `history=new`: after the first view, each holds only the score-sheet lines not sent yet.
  const q = token ? `?token=${encodeURIComponent(token)}&history=new` : '';
  return `${proto}://${location.host}/api/games/${encodeURIComponent(gameId)}/ws${q}`;
}

function setConn(state, text) {
  const c = $('conn');
  c.dataset.state = state;
  c.textContent = text;
}

function connect() {
  clearTimeout(S.retryTimer);
  S.retryTimer = null;
  if (S.badLink) return;
  if (S.ws && S.ws.readyState <= 1) return;
  let ws;
  try {
    ws = new WebSocket(wsUrl());
  } catch (e) {
    scheduleReconnect();
    return;
  }
  S.ws = ws;
  setConn('connecting', S.connects ? 'Reconnecting…' : 'Connecting…');
  ws.onopen = () => {
    S.retry = 0;
    S.connects += 1;
    setConn('connected', connectedText());
  };
  ws.onmessage = (ev) => {
    let m;
    try { m = JSON.parse(ev.data); } catch { return; }
    onMessage(m);
  };
  let opened = false;
  ws.addEventListener('open', () => { opened = true; });
  ws.onclose = async () => {
    if (S.ws !== ws) return;
    S.ws = null;
    S.inflight.clear();
    // A connection refused before it opened may be a link whose token opens no seat: ask the
    // server (over plain HTTP it says why), and stop retrying if so.
    if (!opened && token && (await checkLink()) === false) return;
    setConn('offline', 'Connection lost; reconnecting…');
    scheduleReconnect();
  };
}

/** What the connection line says once connected: an observer of a game that has ended is
 * not watching it live. */
function connectedText() {
  if (S.seat !== null || token) return 'Connected';
  return S.view && S.view.phase.type === 'ended' ? 'Watching (ended)' : 'Watching (live)';
}

/** Whether the seat link's token opens a seat: false (and the page says so) when the server
 * answers `wrong-token`; true when it does not (or cannot be asked). */
async function checkLink() {
  if (!token) return true;
  let r;
  try {
    r = await fetch(`/api/games/${encodeURIComponent(gameId)}/ws?token=${encodeURIComponent(token)}`);
  } catch {
    return true;
  }
  if (r.status !== 403) return true;
  let code = '';
  try { code = (await r.json()).error; } catch { /* not JSON */ }
  if (code && code !== 'wrong-token') return true;
  S.badLink = true;
  clearTimeout(S.retryTimer);
  S.retryTimer = null;
  setConn('offline', 'Link not valid');
  const msg = $('link-error');
  msg.append(' ', el('a', { href: `/game/${encodeURIComponent(gameId)}` }, 'Watch the game instead'));
  msg.hidden = false;
  // Nothing of the game shows but its heading and the message (the page keeps its main landmark).
  for (const part of $('game').children) {
    if (!part.classList.contains('game-head')) part.hidden = true;
  }
  $('rules-line').hidden = true;
  return false;
}

function scheduleReconnect() {
  if (S.retryTimer) return;
  const delay = Math.min(10000, 400 * 2 ** S.retry);
  S.retry += 1;
  S.retryTimer = setTimeout(() => { S.retryTimer = null; connect(); }, delay);
}

function send(msg) {
  if (!S.ws || S.ws.readyState !== WebSocket.OPEN) {
    showError('Not connected; reconnecting…');
    connect();
    return false;
  }
  const id = S.msgId++;
  S.inflight.set(id, msg.type);
  S.ws.send(JSON.stringify({ ...msg, id }));
  if (msg.type !== 'preview') showError('');
  return id;
}

// A view's score sheet from `history_from` on, joined to the lines this connection already has.
// `false`: lines are missing (a view was lost), so the page asks for the whole view again.
function joinSheet(v) {
  const from = v.history_from || 0;
  if (from === 0) return true;
  const had = (S.view && S.view.history) || [];
  if (had.length < from) return false;
  v.history = had.slice(0, from).concat(v.history || []);
  return true;
}

function onMessage(m) {
  if (m.type === 'state') {
    if (!joinSheet(m.view)) {
      // Once: the views that arrive before the whole one are as short of lines.
      if (!S.askedWhole) {
        S.askedWhole = true;
        send({ type: 'state' });
      }
      return;
    }
    S.askedWhole = false;
    S.view = m.view;
    S.recvAt = performance.now();
    S.seat = m.view.audience === 'seat' ? m.view.seat : null;
    if ($('conn').dataset.state === 'connected') setConn('connected', connectedText());
    if (S.seat !== null) reconcileRack(m.view.rack);
    if (m.effects && m.effects.length) {
      announceEffects(m.effects);
      soundOpponentMove(m.effects);
    }
    const waiting = m.view.started === false;
    if (S.waiting && !waiting && m.view.phase.type !== 'ended' && !m.view.paused) notice('The game has started: the clock is running.');
    S.waiting = waiting;
    if (!S.ruleset) loadRuleset(m.view.preset);
    document.getElementById('seeded').hidden = !m.view.seeded;
    render();
    // After a game between two accounts, its players may offer each other a rematch.
    if (m.view.phase.type === 'ended') rematchOnEnd(gameId);
    openAnalysisFromLink();
  } else if (m.type === 'preview') {
    S.inflight.delete(m.id);
    if (S.scoring && S.scoring.id === m.id) {
      S.scoring = { ...S.scoring, result: m };
      renderScoring();
    }
  } else if (m.type === 'ack') {
    const kind = S.inflight.get(m.id);
    S.inflight.delete(m.id);
    if (kind === 'play') {
      S.placed.clear();
      S.order = [];
      S.cursor = null;
    }
    if (kind === 'exchange') {
      S.exchange = false;
      S.exchangeSel.clear();
    }
  } else if (m.type === 'error') {
    const kind = S.inflight.get(m.id);
    S.inflight.delete(m.id);
    if (kind === 'preview') {
      if (S.scoring && S.scoring.id === m.id) {
        S.scoring = { ...S.scoring, error: m.message || m.code };
        renderScoring();
      }
      return;
    }
    showError(m.message || m.code);
  }
}

async function loadRuleset(preset) {
  try {
    const r = await api('/api/presets');
    const p = (r.presets || []).find((x) => x.name === preset);
    if (p) S.ruleset = p.ruleset;
    render();
  } catch {
    // The page works without it (the overtime penalty falls back to 10 a minute).
  }
}

// ---------------------------------------------------------------------------------------------
// Local rack and tentative tiles

function myLines() {
  const h = (S.view && S.view.history) || [];
  return h.filter((l) => l.seat === S.seat && l.type !== 'end-rack' && l.type !== 'time-penalty').length;
}

function reconcileRack(rackStr) {
  const avail = [...(rackStr || '')];
  const kept = [];
  const hadRack = S.rack.length > 0;
  for (const t of S.rack) {
    const i = avail.indexOf(t.ch);
    if (i >= 0) {
      avail.splice(i, 1);
      kept.push(t);
    }
  }
  // Tiles drawn since this seat's last move are marked until its next move (a page just
  // opened has nothing to compare with: it marks none).
  const mine = myLines();
  if (mine > S.freshMoves && avail.length === 0) S.fresh.clear();
  const drawn = [];
  for (const ch of avail) {
    const t = { id: S.nextTileId++, ch };
    kept.push(t);
    drawn.push(t.id);
  }
  if (hadRack && drawn.length) {
    S.fresh = new Set(drawn);
    S.freshMoves = mine;
  } else if (mine > S.freshMoves) {
    S.fresh.clear();
  }
  S.rack = kept;
  for (const id of [...S.fresh]) if (!kept.some((t) => t.id === id)) S.fresh.delete(id);
  const ids = new Set(kept.map((t) => t.id));
  for (const [key, p] of [...S.placed]) {
    if (!ids.has(p.tileId) || boardChar(p.r, p.c) !== '.') removePlaced(key);
  }
  for (const id of [...S.exchangeSel]) if (!ids.has(id)) S.exchangeSel.delete(id);
}

function boardChar(r, c) {
  const rows = S.view ? S.view.board : null;
  return rows && rows[r] ? rows[r][c] : '.';
}

function occupied(r, c) {
  return boardChar(r, c) !== '.' || S.placed.has(`${r},${c}`);
}

function inBoard(r, c) {
  return r >= 0 && c >= 0 && r < SIZE && c < SIZE;
}

function freeTiles() {
  const used = new Set([...S.placed.values()].map((p) => p.tileId));
  return S.rack.filter((t) => !used.has(t.id));
}

function removePlaced(key) {
  S.placed.delete(key);
  S.order = S.order.filter((k) => k !== key);
}

function canPlace() {
  return S.seat !== null && S.view && S.view.phase.type !== 'ended';
}

async function placeTile(tile, r, c, letter) {
  if (!canPlace() || !inBoard(r, c) || occupied(r, c)) return false;
  let l = tile.ch;
  let blank = false;
  if (tile.ch === '?') {
    blank = true;
    l = letter || (await askBlank());
    if (!l) return false;
    if (occupied(r, c)) return false;
  }
  const key = `${r},${c}`;
  S.placed.set(key, { tileId: tile.id, letter: l.toUpperCase(), blank, r, c });
  S.order.push(key);
  return true;
}

function step(dir, n = 1) {
  return dir === 'down' ? [n, 0] : [0, n];
}

function advanceCursor() {
  if (!S.cursor) return;
  const [dr, dc] = step(S.cursor.dir);
  let { r, c } = S.cursor;
  do {
    r += dr;
    c += dc;
  } while (inBoard(r, c) && occupied(r, c));
  if (inBoard(r, c)) S.cursor = { ...S.cursor, r, c };
}

async function typeLetter(letter, forceBlank) {
  if (!canPlace()) return;
  if (!S.cursor) S.cursor = { r: 7, c: 7, dir: 'across' };
  const [dr, dc] = step(S.cursor.dir);
  let { r, c } = S.cursor;
  while (inBoard(r, c) && occupied(r, c)) {
    r += dr;
    c += dc;
  }
  if (!inBoard(r, c)) {
    notice('The word would run off the board');
    return;
  }
  const free = freeTiles();
  let tile = forceBlank ? null : free.find((t) => t.ch === letter);
  if (!tile) tile = free.find((t) => t.ch === '?');
  if (!tile) {
    notice(`There is no ${letter} on your rack`);
    return;
  }
  S.cursor = { ...S.cursor, r, c };
  if (await placeTile(tile, r, c, letter)) advanceCursor();
  render();
}

async function typeBlank() {
  if (!canPlace()) return;
  if (!S.cursor) S.cursor = { r: 7, c: 7, dir: 'across' };
  const tile = freeTiles().find((t) => t.ch === '?');
  if (!tile) {
    notice('There is no blank on your rack');
    return;
  }
  let { r, c } = S.cursor;
  const [dr, dc] = step(S.cursor.dir);
  while (inBoard(r, c) && occupied(r, c)) {
    r += dr;
    c += dc;
  }
  if (!inBoard(r, c)) return;
  S.cursor = { ...S.cursor, r, c };
  if (await placeTile(tile, r, c)) advanceCursor();
  render();
}

function backspace() {
  const key = S.order[S.order.length - 1];
  if (!key) return;
  const p = S.placed.get(key);
  removePlaced(key);
  S.cursor = { r: p.r, c: p.c, dir: S.cursor ? S.cursor.dir : 'across' };
  render();
}

function recall() {
  S.placed.clear();
  S.order = [];
  render();
}

/** The play the tentative tiles make, in GCG terms, or an error message. */
function computePlay() {
  const tiles = [...S.placed.values()];
  if (tiles.length === 0) return { error: 'Place tiles on the board first' };
  const rows = new Set(tiles.map((t) => t.r));
  const cols = new Set(tiles.map((t) => t.c));
  let dir;
  if (tiles.length === 1) {
    const { r, c } = tiles[0];
    const horiz = (inBoard(r, c - 1) && boardChar(r, c - 1) !== '.') || (inBoard(r, c + 1) && boardChar(r, c + 1) !== '.');
    const vert = (inBoard(r - 1, c) && boardChar(r - 1, c) !== '.') || (inBoard(r + 1, c) && boardChar(r + 1, c) !== '.');
    if (horiz && !vert) dir = 'across';
    else if (vert && !horiz) dir = 'down';
    else dir = S.cursor ? S.cursor.dir : 'across';
  } else if (rows.size === 1) dir = 'across';
  else if (cols.size === 1) dir = 'down';
  else return { error: 'The tiles must be in one row or one column' };
  const fixed = dir === 'across' ? tiles[0].r : tiles[0].c;
  const idx = tiles.map((t) => (dir === 'across' ? t.c : t.r));
  let start = Math.min(...idx);
  let end = Math.max(...idx);
  const at = (i) => (dir === 'across' ? [fixed, i] : [i, fixed]);
  while (start > 0 && boardChar(...at(start - 1)) !== '.') start -= 1;
  while (end < SIZE - 1 && boardChar(...at(end + 1)) !== '.') end += 1;
  let word = '';
  for (let i = start; i <= end; i++) {
    const [r, c] = at(i);
    const p = S.placed.get(`${r},${c}`);
    if (p) word += p.blank ? p.letter.toLowerCase() : p.letter;
    else if (boardChar(r, c) !== '.') word += '.';
    else return { error: `There is a gap at ${COLS[c]}${r + 1}` };
  }
  const [r0, c0] = at(start);
  const position = dir === 'across' ? `${r0 + 1}${COLS[c0]}` : `${COLS[c0]}${r0 + 1}`;
  return { position, word };
}

function play() {
  if (!isMyMove()) {
    showError('It is not your turn');
    return;
  }
  const p = computePlay();
  if (p.error) {
    showError(p.error);
    return;
  }
  send({ type: 'play', position: p.position, word: p.word });
}

function isMyMove() {
  const v = S.view;
  return !!v && S.seat !== null && v.phase.type !== 'ended' && !v.paused && !v.database_down && v.to_move === S.seat;
}

function opponentPlayPending() {
  const v = S.view;
  return !!v && S.seat !== null && v.phase.type === 'play-pending' && v.phase.player !== S.seat;
}

// ---------------------------------------------------------------------------------------------
// Two-step buttons (pass, resign): the first press asks, the second within 4 s does it.

function confirmStep(button, label, action) {
  const key = button.id;
  // While it asks, the button is named by what it shows ("Confirm pass"), not its usual label.
  const restore = () => {
    button.classList.remove('confirming');
    button.textContent = button.dataset.label;
    if (button.dataset.ariaLabel) button.setAttribute('aria-label', button.dataset.ariaLabel);
    delete button.dataset.ariaLabel;
  };
  if (S.confirmTimers[key]) {
    clearTimeout(S.confirmTimers[key]);
    delete S.confirmTimers[key];
    restore();
    action();
    return;
  }
  button.dataset.label = button.textContent;
  const aria = button.getAttribute('aria-label');
  if (aria) {
    button.dataset.ariaLabel = aria;
    button.removeAttribute('aria-label');
  }
  button.textContent = label;
  button.classList.add('confirming');
  S.confirmTimers[key] = setTimeout(() => {
    delete S.confirmTimers[key];
    restore();
  }, 4000);
}

// ---------------------------------------------------------------------------------------------
// The blank prompt

function askBlank() {
  const dlg = $('blank-dialog');
  const input = $('blank-input');
  input.value = '';
  return new Promise((resolve) => {
    let done = false;
    const finish = (letter) => {
      if (done) return;
      done = true;
      input.oninput = null;
      dlg.onclose = null;
      $('blank-cancel').onclick = null;
      if (dlg.open) dlg.close();
      // Back to the board (not the rack tile the dialog came from): Enter then plays.
      if (board) board.grid.focus({ preventScroll: true });
      resolve(letter);
    };
    input.oninput = () => {
      const v = input.value.trim().toUpperCase();
      if (/^[A-Z]$/.test(v)) finish(v);
    };
    $('blank-form').onsubmit = (ev) => {
      ev.preventDefault();
      const v = input.value.trim().toUpperCase();
      if (/^[A-Z]$/.test(v)) finish(v);
    };
    $('blank-cancel').onclick = () => finish(null);
    for (const b of $('blank-letters').querySelectorAll('button')) {
      b.onclick = () => finish(b.dataset.letter);
    }
    dlg.onclose = () => finish(null);
    dlg.showModal();
    input.focus();
  });
}

function buildBlankLetters() {
  const box = $('blank-letters');
  for (const L of 'ABCDEFGHIJKLMNOPQRSTUVWXYZ') {
    box.append(el('button', { type: 'button', 'data-letter': L, 'aria-label': `Blank as ${L}` }, L));
  }
}

// ---------------------------------------------------------------------------------------------
// Drag and drop

function dragData(ev) {
  if (S.drag) return S.drag;
  const t = ev.dataTransfer && ev.dataTransfer.getData('text/plain');
  if (!t) return null;
  const [kind, val] = t.split(':');
  return kind === 'rack' ? { kind, id: Number(val) } : { kind, key: val };
}

async function dropOnSquare(r, c, ev) {
  const d = dragData(ev);
  S.drag = null;
  if (!d || !canPlace()) return;
  if (d.kind === 'rack') {
    const tile = freeTiles().find((t) => t.id === d.id);
    if (tile && (await placeTile(tile, r, c))) {
      S.cursor = { r, c, dir: S.cursor ? S.cursor.dir : 'across' };
      advanceCursor();
    }
  } else if (d.kind === 'board') {
    const p = S.placed.get(d.key);
    if (p && !occupied(r, c)) {
      removePlaced(d.key);
      const key = `${r},${c}`;
      S.placed.set(key, { ...p, r, c });
      S.order.push(key);
    }
  }
  render();
}

function dropOnRack(beforeId, ev) {
  const d = dragData(ev);
  S.drag = null;
  if (!d) return;
  let id;
  if (d.kind === 'board') {
    const p = S.placed.get(d.key);
    if (!p) return;
    removePlaced(d.key);
    id = p.tileId;
  } else {
    id = d.id;
  }
  moveTileBefore(id, beforeId);
  render();
}

function moveTileBefore(id, beforeId) {
  if (id === beforeId) return;
  const i = S.rack.findIndex((t) => t.id === id);
  if (i < 0) return;
  const [t] = S.rack.splice(i, 1);
  const j = beforeId == null ? -1 : S.rack.findIndex((x) => x.id === beforeId);
  if (j < 0) S.rack.push(t); else S.rack.splice(j, 0, t);
}

// ---------------------------------------------------------------------------------------------
// Rendering

function render() {
  const v = S.view;
  if (!v) return;
  const names = v.players.map((p) => p.name);
  document.title = `${isMyMove() ? '\u25CF ' : ''}${names[0]} vs ${names[1]} · tilebag`;
  $('game-h').textContent = `${names[0]} vs ${names[1]}`;
  renderRulesLine();
  if (v.phase.type !== 'ended') S.step = null;
  renderPlayers();
  renderReview();
  renderBoard();
  renderRack();
  renderPending();
  renderResignation();
  requestScoring();
  renderScoring();
  checkAlerts();
  renderSheet();
  renderGraph();
  renderTrackingPanel();
  renderResult();
}

/** The rules and the lexicon actually in use (the preset's title may name a word list the
 * server does not have: the words are judged by the game's lexicon). */
function renderRulesLine() {
  const v = S.view;
  const title = S.ruleset && S.ruleset.title ? S.ruleset.title : v.preset;
  const rules = v.rules && v.rules.length ? ` with ${v.rules.join(', ')}` : '';
  $('rules-line').textContent = `Rules: ${title}${rules} · words judged by the lexicon ${v.lexicon}`;
}

/** A requested resignation (NASPA I.B): the opponent honours it or plays on. */
function renderResignation() {
  const v = S.view;
  const box = $('resign-box');
  const offer = v.resignation_offer;
  if (offer === null || offer === undefined || v.phase.type === 'ended') {
    box.hidden = true;
    box.replaceChildren();
    delete box.dataset.key;
    return;
  }
  const key = `${v.seq}:${offer}:${S.seat}`;
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.hidden = false;
  const who = v.players[offer].name;
  if (S.seat !== null && S.seat !== offer) {
    box.replaceChildren(
      el('h2', {}, `${who} asks to resign`),
      el('p', {}, 'Honour it and the game ends at the current score, less any time penalties; ' +
        `or insist on playing on (${v.citations.resigning}).`),
      el('div', { class: 'buttons' },
        el('button', {
          type: 'button', id: 'btn-honour', class: 'primary',
          'aria-label': 'Honour the resignation: the game ends at the current score',
          onclick: () => send({ type: 'honour-resignation' }),
        }, 'Honour the resignation'),
        el('button', {
          type: 'button', id: 'btn-play-on', 'aria-label': 'Play on: insist on playing on',
          onclick: () => send({ type: 'play-on' }),
        }, 'Play on')));
  } else if (S.seat === offer) {
    box.replaceChildren(el('h2', {}, 'You asked to resign'),
      el('p', {}, `${v.players[1 - offer].name} may honour it or insist on playing on.`));
  } else {
    box.replaceChildren(el('p', {}, `${who} asked to resign; the opponent answers.`));
  }
}

// ---------------------------------------------------------------------------------------------
// The live score of the tiles placed: asked of the server, which scores it by the game's rules
// (the same function as a real play). It judges no word and so reveals nothing.

function requestScoring() {
  if (S.seat === null || S.view.phase.type === 'ended' || S.placed.size === 0 || S.exchange) {
    S.scoring = null;
    return;
  }
  const p = computePlay();
  const key = p.error ? `error:${p.error}` : `${S.view.seq}:${p.position}:${p.word}`;
  if (S.scoring && S.scoring.key === key) return;
  if (p.error) {
    S.scoring = { key, error: p.error };
    return;
  }
  S.scoring = { key, pending: true };
  clearTimeout(S.scoringTimer);
  // A short pause, so typing a word asks once, not once a letter.
  S.scoringTimer = setTimeout(() => {
    if (!S.scoring || S.scoring.key !== key) return;
    const id = send({ type: 'preview', position: p.position, word: p.word });
    if (id) S.scoring = { ...S.scoring, id };
  }, 120);
}

function renderScoring() {
  const out = $('play-preview');
  if (!out) return;
  const sc = S.scoring;
  out.replaceChildren();
  delete out.dataset.score;
  if (!sc) return;
  if (sc.error) {
    out.append(el('span', { class: 'hint' }, sc.error));
    return;
  }
  if (!sc.result) {
    out.append(el('span', { class: 'hint' }, 'Scoring…'));
    return;
  }
  const r = sc.result;
  out.dataset.score = String(r.score);
  const words = r.words.map((w, i) => [i ? ', ' : '', el('strong', {}, w.word), ` ${w.score}`]);
  out.append(`${r.position} `, ...words.flat(), r.bingo ? ' + bingo' : '',
    ' = ', el('strong', { 'data-testid': 'preview-score' }, `${r.score} points`));
}

// ---------------------------------------------------------------------------------------------
// Sound and a browser notification when it becomes this seat's turn and when its clock enters
// its last minute. Off by default; the choice is kept in this browser.

const ALERTS_KEY = 'tilebag.alerts';

function alertsOn() {
  try { return localStorage.getItem(ALERTS_KEY) === 'on'; } catch { return false; }
}

function beep() {
  try {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    const ctx = beep.ctx || (beep.ctx = new Ctx());
    const o = ctx.createOscillator();
    const g = ctx.createGain();
    o.frequency.value = 880;
    g.gain.value = 0.08;
    o.connect(g).connect(ctx.destination);
    o.start();
    o.stop(ctx.currentTime + 0.18);
  } catch {
    // No sound available.
  }
}

function alertPlayer(text) {
  if (!alertsOn()) return;
  window.tilebag.alerts.push(text);
  beep();
  try {
    if ('Notification' in window && Notification.permission === 'granted' && document.hidden) {
      new Notification('tilebag', { body: text, tag: 'tilebag-turn' });
    }
  } catch {
    // Notifications unavailable here.
  }
}

// A sound when the opponent moves (plays, exchanges or passes): off by default, like the turn
// alert; the choice is kept in this browser.
const MOVE_SOUND_KEY = 'tilebag.move-sound';

function moveSoundOn() {
  try { return localStorage.getItem(MOVE_SOUND_KEY) === 'on'; } catch { return false; }
}

/** Two short notes, lower than the turn alert's. */
function chime() {
  try {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    const ctx = beep.ctx || (beep.ctx = new Ctx());
    [523, 659].forEach((f, i) => {
      const o = ctx.createOscillator();
      const g = ctx.createGain();
      o.frequency.value = f;
      g.gain.value = 0.07;
      o.connect(g).connect(ctx.destination);
      o.start(ctx.currentTime + i * 0.12);
      o.stop(ctx.currentTime + i * 0.12 + 0.1);
    });
  } catch {
    // No sound available.
  }
}

function soundOpponentMove(effects) {
  if (S.seat === null || !moveSoundOn()) return;
  const moved = effects.find((e) => ['played', 'exchanged', 'passed'].includes(e.type) && e.seat !== S.seat);
  if (!moved) return;
  window.tilebag.sounds.push(`opponent ${moved.type}`);
  chime();
}

function checkAlerts() {
  const v = S.view;
  if (S.seat === null || !v || v.phase.type === 'ended' || v.started === false) return;
  // Only a change of turn rings (not a page just opened on one's own turn).
  const mine = v.to_move === S.seat && !v.paused;
  if (mine && S.alerted.turn === false) alertPlayer('Your turn.');
  S.alerted.turn = mine;
}

function checkMinute(ms, i) {
  if (i !== S.seat) return;
  const last = ms <= 60000 && ms > 0;
  if (last && !S.alerted.minute[i]) alertPlayer('Your clock has entered its last minute.');
  S.alerted.minute[i] = last;
}

/** The least margin a player who leaves loses by (NASPA V.K.2: 50), from the game's ruleset. */
function leaveMargin() {
  return S.ruleset && S.ruleset.resignation ? S.ruleset.resignation.margin : 50;
}

function penaltyPerMinute() {
  return S.ruleset && S.ruleset.overtime ? S.ruleset.overtime.penalty_per_minute : 10;
}

function clocksNow() {
  const v = S.view;
  const c = v.clocks;
  const ended = v.phase.type === 'ended';
  const dt = ended || c.running === null || c.running === undefined ? 0 : performance.now() - S.recvAt;
  return {
    remaining: c.remaining_ms ? c.remaining_ms.map((ms, i) => (i === c.running ? ms - dt : ms)) : null,
    game: c.game_remaining_ms !== null && c.game_remaining_ms !== undefined ? c.game_remaining_ms - dt : null,
    turn: c.turn_remaining_ms !== null && c.turn_remaining_ms !== undefined ? Math.max(0, c.turn_remaining_ms - dt) : null,
    running: ended ? null : c.running,
  };
}

function renderPlayers() {
  const v = S.view;
  const box = $('players');
  if (!box.dataset.built) {
    box.dataset.built = '1';
    box.replaceChildren();
    for (const i of [0, 1]) {
      box.append(el('div', { class: 'player', id: `player-${i}`, 'data-testid': `player-${i}` },
        el('div', { class: 'player-head' },
          el('span', { class: 'player-name', id: `name-${i}` }),
          el('span', { class: 'player-tag', id: `tag-${i}` })),
        el('div', { class: 'player-score', id: `score-${i}`, 'data-testid': `score-${i}`, role: 'img', 'aria-label': 'Score' }),
        el('div', { class: 'player-clock', id: `clock-${i}`, 'data-testid': `clock-${i}`, role: 'timer', 'aria-label': 'Clock' }),
        el('div', { class: 'player-penalty', id: `penalty-${i}`, 'data-testid': `penalty-${i}` }),
        el('div', { class: 'player-rack-count', id: `rackcount-${i}` })));
    }
    box.append(el('div', { class: 'game-clock', id: 'game-clock', hidden: true, role: 'timer', 'aria-label': 'Game clock', 'data-testid': 'game-clock' }));
    box.append(el('p', { class: 'waiting', id: 'waiting', hidden: true, role: 'status', 'aria-live': 'polite', 'data-testid': 'waiting' }));
    box.append(el('p', { class: 'waiting paused', id: 'paused', hidden: true, role: 'status', 'aria-live': 'polite', 'data-testid': 'paused' }));
    box.append(el('p', { class: 'waiting paused', id: 'database-down', hidden: true, role: 'status', 'aria-live': 'polite', 'data-testid': 'database-down' }));
  }
  // The server cannot reach its database: nothing can be saved, so no move is taken and the
  // clocks are stopped, as when the server is down (WESPA 4.1(f)).
  const dbDown = $('database-down');
  const outage = v.database_down && v.phase.type !== 'ended';
  dbDown.hidden = !outage;
  dbDown.textContent = !outage ? ''
    : 'The server cannot reach its database, so no move can be saved: the clocks are stopped. ' +
      'Play goes on, from where it was, as soon as the database is back.';
  // A neutralised game (NASPA II.A): no clock runs, no move, and a seat sees no rack.
  const paused = $('paused');
  const stop = v.paused && v.phase.type !== 'ended' ? v.paused : null;
  paused.hidden = !stop;
  paused.textContent = !stop ? ''
    : (stop.called_by === null
      ? 'The director has stopped the clocks.'
      : `${v.players[stop.called_by].name} called the director: the clocks are stopped.`) +
      ' Play goes on when the director restarts them.';
  // A new game waits for both players (or a first move) before any clock runs.
  const waiting = $('waiting');
  waiting.hidden = !S.waiting;
  waiting.textContent = !S.waiting ? ''
    : S.seat !== null
      ? 'Waiting for your opponent \u2014 the clock starts when both players are here' +
        (v.to_move === S.seat ? ' (or when you make your first move).' : '.')
      : 'Waiting for the players \u2014 the clock starts when both players are here.';
  for (const i of [0, 1]) {
    const p = v.players[i];
    $(`name-${i}`).textContent = p.name;
    const tags = [];
    if (S.seat === i) tags.push('you');
    if (v.phase.type !== 'ended' && v.to_move === i) tags.push('to move');
    $(`tag-${i}`).textContent = tags.join(' · ');
    $(`player-${i}`).classList.toggle('to-move', v.phase.type !== 'ended' && v.to_move === i);
    const mo = moment();
    const score = mo && mo.scores ? mo.scores[i] : p.score;
    $(`score-${i}`).textContent = String(score);
    $(`score-${i}`).setAttribute('aria-label', `${p.name}'s score: ${score}${mo ? ' at the moment shown on the board' : ''}`);
    $(`rackcount-${i}`).textContent = `${p.rack_count} tile${p.rack_count === 1 ? '' : 's'} on rack`;
  }
  updateClocks();
}

function updateClocks() {
  if (!S.view) return;
  const c = clocksNow();
  for (const i of [0, 1]) {
    const node = $(`clock-${i}`);
    const pen = $(`penalty-${i}`);
    if (!node) continue;
    if (c.remaining) {
      const ms = c.remaining[i];
      node.textContent = fmtClock(ms);
      node.classList.toggle('overtime', ms < 0);
      node.classList.toggle('running', c.running === i);
      const p = overtimePenalty(ms, penaltyPerMinute());
      pen.textContent = p ? `overtime: \u2212${p} points` : '';
      node.setAttribute('aria-label', `${S.view.players[i].name}'s clock: ${fmtClock(ms)}${c.running === i ? ' (running)' : ''}`);
      if (c.running === i) checkMinute(ms, i);
    } else {
      node.textContent = '';
      pen.textContent = '';
    }
  }
  const g = $('game-clock');
  if (g) {
    if (c.game !== null) {
      g.hidden = false;
      g.textContent = `Game clock ${fmtClock(Math.max(0, c.game))}` +
        (c.turn !== null ? ` · this turn ${fmtClock(c.turn)}` : '');
    } else {
      g.hidden = true;
    }
  }
}

function lastPlaySquares() {
  const v = S.view;
  if (v.phase.type === 'play-pending' && v.phase.play && v.phase.play.position) {
    return playSquares(v.phase.play.position, v.phase.play.word);
  }
  const h = v.history || [];
  for (let i = h.length - 1; i >= 0; i--) {
    const line = h[i];
    if (line.type === 'withdrawal') {
      i -= 1; // the withdrawn play left the board
      continue;
    }
    if (line.type === 'play') return playSquares(line.position, line.word);
  }
  return [];
}

// ---------------------------------------------------------------------------------------------
// The position shown instead of the live one: a step back through a finished game, or a move
// the analysis shows. Either comes with the scores, racks and unseen tiles of that moment.

/** The moment shown on the board, or null for the live position. */
function moment() {
  if (S.preview) return S.preview;
  if (S.step !== null && S.view && S.view.phase.type === 'ended') return stepMoment(S.step);
  return null;
}

const MOVE_LINES = new Set(['play', 'exchange', 'pass', 'lost-challenge', 'timed-out']);

/** The game after the first `k` lines of its sheet. */
function stepMoment(k) {
  const v = S.view;
  const h = v.history || [];
  const rows = Array.from({ length: SIZE }, () => Array(SIZE).fill('.'));
  const plays = [];
  for (let i = 0; i < k; i++) {
    const line = h[i];
    if (line.type === 'play') {
      const squares = playSquares(line.position, line.word);
      const placed = [];
      [...line.word].forEach((ch, j) => {
        if (ch !== '.' && squares[j]) {
          rows[squares[j][0]][squares[j][1]] = ch;
          placed.push(squares[j]);
        }
      });
      plays.push(placed);
    } else if (line.type === 'withdrawal') {
      for (const [r, c] of plays.pop() || []) rows[r][c] = '.';
    }
  }
  const rowsText = rows.map((r) => r.join(''));
  const scores = [0, 0];
  for (let i = 0; i < k; i++) scores[h[i].seat] = h[i].cumulative;
  const last = k > 0 ? h[k - 1] : null;
  const highlight = new Set();
  if (last && last.type === 'play') {
    for (const [r, c] of playSquares(last.position, last.word)) {
      if (rows[r][c] !== '.') highlight.add(`${r},${c}`);
    }
  }
  const next = k < h.length ? h[k] : null;
  const mover = next && MOVE_LINES.has(next.type) ? next.seat : null;
  // A rack changes only with its owner's moves: each one's rack now is the rack on their next
  // move's line (the sheet shows both once the game is over; an observer's shows none).
  const racks = [0, 1].map((seat) => {
    for (let i = k; i < h.length; i++) {
      if (h[i].seat === seat && MOVE_LINES.has(h[i].type)) return h[i].rack || null;
    }
    return null;
  });
  let unseen = unseenFromBoard(rowsText);
  let unseenTo = null;
  if (mover !== null && racks[mover]) {
    unseen = withoutTiles(unseen, racks[mover]);
    unseenTo = mover;
  }
  const names = v.players.map((p) => p.name);
  let what;
  if (k === 0) what = ['The empty board, before the first move.'];
  else {
    const [gcg, note] = moveText(last);
    what = [`After move ${k} of ${h.length}: ${names[last.seat]} `, el('span', { class: 'mono' }, gcg),
      note ? ` (${note})` : '', ` ${signed(last.score)}.`];
  }
  if (mover !== null) what.push(` ${names[mover]} to play.`);
  return { kind: 'step', k, board: rowsText, tiles: null, highlight, scores, racks, mover, unseen, unseenTo, what };
}

const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth'];

/** The moment of an analysed turn, with one of its moves shown on the board. */
function previewMoment(p) {
  const t = p.turn;
  const m = p.move;
  const tiles = new Map();
  for (const [r, c, ch] of m.tiles) tiles.set(`${r},${c}`, ch);
  const racks = (t.racks || [null, null]).slice();
  racks[t.player] = racks[t.player] || t.rack;
  const unseen = withoutTiles(unseenFromBoard(t.board), racks[t.player]);
  const who = p.names[t.player] || `Player ${t.player + 1}`;
  const fmt = (x) => (Math.round(x * 10) / 10).toFixed(1);
  const what = [`Move ${t.n}, ${who} to play: `, p.moveNode,
    ` (${m.score}, equity ${fmt(m.equity)}), the engine’s ${ORDINALS[p.rank] || `${p.rank + 1}th`} choice`,
    m.kind === 'play' ? ', shown on the board as it was then.' : ' (nothing to show on the board).'];
  return {
    kind: 'preview', id: `${t.n}:${p.rank}`, board: t.board, tiles, highlight: new Set(), scores: t.scores || null, racks,
    mover: t.player, unseen, unseenTo: t.player, what,
  };
}

/** The steps through a finished game, and the moment shown (beside the board). */
function renderReview() {
  const v = S.view;
  const ended = v.phase.type === 'ended';
  const mo = moment();
  const review = $('review');
  review.hidden = !ended && !mo;
  review.classList.toggle('previewing', !!mo && mo.kind === 'preview');
  review.setAttribute('aria-label', mo && mo.kind === 'preview'
    ? 'A move from the analysis, shown on the board' : 'Moves of the finished game');
  // While the analysis shows a move, its own buttons lead back; the steps wait.
  $('steps').hidden = !ended || !!S.preview;
  if (ended) {
    const n = (v.history || []).length;
    const k = S.step === null ? n : S.step;
    $('step-where').textContent = k === n ? `End · ${n} moves` : k === 0 ? `Start · 0 of ${n}` : `Move ${k} of ${n}`;
    // Marked, not disabled: a button pressed to the end keeps the focus.
    $('step-first').setAttribute('aria-disabled', String(k === 0));
    $('step-prev').setAttribute('aria-disabled', String(k === 0));
    $('step-next').setAttribute('aria-disabled', String(k === n));
    $('step-last').setAttribute('aria-disabled', String(k === n));
  }
  const box = $('moment');
  box.hidden = !mo;
  $('moment-buttons').hidden = !mo || mo.kind !== 'preview';
  if (!mo) {
    delete box.dataset.key;
    return;
  }
  const key = mo.kind === 'step' ? `step:${mo.k}:${v.seq}` : `preview:${mo.id}`;
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  $('moment-what').replaceChildren(...mo.what);
  const names = v.players.map((p) => p.name);
  $('moment-players').replaceChildren(...[0, 1].map((i) => el('li', { class: `seat-${i}`, 'data-testid': `moment-player-${i}` },
    el('span', { class: 'm-name' }, names[i]), ' ',
    el('span', { class: 'm-score', 'data-testid': `moment-score-${i}` }, mo.scores ? String(mo.scores[i]) : '?'),
    mo.mover === i ? ' (to play)' : '',
    mo.racks && mo.racks[i]
      ? [' · rack ', el('span', { class: 'mono', 'data-testid': `moment-rack-${i}` }, mo.racks[i])]
      : '')));
  const counts = el('span', {}, `${mo.unseen.length} unseen`);
  $('moment-unseen').replaceChildren(
    mo.unseenTo !== null ? `Unseen to ${names[mo.unseenTo]}: ` : 'Unseen (bag and racks): ', counts, ' · ',
    el('span', { class: 'mono', 'data-testid': 'moment-unseen-tiles' }, mo.unseen));
}

/** Step to the position after `k` lines of the sheet (clamped); the end is the live view. */
function stepTo(k) {
  const v = S.view;
  if (!v || v.phase.type !== 'ended') return;
  if (S.preview) analysis.clear();
  const n = (v.history || []).length;
  const to = Math.max(0, Math.min(n, k));
  S.step = to === n ? null : to;
  render();
}

function stepBy(d) {
  const n = (S.view.history || []).length;
  stepTo((S.step === null ? n : S.step) + d);
}

/** The analysis shows a move (or stops): the board, the moment beside it, in view. */
function onAnalysisPreview(p) {
  S.preview = p ? previewMoment(p) : null;
  if (p) S.step = null;
  render();
  if (p) bringIntoView();
}

/** Scrolls the moment and the board into view unless they are already wholly on the screen. */
function bringIntoView() {
  const h = window.innerHeight;
  const top = $('review').getBoundingClientRect();
  const bottom = $('board').getBoundingClientRect();
  if (top.top >= 0 && bottom.bottom <= h) return;
  $('review').scrollIntoView({ block: 'start', behavior: 'instant' });
}

function renderBoard() {
  const mo = moment();
  if (mo) {
    // A move the analysis shows, on the board as it was at that turn; or a step back through a
    // finished game (the game is not changed).
    board.render({ rows: mo.board, highlight: mo.highlight, preview: mo.tiles, cursor: null });
    return;
  }
  const highlight = new Set();
  for (const [r, c] of lastPlaySquares()) if (boardChar(r, c) !== '.') highlight.add(`${r},${c}`);
  const cursor = S.seat !== null && S.view.phase.type !== 'ended' ? S.cursor : null;
  board.render({ rows: S.view.board, highlight, placed: S.placed, cursor });
}

function renderRack() {
  const area = $('rack-area');
  if (S.seat === null) {
    area.hidden = true;
    $('cursor-help').hidden = true;
    $('alerts-row').hidden = true;
    $('game-end-row').hidden = true;
    $('move-sound-row').hidden = true;
    document.body.classList.add('observer');
    return;
  }
  area.hidden = false;
  const v = S.view;
  const ended = v.phase.type === 'ended';
  const ol = $('rack');
  const focusedId = document.activeElement && document.activeElement.dataset
    ? document.activeElement.dataset.tileId : undefined;
  ol.replaceChildren();
  const used = new Set([...S.placed.values()].map((p) => p.tileId));
  for (const t of S.rack) {
    const onBoard = used.has(t.id);
    const selected = S.exchangeSel.has(t.id);
    const fresh = S.fresh.has(t.id);
    const label = `${t.ch === '?' ? 'blank' : t.ch}, ${tileValue(t.ch)} point${tileValue(t.ch) === 1 ? '' : 's'}` +
      (fresh ? ', new' : '') +
      (onBoard ? ', on the board' : '') + (S.exchange ? (selected ? ', chosen for exchange' : ', not chosen') : '');
    const btn = el('button', {
      type: 'button',
      class: 'rack-tile' + (onBoard ? ' on-board' : '') + (selected ? ' selected' : '') + (fresh ? ' fresh' : ''),
      draggable: onBoard || ended ? null : 'true',
      'data-tile-id': t.id,
      'data-letter': t.ch,
      'aria-label': label,
      'aria-pressed': S.exchange ? String(selected) : null,
      disabled: ended ? true : null,
    }, tileNode(t.ch));
    btn.addEventListener('click', () => onRackTile(t));
    btn.addEventListener('keydown', (ev) => onRackKey(ev, t));
    btn.addEventListener('dragstart', (ev) => {
      S.drag = { kind: 'rack', id: t.id };
      ev.dataTransfer.setData('text/plain', `rack:${t.id}`);
      ev.dataTransfer.effectAllowed = 'move';
    });
    btn.addEventListener('dragend', () => { S.drag = null; });
    const li = el('li', { class: 'rack-slot' }, btn);
    li.addEventListener('dragover', (ev) => ev.preventDefault());
    li.addEventListener('drop', (ev) => {
      ev.preventDefault();
      ev.stopPropagation();
      dropOnRack(t.id, ev);
    });
    ol.append(li);
  }
  if (focusedId !== undefined) {
    const again = ol.querySelector(`[data-tile-id="${focusedId}"]`);
    if (again) again.focus();
  }

  const my = isMyMove();
  // The opponent went out: the only answers are to accept the play or challenge it (or hold
  // it while deciding); no move of one's own is possible (NASPA IV.I, V.A).
  const outPending = v.phase.type === 'play-pending' && v.phase.out && v.phase.player !== S.seat;
  for (const id of ['btn-play', 'btn-recall', 'btn-shuffle', 'btn-alpha', 'btn-exchange', 'btn-pass']) $(id).hidden = outPending;
  $('btn-play').disabled = !my || S.placed.size === 0 || S.exchange;
  $('btn-recall').disabled = S.placed.size === 0;
  $('btn-shuffle').disabled = ended;
  $('btn-alpha').disabled = ended;
  $('btn-exchange').disabled = !my || ended;
  $('btn-exchange').setAttribute('aria-pressed', String(S.exchange));
  $('btn-pass').disabled = !my || ended;
  // Resignation: where the rules carry the option (NASPA I.B), a request made on one's own turn.
  // (The preset's rules, or the organiser's choice of the option for this game.)
  const askResign = !!(S.ruleset && S.ruleset.resignation && S.ruleset.resignation.opponent_may_honour) ||
    (v.rules || []).includes('resignation-option=on');
  const btnResign = $('btn-resign');
  const btnLeave = $('btn-leave');
  if (!btnResign.classList.contains('confirming')) btnResign.textContent = askResign ? 'Ask to resign' : 'Resign';
  // A button asking for confirmation is named by what it shows; its label waits (confirmStep).
  const label = (b, text) => {
    if (b.classList.contains('confirming')) b.dataset.ariaLabel = text;
    else b.setAttribute('aria-label', text);
  };
  const margin = leaveMargin();
  const opponent = S.seat !== null ? v.players[1 - S.seat].name : 'your opponent';
  label(btnResign, askResign
    ? `Ask to resign: ${opponent} may honour it at the current score, or play on (${v.citations.resigning})`
    : `Resign the game: you lose by ${margin}, or by your deficit plus ${margin} (${v.citations.leaving})`);
  label(btnLeave, `Leave the game: you lose by ${margin}, or by your deficit plus ${margin} (${v.citations.leaving})`);
  // What each does, in words under them (they are apart from the move buttons, and only
  // Resign is red).
  $('end-help').textContent = askResign
    ? `Ask to resign: ${opponent} may end the game at the current score, or play on (${v.citations.resigning}). ` +
      `Leave: the game ends now and you lose by ${margin}, or by your deficit plus ${margin} (${v.citations.leaving}).`
    : `Resign or leave: either way the game ends now and you lose by ${margin}, or by your deficit plus ${margin} ` +
      `(${v.citations.leaving}).`;
  btnResign.disabled = ended || !!v.paused || (askResign && (!my || v.resignation_offer !== null && v.resignation_offer !== undefined));
  btnLeave.disabled = ended || !!v.paused;
  // Against an out play the only answers are Accept and Challenge (and Hold): no resigning.
  btnLeave.hidden = outPending;
  btnResign.hidden = outPending;
  $('end-help').hidden = outPending;
  // Only a game an event's director looks after can call one: in a casual game nobody could
  // restart the clocks.
  $('btn-director').hidden = !v.director;
  $('btn-director').disabled = ended || !!v.paused;
  const six = S.ruleset && S.ruleset.six_zero;
  $('btn-six').hidden = !(six && six.ending === 'either-player-may-end' && v.zero_run >= six.turns && !ended);
  $('exchange-bar').hidden = !S.exchange;
  const n = S.exchangeSel.size;
  $('btn-exchange-go').textContent = `Exchange ${n} tile${n === 1 ? '' : 's'}`;
  $('btn-exchange-go').disabled = n === 0;
  $('btn-exchange-all').disabled = n === S.rack.length;
  // While choosing tiles to exchange, the exchange's own buttons stand where the move buttons
  // were (a phone has no room for both).
  $('move-buttons').hidden = ended || S.exchange;
  $('cursor-help').hidden = ended;
  // After the game the rack is on the score sheet: no empty rack bar.
  area.hidden = ended;
  $('alerts-row').hidden = ended;
  $('game-end-row').hidden = ended;
}

function onRackTile(t) {
  if (S.exchange) {
    if (S.exchangeSel.has(t.id)) S.exchangeSel.delete(t.id); else S.exchangeSel.add(t.id);
    render();
    return;
  }
  // Without a drag: put the tile at the cursor (keyboard and touch users).
  const p = [...S.placed.entries()].find(([, x]) => x.tileId === t.id);
  if (p) {
    removePlaced(p[0]);
    render();
    return;
  }
  if (!S.cursor) S.cursor = { r: 7, c: 7, dir: 'across' };
  placeAtCursor(t);
}

async function placeAtCursor(t) {
  let { r, c } = S.cursor;
  const [dr, dc] = step(S.cursor.dir);
  while (inBoard(r, c) && occupied(r, c)) {
    r += dr;
    c += dc;
  }
  if (!inBoard(r, c)) return;
  S.cursor = { ...S.cursor, r, c };
  if (await placeTile(t, r, c)) advanceCursor();
  render();
}

function onRackKey(ev, t) {
  if (ev.key === 'ArrowLeft' || ev.key === 'ArrowRight') {
    ev.preventDefault();
    ev.stopPropagation();
    const i = S.rack.findIndex((x) => x.id === t.id);
    const j = ev.key === 'ArrowLeft' ? i - 1 : i + 1;
    if (j < 0 || j >= S.rack.length) return;
    if (ev.shiftKey || ev.altKey) {
      // Rearrange: move this tile one place.
      const [x] = S.rack.splice(i, 1);
      S.rack.splice(j, 0, x);
      render();
      const again = $('rack').querySelector(`[data-tile-id="${t.id}"]`);
      if (again) again.focus();
    } else {
      const next = $('rack').querySelector(`[data-tile-id="${S.rack[j].id}"]`);
      if (next) next.focus();
    }
  }
}

function shuffle() {
  for (let i = S.rack.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [S.rack[i], S.rack[j]] = [S.rack[j], S.rack[i]];
  }
  render();
}

/** The rack in alphabetical order, the blanks last. */
function alphabetize() {
  S.rack.sort((a, b) => tileOrder(a.ch, b.ch));
  render();
}

/** In an exchange: choose every tile of the rack. */
function chooseAllForExchange() {
  if (!S.exchange) toggleExchange(true);
  for (const t of S.rack) S.exchangeSel.add(t.id);
  render();
}

function toggleExchange(on) {
  S.exchange = on === undefined ? !S.exchange : on;
  S.exchangeSel.clear();
  if (S.exchange) recall();
  render();
  if (S.exchange) {
    const first = $('rack').querySelector('button');
    if (first) first.focus();
  }
}

function doExchange() {
  const tiles = S.rack.filter((t) => S.exchangeSel.has(t.id)).map((t) => t.ch).join('');
  if (!tiles) return;
  send({ type: 'exchange', tiles });
}

function renderPending() {
  const v = S.view;
  const box = $('pending');
  const ph = v.phase;
  if (ph.type !== 'play-pending') {
    box.hidden = true;
    box.replaceChildren();
    delete box.dataset.key;
    return;
  }
  box.hidden = false;
  const who = v.players[ph.player].name;
  const play = ph.play || {};
  const voidRule = v.challenge && v.challenge.kind === 'void';
  const key = `${v.seq}:${ph.held}:${S.seat}`;
  if (box.dataset.key === key) return; // keep the ticks the player has made
  box.dataset.key = key;
  box.replaceChildren();
  const desc = () => [play.position, ' ', wordNode(play.position, play.word),
    ` for ${play.score}${ph.out ? ' (going out)' : ''}`];
  if (S.seat !== null && ph.player !== S.seat) {
    box.append(el('h2', {}, `${who} played `, desc()));
    if (ph.held) box.append(el('p', { class: 'held', 'data-testid': 'held' }, 'You are holding the play.'));
    if (!voidRule) {
      const list = el('div', { class: 'challenge-list' });
      const fs = el('fieldset', { class: 'challenge-words' },
        el('legend', {}, `Words to challenge (${(play.words || []).length})`), list);
      (play.words || []).forEach((w, i) => {
        const id = `chw-${i}`;
        list.append(el('div', { class: 'check' },
          el('input', { type: 'checkbox', id, value: w, checked: true, 'data-testid': 'challenge-word' }),
          el('label', { for: id }, w)));
      });
      box.append(fs);
    }
    const buttons = el('div', { class: 'buttons' });
    if (!voidRule) {
      buttons.append(
        el('button', {
          type: 'button', id: 'btn-hold', disabled: ph.held ? true : null,
          'aria-label': ph.held ? 'Held: the play is held' : 'Hold the play while you decide',
          'aria-keyshortcuts': null,
          onclick: () => send({ type: 'hold' }),
        }, ph.held ? 'Held' : 'Hold'),
        el('button', {
          type: 'button', id: 'btn-challenge', class: 'danger', 'aria-label': 'Challenge the ticked words',
          'aria-keyshortcuts': '3',
          onclick: () => {
            const words = [...box.querySelectorAll('input[type=checkbox]:checked')].map((x) => x.value);
            if (words.length === 0) {
              showError('Tick at least one word to challenge');
              return;
            }
            send({ type: 'challenge', words });
          },
        }, 'Challenge'));
    }
    buttons.append(el('button', {
      type: 'button', id: 'btn-accept', class: 'primary', 'aria-label': 'Accept the play',
      onclick: () => send({ type: 'accept' }),
    }, 'Accept'));
    box.append(buttons,
      el('p', { class: 'hint', 'data-testid': 'pending-hint' }, ph.out
        ? `${who} went out: accept the play to end the game, or challenge it.`
        : 'Making your own move also accepts the play.'));
  } else if (S.seat !== null) {
    box.append(el('h2', {}, 'Your play ', desc(), ' is pending'),
      el('p', { 'data-testid': ph.held ? 'held' : null },
        ph.held ? `${v.players[1 - ph.player].name} is holding it.` : `${v.players[1 - ph.player].name} may hold, challenge or accept it.`));
  } else {
    box.append(el('h2', {}, `${who} played `, desc()),
      el('p', {}, ph.held ? 'The play is held.' : 'The opponent may challenge it.'));
  }
}

/** A played word as a person reads it, on the live board (see `wordNode` in common.js). */
function wordNode(position, word) {
  return wordOn(position, word, boardChar);
}

/** A score-sheet line in GCG notation, and a note saying what it was. */
function moveText(line) {
  switch (line.type) {
    case 'play': return [[`${line.position} `, wordNode(line.position, line.word)], ''];
    case 'exchange': return [line.tiles ? `-${line.tiles}` : `-${line.count}`, 'exchange'];
    case 'pass': return ['-', 'pass'];
    case 'lost-challenge': return ['-', 'lost challenge'];
    case 'timed-out': return ['-', 'turn timed out'];
    case 'withdrawal': return ['--', 'withdrawn'];
    case 'challenge-bonus': return ['(challenge)', ''];
    case 'time-penalty': return ['(time)', 'overtime'];
    case 'end-rack': return [`(${line.tiles})`, line.score < 0 ? 'own rack' : "opponent's rack"];
    case 'adjustment': return ['', line.why || 'adjustment'];
    default: return [line.type, ''];
  }
}

function renderSheet() {
  const v = S.view;
  const tbody = $('sheet').tBodies[0];
  tbody.replaceChildren();
  (v.history || []).forEach((line, i) => {
    const [gcg, note] = moveText(line);
    const extra = line.type === 'play' && line.words && line.words.length > 1
      ? line.words.slice(1).join(', ') : note;
    const current = S.step !== null && i === S.step - 1;
    tbody.append(el('tr', {
      class: `seat-${line.seat}${current ? ' current-step' : ''}`,
      'data-testid': 'sheet-row',
      'data-type': line.type,
      'aria-current': current ? 'step' : null,
    },
      el('td', {}, String(i + 1)),
      el('td', {}, v.players[line.seat].name),
      el('td', { class: 'rack-cell' }, line.rack || ''),
      el('td', { class: 'move' }, gcg, extra ? el('span', { class: 'cross' }, ` ${extra}`) : null),
      el('td', { class: 'score' }, signed(line.score)),
      el('td', { class: 'cum' }, String(line.cumulative))));
  });
  const scroll = $('sheet').parentElement;
  const row = S.step !== null ? tbody.querySelector('tr.current-step') : null;
  if (row) scroll.scrollTop = Math.max(0, row.offsetTop - scroll.clientHeight / 2);
  else if (S.step === null) scroll.scrollTop = scroll.scrollHeight;
  $('gcg-link').href = `/api/games/${encodeURIComponent(gameId)}/gcg`;
  $('gcg-link').setAttribute('download', `tilebag-${gameId}.gcg`);
}

function renderGraph() {
  const v = S.view;
  const h = v.history || [];
  const W = 320;
  const H = 140;
  const pad = 24;
  // A step for each line of the sheet; each player's total carries over the other's lines.
  const series = [[[0, 0]], [[0, 0]]];
  const cum = [0, 0];
  h.forEach((line, i) => {
    cum[line.seat] = line.cumulative;
    for (const s of [0, 1]) series[s].push([i + 1, cum[s]]);
  });
  const all = series.flat();
  const maxY = Math.max(50, ...all.map((p) => p[1]));
  const minY = Math.min(0, ...all.map((p) => p[1]));
  const maxX = Math.max(1, h.length);
  const x = (i) => pad + ((W - 2 * pad) * i) / maxX;
  const y = (s) => H - pad - ((H - 2 * pad) * (s - minY)) / (maxY - minY || 1);
  const names = v.players.map((p) => p.name);
  const node = svg('svg', {
    viewBox: `0 0 ${W} ${H}`, class: 'score-graph', role: 'img',
    'aria-label': `Score graph: ${names[0]} ${v.players[0].score}, ${names[1]} ${v.players[1].score}`,
  },
  svg('line', { x1: pad, y1: y(0), x2: W - pad, y2: y(0), class: 'axis' }),
  svg('text', { x: 2, y: y(maxY) + 4, class: 'axis-label' }, String(maxY)),
  svg('text', { x: 2, y: y(0) + 4, class: 'axis-label' }, '0'),
  series.map((pts, s) => svg('polyline', {
    points: pts.map(([i, sc]) => `${x(i).toFixed(1)},${y(sc).toFixed(1)}`).join(' '),
    class: `series seat-${s}`,
  })),
  names.map((n, s) => svg('text', { x: pad + s * 140, y: 12, class: `legend seat-${s}` }, `\u25A0 ${n}`)));
  $('graph').replaceChildren(node);
}

function renderTrackingPanel() {
  const v = S.view;
  let tiles;
  let where;
  const mo = moment();
  if (mo) {
    tiles = mo.unseen;
    where = mo.unseenTo !== null
      ? `At the moment shown on the board, as ${v.players[mo.unseenTo].name} saw it: the bag and the opponent's rack`
      : 'At the moment shown on the board: the bag and both racks';
    $('tracking-where').textContent = where;
    renderTracking($('tracking'), tiles, 'Unseen tiles');
    return;
  }
  if (S.seat !== null && typeof v.unseen === 'string') {
    tiles = v.unseen;
    const opp = v.players[1 - S.seat].rack_count;
    where = `In the bag: ${v.bag_count} · on ${v.players[1 - S.seat].name}'s rack: ${opp}`;
  } else {
    tiles = unseenFromBoard(v.board);
    where = `In the bag: ${v.bag_count} · on the racks: ${v.players[0].rack_count + v.players[1].rack_count}`;
  }
  // The organiser's choices, where the game's rules differ from the preset as published.
  if (v.rules && v.rules.length) where += ` · rules: ${v.preset} with ${v.rules.join(', ')}`;
  $('tracking-where').textContent = where;
  renderTracking($('tracking'), tiles, 'Unseen tiles');
}

function reasonText(reason, names) {
  switch (reason.type) {
    case 'went-out': return `${names[reason.seat]} went out.`;
    case 'six-zeros': return 'Six successive scoreless turns.';
    case 'overtime-limit': return `${names[reason.seat]} went past the overtime limit.`;
    case 'game-clock-expired': return 'The game clock ran out.';
    case 'resigned': return `${names[reason.seat]} resigned.`;
    case 'left': return `${names[reason.seat]} left the game.`;
    case 'director-ended': return 'The director ended the game.';
    default: return reason.type;
  }
}

function renderResult() {
  const v = S.view;
  const box = $('result');
  if (!v.result) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const r = v.result;
  const names = v.players.map((p) => p.name);
  const head = r.winner === null || r.winner === undefined
    ? `A tie, ${r.scores[0]} to ${r.scores[1]}`
    : `${names[r.winner]} wins ${r.scores[r.winner]} to ${r.scores[1 - r.winner]} (spread ${signed(Math.abs(r.spread))})`;
  const adj = el('ul', { class: 'adjustments', 'data-testid': 'adjustments' });
  const endLines = (v.history || []).filter((l) => l.type === 'end-rack');
  for (const a of r.adjustments || []) {
    const rackLine = endLines.find((l) => l.seat === a.seat && l.score === a.points);
    adj.append(el('li', {},
      el('strong', {}, `${names[a.seat]}: ${signed(a.points)}`),
      ` \u2014 ${a.why}`,
      rackLine ? ` (tiles ${rackLine.tiles})` : ''));
  }
  box.replaceChildren(
    el('h2', {}, 'Result'),
    el('p', { class: 'result-line', 'data-testid': 'result' }, head),
    el('p', {}, `Why the game ended: ${reasonText(r.reason, names)}`),
    (r.adjustments || []).length
      ? el('div', {}, el('h3', {}, 'End-of-game adjustments'), adj)
      : el('p', {}, 'No end-of-game adjustments.'),
    el('div', { class: 'buttons' }, el('button', {
      type: 'button', id: 'btn-analyse', class: 'primary', 'data-testid': 'analyse',
      onclick: () => analysis.open(v.players.map((p) => p.name)),
    }, 'Analyse')));
}

// /games/ID#analysis (the link on a player's profile): once the view says the game has ended,
// its analysis opens as the Analyse button opens it; before then the page says when it will.
let analysisLinked = null; // null, 'told' (the game was on) or 'opened'
function openAnalysisFromLink() {
  if (location.hash !== '#analysis' || analysisLinked === 'opened' || !S.view) return;
  if (S.view.phase.type === 'ended') {
    analysisLinked = 'opened';
    analysis.open(S.view.players.map((p) => p.name));
  } else if (!analysisLinked) {
    analysisLinked = 'told';
    notice('The analysis opens here when the game has ended.');
  }
}

// ---------------------------------------------------------------------------------------------
// Messages for the player

let noticeTimer;
function notice(text) {
  $('notice').textContent = text;
  clearTimeout(noticeTimer);
  if (text) noticeTimer = setTimeout(() => { $('notice').textContent = ''; }, 8000);
}

function showError(text) {
  $('error').textContent = text;
}

function announceEffects(effects) {
  const v = S.view;
  const name = (s) => (v.players[s] ? v.players[s].name : `Player ${s + 1}`);
  const parts = [];
  // A resignation ends the game; the play before it standing is not news then.
  const resigned = effects.some((e) => e.type === 'ended' && e.reason.type === 'resigned');
  for (const e of effects) {
    switch (e.type) {
      case 'played': parts.push(`${name(e.seat)} played for ${e.score}${e.out ? ', going out' : ''}.`); break;
      case 'exchanged': parts.push(`${name(e.seat)} exchanged ${e.count} tile${e.count === 1 ? '' : 's'}.`); break;
      case 'passed': parts.push(`${name(e.seat)} passed.`); break;
      case 'held': parts.push(`${name(e.seat)} is holding the play.`); break;
      case 'play-final': if (!resigned) parts.push(`${name(e.seat)}'s play stands.`); break;
      case 'resignation-offered': parts.push(`${name(e.seat)} asks to resign.`); break;
      case 'resignation-declined': parts.push(`${name(e.seat)} insists on playing on.`); break;
      case 'verdict': parts.push(`Challenge: the play is ${e.acceptable ? 'ACCEPTABLE' : 'NOT ACCEPTABLE'}.`); break;
      case 'withdrawn': parts.push(`${name(e.seat)}'s play is withdrawn.`); break;
      case 'challenge-bonus': parts.push(`${name(e.seat)} gets ${e.points} points for the challenge.`); break;
      case 'turn-lost': parts.push(`${name(e.seat)} loses the turn.`); break;
      case 'turn-timed-out': parts.push(`${name(e.seat)}'s turn timed out.`); break;
      case 'paused': parts.push(e.called_by === null ? 'The director stopped the clocks.' : `${name(e.called_by)} called the director: the clocks are stopped.`); break;
      case 'resumed': parts.push('The director restarted the clocks.'); break;
      case 'ended':
        parts.push(e.reason.type === 'resigned'
          ? `The game is over because ${name(e.reason.seat)} resigned.`
          : `The game is over: ${reasonText(e.reason, v.players.map((p) => p.name))}`);
        break;
      default: break;
    }
  }
  // A new change replaces the last notice, so none outlives what it described (a hold that
  // has since been accepted, ...).
  notice(parts.join(' '));
}

// ---------------------------------------------------------------------------------------------
// Keyboard

/** Presses a button of the page by key, if it is there to press (shown and enabled). */
function pressIfShown(id) {
  const b = $(id);
  if (!b || b.disabled || b.closest('[hidden]') || b.getClientRects().length === 0) return false;
  b.click();
  return true;
}

function onKey(ev) {
  if ($('blank-dialog').open) return;
  const t = ev.target;
  const tag = t && t.tagName;
  if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') return;
  if (ev.ctrlKey || ev.metaKey) return;
  const k = ev.key;
  // After the game: the arrows step through it (not inside the score sheet, which scrolls).
  if (S.view && S.view.phase.type === 'ended' && !ev.altKey && !(t && t.closest && t.closest('.table-scroll'))) {
    const steps = { ArrowLeft: () => stepBy(-1), ArrowRight: () => stepBy(1), Home: () => stepTo(0), End: () => stepTo(Infinity) };
    if (steps[k]) {
      ev.preventDefault();
      steps[k]();
      return;
    }
  }
  if (S.seat === null || !S.view || S.view.phase.type === 'ended') return;
  const onControl = tag === 'BUTTON' || tag === 'A';
  const onBoard = t === board.grid;
  // The keys a Woogles player knows: 1 shuffle, 2 pass, 3 challenge, 4 exchange, $ exchange the
  // whole rack; and 5 for alphabetical order. Digits are never letters, so typing words on the
  // board is not disturbed.
  if (!ev.altKey && ['1', '2', '3', '4', '5', '$'].includes(k)) {
    ev.preventDefault();
    if (k === '1') shuffle();
    else if (k === '5') alphabetize();
    else if (k === '2') pressIfShown('btn-pass');
    else if (k === '3') pressIfShown('btn-challenge');
    else if (k === '4') {
      if (S.exchange) toggleExchange(false);
      else pressIfShown('btn-exchange');
    } else if (k === '$' && (S.exchange || !$('btn-exchange').disabled)) chooseAllForExchange();
    return;
  }
  if (S.exchange) {
    if (/^[a-zA-Z?]$/.test(k)) {
      const ch = k === '?' ? '?' : k.toUpperCase();
      const tile = S.rack.find((x) => x.ch === ch && !S.exchangeSel.has(x.id));
      if (tile) S.exchangeSel.add(tile.id);
      ev.preventDefault();
      render();
    } else if (k === 'Backspace') {
      const last = [...S.exchangeSel].pop();
      if (last !== undefined) S.exchangeSel.delete(last);
      ev.preventDefault();
      render();
    } else if (k === 'Enter' && !onControl) {
      ev.preventDefault();
      doExchange();
    } else if (k === 'Escape') {
      ev.preventDefault();
      toggleExchange(false);
    }
    return;
  }
  if (/^[a-zA-Z]$/.test(k) && !ev.altKey) {
    ev.preventDefault();
    typeLetter(k.toUpperCase(), ev.shiftKey);
    return;
  }
  if (k === '?' || k === '*') {
    ev.preventDefault();
    typeBlank();
    return;
  }
  if (k === 'Backspace') {
    ev.preventDefault();
    backspace();
    return;
  }
  if (k === 'Escape') {
    ev.preventDefault();
    recall();
    return;
  }
  if (k === 'Enter' && !onControl) {
    ev.preventDefault();
    play();
    return;
  }
  if (k.startsWith('Arrow') && (onBoard || (tag === 'BODY' && S.cursor))) {
    ev.preventDefault();
    const dir = k === 'ArrowLeft' || k === 'ArrowRight' ? 'across' : 'down';
    if (!S.cursor) S.cursor = { r: 7, c: 7, dir };
    else if (S.cursor.dir !== dir) S.cursor = { ...S.cursor, dir };
    else {
      const d = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] }[k];
      const r = S.cursor.r + d[0];
      const c = S.cursor.c + d[1];
      if (inBoard(r, c)) S.cursor = { ...S.cursor, r, c };
    }
    render();
    return;
  }
  if (k === ' ' && onBoard) {
    ev.preventDefault();
    if (!S.cursor) S.cursor = { r: 7, c: 7, dir: 'across' };
    else S.cursor = { ...S.cursor, dir: S.cursor.dir === 'down' ? 'across' : 'down' };
    render();
  }
}

function onSquareClick(r, c) {
  if (S.seat === null || !S.view || S.view.phase.type === 'ended') return;
  const key = `${r},${c}`;
  if (S.placed.has(key)) {
    removePlaced(key);
    S.cursor = { r, c, dir: S.cursor ? S.cursor.dir : 'across' };
  } else if (S.cursor && S.cursor.r === r && S.cursor.c === c) {
    S.cursor = { r, c, dir: S.cursor.dir === 'down' ? 'across' : 'down' };
  } else {
    S.cursor = { r, c, dir: S.cursor ? S.cursor.dir : 'across' };
  }
  board.grid.focus({ preventScroll: true });
  render();
}

// ---------------------------------------------------------------------------------------------
// Start

// ---------------------------------------------------------------------------------------------
// Settings kept in this browser: the theme (the system's, light or dark), the board's contrast;
// and the notepad, one per game.

const THEME_KEY = 'tilebag.theme';
const CONTRAST_KEY = 'tilebag.contrast';

function stored(key, fallback) {
  try { return localStorage.getItem(key) || fallback; } catch { return fallback; }
}

function store(key, value) {
  try { localStorage.setItem(key, value); } catch { /* private mode: not kept */ }
}

const darkQuery = window.matchMedia ? window.matchMedia('(prefers-color-scheme: dark)') : null;

function applyTheme() {
  const theme = stored(THEME_KEY, 'auto');
  const dark = theme === 'dark' || (theme === 'auto' && !!darkQuery && darkQuery.matches);
  // Both marks: the stylesheet follows the system's preference until one of them is set.
  document.documentElement.classList.toggle('theme-dark', dark);
  document.documentElement.classList.toggle('theme-light', !dark);
  document.documentElement.classList.toggle('hc-board', stored(CONTRAST_KEY, 'off') === 'on');
}

function initSettings() {
  const theme = $('theme');
  theme.value = stored(THEME_KEY, 'auto');
  theme.addEventListener('change', () => {
    store(THEME_KEY, theme.value);
    applyTheme();
  });
  if (darkQuery) darkQuery.addEventListener('change', applyTheme);
  const contrast = $('contrast');
  contrast.checked = stored(CONTRAST_KEY, 'off') === 'on';
  contrast.addEventListener('change', () => {
    store(CONTRAST_KEY, contrast.checked ? 'on' : 'off');
    applyTheme();
  });
  const sound = $('move-sound');
  sound.checked = moveSoundOn();
  sound.addEventListener('change', () => {
    store(MOVE_SOUND_KEY, sound.checked ? 'on' : 'off');
    if (sound.checked) chime();
  });
  applyTheme();
  const notes = $('notepad');
  const notesKey = `tilebag.notes.${gameId}`;
  notes.value = stored(notesKey, '');
  notes.addEventListener('input', () => store(notesKey, notes.value));
}

/** The site's pages: behind a "Pages" button on a phone, open on a wider screen. */
function initNav() {
  const menu = el('details', { class: 'site-menu' }, el('summary', {}, 'Pages'), navLinks(''));
  $('nav').replaceWith(menu);
  const wide = window.matchMedia('(min-width: 601px)');
  const sync = () => { menu.open = wide.matches; };
  sync();
  wide.addEventListener('change', sync);
  // A tap elsewhere, or Esc, closes it on a phone.
  document.addEventListener('click', (ev) => {
    if (!wide.matches && menu.open && !menu.contains(ev.target)) menu.open = false;
  });
  menu.addEventListener('keydown', (ev) => {
    if (ev.key === 'Escape' && !wide.matches) {
      menu.open = false;
      menu.querySelector('summary').focus();
    }
  });
}

async function init() {
  initNav();
  initSettings();
  buildBlankLetters();
  board = new BoardView($('board-holder'), {
    id: 'board',
    label: 'Board: 15 by 15 squares; columns A to O, rows 1 to 15',
    interactive: true,
    onSquareClick,
    onDrop: dropOnSquare,
    onTileDragStart: (r, c, ev) => {
      S.drag = { kind: 'board', key: `${r},${c}` };
      ev.dataTransfer.setData('text/plain', `board:${r},${c}`);
    },
  });
  analysis = new Analysis(gameId, onAnalysisPreview);
  // A click on a square focuses the board first: the click itself places the cursor (the
  // default cursor on H8 is for keyboard focus; re-rendering under the pointer would eat the click).
  let pointerFocus = false;
  board.grid.addEventListener('pointerdown', () => { pointerFocus = true; });
  document.addEventListener('pointerup', () => { pointerFocus = false; });
  board.grid.addEventListener('focus', () => {
    if (pointerFocus) return;
    if (S.seat !== null && !S.cursor && S.view && S.view.phase.type !== 'ended') {
      S.cursor = { r: 7, c: 7, dir: 'across' };
      render();
    }
  });
  const rack = $('rack');
  rack.addEventListener('dragover', (ev) => ev.preventDefault());
  rack.addEventListener('drop', (ev) => {
    ev.preventDefault();
    dropOnRack(null, ev);
  });
  $('btn-play').addEventListener('click', play);
  $('btn-recall').addEventListener('click', recall);
  $('btn-shuffle').addEventListener('click', shuffle);
  $('btn-alpha').addEventListener('click', alphabetize);
  $('btn-exchange-all').addEventListener('click', chooseAllForExchange);
  $('step-first').addEventListener('click', () => stepTo(0));
  $('step-prev').addEventListener('click', () => stepBy(-1));
  $('step-next').addEventListener('click', () => stepBy(1));
  $('step-last').addEventListener('click', () => stepTo(Infinity));
  $('back-to-analysis').addEventListener('click', () => analysis.backToList());
  window.addEventListener('hashchange', () => { analysisLinked = null; openAnalysisFromLink(); });
  $('preview-clear').addEventListener('click', () => {
    const was = analysis.clear();
    if (was) was.focus({ preventScroll: true });
  });
  $('btn-exchange').addEventListener('click', () => toggleExchange());
  $('btn-exchange-go').addEventListener('click', doExchange);
  $('btn-exchange-cancel').addEventListener('click', () => toggleExchange(false));
  $('btn-pass').addEventListener('click', (ev) => confirmStep(ev.currentTarget, 'Confirm pass', () => send({ type: 'pass' })));
  $('btn-resign').addEventListener('click', (ev) => confirmStep(ev.currentTarget, 'Confirm resign', () => send({ type: 'resign' })));
  $('btn-leave').addEventListener('click', (ev) => confirmStep(ev.currentTarget, 'Confirm: leave the game', () => send({ type: 'leave' })));
  const alerts = $('alerts');
  alerts.checked = alertsOn();
  alerts.addEventListener('change', () => {
    try { localStorage.setItem(ALERTS_KEY, alerts.checked ? 'on' : 'off'); } catch { /* private mode */ }
    if (alerts.checked && 'Notification' in window && Notification.permission === 'default') {
      Notification.requestPermission().catch(() => {});
    }
    if (alerts.checked) beep();
  });
  $('btn-director').addEventListener('click', (ev) => confirmStep(ev.currentTarget, 'Confirm: call the director', () => send({ type: 'call-director' })));
  $('btn-six').addEventListener('click', (ev) => confirmStep(ev.currentTarget, 'Confirm: end the game', () => send({ type: 'end-after-six-zeros' })));
  document.addEventListener('keydown', onKey);
  document.addEventListener('visibilitychange', () => {
    if (!document.hidden && !S.ws) connect();
  });
  window.addEventListener('online', () => { if (!S.ws) connect(); });
  setInterval(updateClocks, 200);
  if (!gameId) {
    showError('No game named in the address.');
    return;
  }
  try {
    await api(`/api/games/${encodeURIComponent(gameId)}`);
  } catch (e) {
    if (e.status === 404) {
      setConn('offline', 'No such game');
      showError(`There is no game ${gameId}.`);
      return;
    }
  }
  connect();
}

// For debugging and the browser tests: the page's state and a way to drop the connection.
window.tilebag = {
  state: S,
  alerts: [], // what the sound-and-notice alerts said (for the tests)
  sounds: [], // the sounds made when the opponent moved (for the tests)
  dropConnection: () => { if (S.ws) S.ws.close(); },
  computePlay,
};

init();
