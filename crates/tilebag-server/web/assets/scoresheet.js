// The over-the-board score sheet: record plays as they are made (position and word in GCG
// notation, the score the player announced), check every score against the board with the
// server's engine (POST /api/gcg/verify), track the unseen tiles, export GCG. The sheet is kept
// in localStorage.

import { api, download, el, navLinks, renderTracking, signed, tileValue } from './common.js';
import { BoardView } from './board.js';

const $ = (id) => document.getElementById(id);
const KEY = 'tilebag.scoresheet.v1';
const HEADER_LINES = 3;

let sheet = load();
let board;
let verifySeq = 0;
let last = null; // the last verification
let editing = null; // the index of the line being edited, or null (a new line)
let computeSeq = 0;
let computeTimer = null;

function load() {
  try {
    const s = JSON.parse(localStorage.getItem(KEY) || 'null');
    if (s && Array.isArray(s.lines) && Array.isArray(s.names)) return s;
  } catch {
    // fall through
  }
  return { names: ['Player 1', 'Player 2'], lines: [] };
}

function save() {
  try {
    localStorage.setItem(KEY, JSON.stringify(sheet));
  } catch {
    // no storage: the sheet lives as long as the page
  }
}

function nicks() {
  const n = sheet.names.map((x, i) => (x.trim().replace(/[^A-Za-z0-9_.-]+/g, '_') || `player${i + 1}`));
  if (n[0] === n[1]) n[1] += '_2';
  return n;
}

function cumulatives() {
  const tot = [0, 0];
  return sheet.lines.map((l) => {
    tot[l.player] += l.score;
    return tot[l.player];
  });
}

function gcgText(lines = sheet.lines) {
  const [a, b] = nicks();
  const out = ['#character-encoding UTF-8', `#player1 ${a} ${sheet.names[0]}`, `#player2 ${b} ${sheet.names[1]}`];
  const tot = [0, 0];
  lines.forEach((l) => {
    tot[l.player] += l.score;
    out.push(`>${l.player === 0 ? a : b}: ${l.move} ${signed(l.score)} ${tot[l.player]}`);
  });
  return `${out.join('\n')}\n`;
}

const MOVE_RE = /^(?:(?:\d{1,2}[A-Oa-o]|[A-Oa-o]\d{1,2})\s+[A-Za-z.]{1,15}|-|--|-[A-Za-z?]{1,7}|-[1-7]|\((?:challenge|time)\)|\([A-Za-z?]{1,7}\))$/i;

/** Normalise what was typed: one space between position and word, exchanges in capitals. */
function normaliseMove(raw) {
  const m = raw.trim().replace(/\s+/g, ' ');
  if (/^-[a-z?]+$/i.test(m)) return m.toUpperCase();
  if (/^\((challenge|time)\)$/i.test(m)) return m.toLowerCase();
  if (/^\([a-z?]+\)$/i.test(m)) return m.toUpperCase();
  const p = /^(\d{1,2}[A-Oa-o]|[A-Oa-o]\d{1,2}) (.+)$/.exec(m);
  if (p) return `${p[1].toUpperCase()} ${p[2]}`;
  return m;
}

function lastMovePlayer() {
  for (let i = sheet.lines.length - 1; i >= 0; i--) {
    const mv = sheet.lines[i].move;
    if (!/^\(|^--$/.test(mv)) return sheet.lines[i].player;
  }
  return null;
}

function defaultPlayer(move) {
  const lp = lastMovePlayer();
  if (lp === null) return 0;
  if (move === '--' || move === '(challenge)') return lp;
  return 1 - lp;
}

function defaultScore(move, player) {
  if (move === '--') {
    for (let i = sheet.lines.length - 1; i >= 0; i--) {
      if (sheet.lines[i].player === player) return -sheet.lines[i].score;
    }
    return 0;
  }
  if (move === '-' || /^-[A-Z?1-7]/.test(move)) return 0;
  const rack = /^\(([A-Z?]+)\)$/.exec(move);
  if (rack) return 2 * [...rack[1]].reduce((s, ch) => s + tileValue(ch), 0);
  return null;
}

function addLine(ev) {
  ev.preventDefault();
  $('entry-error').textContent = '';
  const move = normaliseMove($('entry-move').value);
  if (!MOVE_RE.test(move)) {
    $('entry-error').textContent = `“${move}” is not a move in GCG notation (see the examples below).`;
    $('entry-move').focus();
    return;
  }
  const player = Number($('entry-player').value);
  let scoreText = $('entry-score').value.trim();
  let score;
  if (scoreText === '') {
    score = defaultScore(move, player);
    if (score === null) {
      $('entry-error').textContent = 'Type the score the player announced.';
      $('entry-score').focus();
      return;
    }
  } else {
    scoreText = scoreText.replace('\u2212', '-');
    if (!/^[+-]?\d{1,4}$/.test(scoreText)) {
      $('entry-error').textContent = `“${scoreText}” is not a score.`;
      $('entry-score').focus();
      return;
    }
    score = Number(scoreText);
    if (move === '(time)' && score > 0) score = -score;
  }
  if (editing !== null && editing < sheet.lines.length) {
    // An earlier line corrected in place; the lines after it stay.
    sheet.lines[editing] = { player, move, score };
  } else {
    sheet.lines.push({ player, move, score });
  }
  stopEditing();
  save();
  $('entry-move').value = '';
  $('entry-score').value = '';
  $('entry-player').value = String(defaultPlayer(''));
  $('entry-computed').textContent = '';
  render();
  verify();
  $('entry-move').focus();
}

/** Put line `i` in the entry form to correct it. */
function editLine(i) {
  const l = sheet.lines[i];
  if (!l) return;
  editing = i;
  $('entry-player').value = String(l.player);
  $('entry-move').value = l.move;
  $('entry-score').value = String(l.score);
  $('entry-add').textContent = `Save line ${i + 1}`;
  $('entry-cancel').hidden = false;
  $('entry-h').textContent = `Correct line ${i + 1}`;
  computeLater();
  $('entry-move').focus();
}

function stopEditing() {
  editing = null;
  $('entry-add').textContent = 'Add';
  $('entry-cancel').hidden = true;
  $('entry-h').textContent = 'Record a move';
}

/** The score the board gives the move being typed, before it is added (the server's engine
 * checks the sheet with the move in place). */
function computeLater() {
  clearTimeout(computeTimer);
  computeTimer = setTimeout(computeEntry, 250);
}

async function computeEntry() {
  const seq = ++computeSeq;
  const out = $('entry-computed');
  const move = normaliseMove($('entry-move').value);
  if (!move || !MOVE_RE.test(move) || !/^(\d|[A-O])/i.test(move)) {
    out.textContent = '';
    delete out.dataset.score;
    return;
  }
  const player = Number($('entry-player').value);
  const lines = sheet.lines.slice();
  const at = editing !== null && editing < lines.length ? editing : lines.length;
  lines.splice(at, editing !== null && editing < lines.length ? 1 : 0, { player, move, score: 0 });
  try {
    const r = await api('/api/gcg/verify', { json: { gcg: gcgText(lines.slice(0, at + 1)) } });
    if (seq !== computeSeq) return;
    const line = r.lines && r.lines[at];
    // (The move was sent with a score of 0: a score that differs is expected, not an error.)
    if (line && line.checked && line.score !== null && line.score !== undefined) {
      out.dataset.score = String(line.score);
      out.textContent = `The board gives ${move} ${line.score} points` +
        (line.words && line.words.length ? ` (${line.words.join(', ')})` : '') + '.';
    } else {
      delete out.dataset.score;
      const why = (line && line.error) || (r.error && r.error.message) || 'the board cannot score it';
      out.textContent = `Not scored: ${why.replace(/^line \d+: /, '')}`;
    }
  } catch (e) {
    if (seq === computeSeq) out.textContent = '';
  }
}

function render() {
  const cums = cumulatives();
  // The running totals by the board (the engine's score of each line, where it has one).
  const btot = [0, 0];
  const bcums = sheet.lines.map((l, i) => {
    const r = last && last.lines ? last.lines[i] : null;
    btot[l.player] += r && r.score !== null && r.score !== undefined ? r.score : l.score;
    return btot[l.player];
  });
  const tbody = $('sheet').tBodies[0];
  const names = sheet.names;
  tbody.replaceChildren(...sheet.lines.map((l, i) => {
    const r = last && last.lines ? last.lines[i] : null;
    let check = '';
    let cls = '';
    if (r && r.error) {
      cls = 'differs';
      check = r.score !== null && r.score !== undefined ? `${signed(r.score)} \u2717` : '\u2717';
    } else if (r && r.checked) {
      cls = 'agrees';
      check = `${signed(r.score)} \u2713`;
    } else if (last && last.lines) {
      check = 'not checked';
    }
    const words = r && r.words && r.words.length ? el('div', { class: 'words' }, r.words.join(', ')) : null;
    return el('tr', { class: `seat-${l.player} ${cls}`, 'data-testid': 'ots-row' },
      el('td', {}, String(i + 1)),
      el('td', {}, names[l.player]),
      el('td', { class: 'move' }, l.move, words),
      el('td', { class: 'score' }, signed(l.score)),
      el('td', { class: 'cum' }, String(cums[i])),
      el('td', { class: 'engine', 'aria-label': r && r.error ? `differs: ${r.error}` : null }, check),
      el('td', { class: 'cum board-cum', 'data-testid': 'board-cum' }, String(bcums[i])),
      el('td', {}, el('button', {
        type: 'button', class: 'edit-line', 'data-testid': 'edit-line',
        'aria-label': `Correct line ${i + 1}`, onclick: () => editLine(i),
      }, 'Edit')));
  }));
  const tot = [0, 0];
  sheet.lines.forEach((l) => { tot[l.player] += l.score; });
  $('total-0').textContent = `${names[0]} ${tot[0]}`;
  $('total-1').textContent = `${names[1]} ${tot[1]}`;
  $('btotal-0').textContent = `${names[0]} ${btot[0]}`;
  $('btotal-1').textContent = `${names[1]} ${btot[1]}`;
  const sel = $('entry-player');
  const cur = sel.value;
  sel.replaceChildren(...names.map((n, i) => el('option', { value: String(i) }, n)));
  sel.value = cur === '' ? String(defaultPlayer('')) : cur;
  $('undo').disabled = sheet.lines.length === 0;
  renderCheck();
  board.render({ rows: last && last.board ? last.board : [], highlight: new Set(), placed: new Map(), cursor: null });
  renderTracking($('tracking'), last && typeof last.unseen === 'string' ? last.unseen : '', 'Unseen tiles');
}

function renderCheck() {
  const box = $('check');
  if (!last) {
    box.textContent = sheet.lines.length ? 'Checking…' : 'No moves yet.';
    box.dataset.kind = '';
    return;
  }
  if (last.failed) {
    box.textContent = `Cannot check the sheet: ${last.failed}`;
    box.dataset.kind = 'error';
    return;
  }
  const items = [];
  if (last.error) {
    const i = last.error.line - HEADER_LINES - 1;
    items.push(lineMessage(i, last.error.message));
  }
  (last.lines || []).forEach((r, i) => {
    if (r.error) items.push(lineMessage(i, r.error));
  });
  if (items.length === 0) {
    box.dataset.kind = 'ok';
    box.replaceChildren(el('p', {}, sheet.lines.length
      ? `Every score agrees with the board (${sheet.lines.length} line${sheet.lines.length === 1 ? '' : 's'}).`
      : 'No moves yet.'));
    return;
  }
  box.dataset.kind = 'error';
  box.replaceChildren(el('p', {}, 'The sheet differs from the board:'),
    el('ul', {}, items.map((t) => el('li', { 'data-testid': 'difference' }, t))));
}

function lineMessage(i, message) {
  const l = sheet.lines[i];
  const what = l ? `Line ${i + 1} (${sheet.names[l.player]}: ${l.move})` : `Line ${i + 1}`;
  // The engine's message names the GCG file's line; the sheet's own numbering is clearer here.
  let m = message.replace(/^line \d+: /, '');
  if (l && m.startsWith(`${l.move}: `)) m = m.slice(l.move.length + 2);
  m = m.replace(/^the record says (\S+) but the engine computed (\S+)$/, 'announced $1, but the board gives $2')
    .replace(/^the record's cumulative score is (\S+) but the engine computed (\S+)$/, 'the total is $1, but the board gives $2');
  return `${what}: ${m}`;
}

async function verify() {
  const seq = ++verifySeq;
  if (sheet.lines.length === 0) {
    last = { lines: [], board: [], unseen: null };
    try {
      last = await api('/api/gcg/verify', { json: { gcg: gcgText() } });
    } catch {
      // an empty sheet needs no check
    }
    if (seq === verifySeq) render();
    return;
  }
  try {
    const r = await api('/api/gcg/verify', { json: { gcg: gcgText() } });
    if (seq !== verifySeq) return;
    last = r;
  } catch (e) {
    if (seq !== verifySeq) return;
    last = { failed: e.message, lines: [] };
  }
  render();
}

function undo() {
  stopEditing();
  sheet.lines.pop();
  save();
  render();
  verify();
}

let clearTimer = null;
function clearSheet() {
  const b = $('clear');
  if (sheet.lines.length && !clearTimer) {
    b.dataset.label = b.textContent;
    b.textContent = 'Press again to discard this sheet';
    clearTimer = setTimeout(() => { clearTimer = null; b.textContent = b.dataset.label; }, 4000);
    return;
  }
  clearTimeout(clearTimer);
  clearTimer = null;
  if (b.dataset.label) b.textContent = b.dataset.label;
  sheet = { names: sheet.names, lines: [] };
  save();
  last = null;
  render();
  verify();
}

async function importGcg() {
  $('entry-error').textContent = '';
  try {
    const r = await api('/api/gcg/verify', { json: { gcg: $('import-text').value } });
    if (r.error && (!r.lines || r.lines.length === 0)) {
      $('entry-error').textContent = `That record cannot be read: ${r.error.message}`;
      return;
    }
    sheet = {
      names: (r.players || sheet.names).map((p, i) => p || sheet.names[i]),
      lines: r.lines.map((l) => ({ player: l.player, move: l.move, score: l.recorded_score })),
    };
    save();
    $('name-0').value = sheet.names[0];
    $('name-1').value = sheet.names[1];
    render();
    verify();
  } catch (e) {
    $('entry-error').textContent = e.message;
  }
}

function init() {
  $('nav').replaceWith(navLinks('/scoresheet'));
  board = new BoardView($('board-holder'), { id: 'ots-board', label: 'The board after the recorded moves' });
  $('name-0').value = sheet.names[0];
  $('name-1').value = sheet.names[1];
  for (const i of [0, 1]) {
    $(`name-${i}`).addEventListener('change', () => {
      sheet.names[i] = $(`name-${i}`).value.trim() || `Player ${i + 1}`;
      save();
      render();
      verify();
    });
  }
  $('entry').addEventListener('submit', addLine);
  $('entry-move').addEventListener('input', () => {
    const mv = normaliseMove($('entry-move').value);
    if (editing === null && (mv === '--' || mv === '(challenge)')) $('entry-player').value = String(defaultPlayer(mv));
    computeLater();
  });
  $('entry-player').addEventListener('change', computeLater);
  $('entry-cancel').addEventListener('click', () => {
    stopEditing();
    $('entry-move').value = '';
    $('entry-score').value = '';
    $('entry-computed').textContent = '';
  });
  $('undo').addEventListener('click', undo);
  $('export').addEventListener('click', () => {
    const [a, b] = nicks();
    download(`${a}-vs-${b}.gcg`, gcgText());
  });
  $('clear').addEventListener('click', clearSheet);
  $('import').addEventListener('click', importGcg);
  render();
  verify();
}

window.tilebagSheet = { gcgText, get sheet() { return sheet; } };
init();
