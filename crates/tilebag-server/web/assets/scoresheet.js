// The over-the-board score sheet: record plays as they are made (position and word in GCG
// notation, the score the player announced), check every score against the board with the
// server's engine (POST /api/gcg/verify), track the unseen tiles, export GCG. The sheet is kept
// in localStorage.
//
// A line is shown as checked only by a check of the sheet as it now is up to that line: a line
// added or corrected since, or while the server cannot be reached, is "not checked" (never a
// tick, never in the board's totals), the page says why in plain words, and checks again by
// itself until the server answers.

import { api, download, el, navLinks, renderTracking, signed, tileValue } from './common.js';
import { BoardView } from './board.js';

const $ = (id) => document.getElementById(id);
const KEY = 'tilebag.scoresheet.v1';
const HEADER_LINES = 3;

let sheet = load();
let board;
let verifySeq = 0;
let last = null; // the last verification that the server answered, with the lines it checked
let failed = null; // why the latest check could not be made ({ message, away }), or null
let checking = false; // a check is on its way
let retryTimer = null;
const RETRY_MS = 3000;
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

/** What went wrong, in plain words: the server's own message, or that it cannot be reached (a
 *  failed `fetch` says only "Failed to fetch"). */
function problem(e) {
  if (e && e.status) return e.message;
  return 'the server cannot be reached just now';
}

/** How many of the sheet's first lines the last check is about: it checked them as they are now
 *  (a line's score depends on every line before it). */
function checkedPrefix() {
  if (!last || !Array.isArray(last.checked)) return 0;
  let n = 0;
  while (n < sheet.lines.length && n < last.checked.length) {
    const a = sheet.lines[n];
    const b = last.checked[n];
    if (a.player !== b.player || a.move !== b.move || a.score !== b.score) break;
    n += 1;
  }
  return n;
}

/** The check of line `i`, if the last check is about the line as it now is. */
function resultOf(i) {
  return i < checkedPrefix() && last.lines ? last.lines[i] || null : null;
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
  let added;
  if (editing !== null && editing < sheet.lines.length) {
    // An earlier line corrected in place; the lines after it stay.
    sheet.lines[editing] = { player, move, score };
    added = editing + 1;
  } else {
    sheet.lines.push({ player, move, score });
    added = sheet.lines.length;
  }
  stopEditing();
  save();
  // The entry's own score, computed as it was typed, is done with.
  clearTimeout(computeTimer);
  computeSeq += 1;
  $('entry-move').value = '';
  $('entry-score').value = '';
  $('entry-player').value = String(defaultPlayer(''));
  $('entry-computed').textContent = '';
  delete $('entry-computed').dataset.kind;
  render();
  verify().then(() => {
    // The line went in, but the board could not check it: say so where the eye is.
    const out = $('entry-computed');
    if (failed && out.textContent === '') {
      out.dataset.kind = 'unchecked';
      out.textContent = `Line ${added} is not checked: ${problem(failed.error)}. `
        + 'It is checked by itself when the server is back.';
    }
  });
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
    delete out.dataset.kind;
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
    if (seq !== computeSeq) return;
    delete out.dataset.score;
    out.textContent = `The board's score cannot be computed: ${problem(e)}.`;
  }
}

function render() {
  const cums = cumulatives();
  // The running totals by the board (the engine's score of each line, where it has one). A line
  // the board has not checked is not counted as if it agreed: its player's total by the board
  // is not known from there on.
  const btot = [0, 0];
  const unchecked = [0, 0];
  const bcums = sheet.lines.map((l, i) => {
    const r = resultOf(i);
    if (!r) {
      unchecked[l.player] += 1;
      return '?';
    }
    btot[l.player] += r.score !== null && r.score !== undefined ? r.score : l.score;
    return unchecked[l.player] ? '?' : String(btot[l.player]);
  });
  const tbody = $('sheet').tBodies[0];
  const names = sheet.names;
  tbody.replaceChildren(...sheet.lines.map((l, i) => {
    const r = resultOf(i);
    let check = '';
    let cls = '';
    if (r && r.error) {
      cls = 'differs';
      check = r.score !== null && r.score !== undefined ? `${signed(r.score)} \u2717` : '\u2717';
    } else if (r && r.checked) {
      cls = 'agrees';
      check = `${signed(r.score)} \u2713`;
    } else if (r) {
      check = 'not checked';
    } else {
      cls = 'unchecked';
      check = checking && !failed ? 'checking' : 'not checked';
    }
    const words = r && r.words && r.words.length ? el('div', { class: 'words' }, r.words.join(', ')) : null;
    return el('tr', { class: `seat-${l.player} ${cls}`, 'data-testid': 'ots-row' },
      el('td', {}, String(i + 1)),
      el('td', {}, names[l.player]),
      el('td', { class: 'move' }, l.move, words),
      el('td', { class: 'score' }, signed(l.score)),
      el('td', { class: 'cum' }, String(cums[i])),
      el('td', { class: 'engine', 'aria-label': r && r.error ? `differs: ${r.error}` : null }, check),
      el('td', { class: 'cum board-cum', 'data-testid': 'board-cum' }, bcums[i]),
      el('td', {}, el('button', {
        type: 'button', class: 'edit-line', 'data-testid': 'edit-line',
        'aria-label': `Edit line ${i + 1}`, onclick: () => editLine(i),
      }, 'Edit')));
  }));
  const tot = [0, 0];
  sheet.lines.forEach((l) => { tot[l.player] += l.score; });
  $('total-0').textContent = `${names[0]} ${tot[0]}`;
  $('total-1').textContent = `${names[1]} ${tot[1]}`;
  for (const p of [0, 1]) {
    const n = unchecked[p];
    $(`btotal-${p}`).textContent = n
      ? `${names[p]} ${btot[p]} + ? (${n} line${n === 1 ? '' : 's'} not checked)`
      : `${names[p]} ${btot[p]}`;
  }
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
  const n = sheet.lines.length;
  const upTo = checkedPrefix();
  // What the last check found about the lines it is still about.
  const items = [];
  if (last && last.error && upTo === n) {
    const i = last.error.line - HEADER_LINES - 1;
    items.push(lineMessage(i, last.error.message));
  }
  for (let i = 0; i < upTo; i++) {
    const r = last.lines && last.lines[i];
    if (r && r.error) items.push(lineMessage(i, r.error));
  }
  const parts = [];
  let kind = 'ok';
  if (upTo < n) {
    // Lines the board has not checked (yet): which ones, and why.
    const which = upTo + 1 === n ? `line ${n} is` : `lines ${upTo + 1}\u2013${n} are`;
    if (failed) {
      kind = 'unchecked';
      const why = failed.away
        ? 'The server cannot be reached just now (the connection or the server is down)'
        : `The sheet could not be checked: ${failed.error.message}`;
      parts.push(el('p', { 'data-testid': 'unchecked' },
        `${why}, so ${which} not checked. The sheet is kept on this device; it is checked by itself `
        + 'as soon as the server answers.'));
    } else {
      kind = '';
      parts.push(el('p', {}, `Checking ${which.replace(/ (is|are)$/, '')}\u2026`));
    }
  }
  if (items.length) {
    kind = 'error';
    parts.push(el('p', {}, 'The sheet differs from the board:'),
      el('ul', {}, items.map((t) => el('li', { 'data-testid': 'difference' }, t))));
  } else if (upTo === n) {
    parts.push(el('p', {}, n
      ? `Every score agrees with the board (${n} line${n === 1 ? '' : 's'}).`
      : 'No moves yet.'));
  } else if (upTo > 0) {
    parts.push(el('p', { class: 'check-so-far' }, upTo === 1 ? 'Line 1 agrees with the board.' : `Lines 1\u2013${upTo} agree with the board.`));
  }
  box.dataset.kind = kind;
  box.replaceChildren(...parts);
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

/** Check the sheet as it now is. While it cannot be checked, try again every few seconds. */
async function verify() {
  const seq = ++verifySeq;
  clearTimeout(retryTimer);
  retryTimer = null;
  const lines = sheet.lines.map((l) => ({ ...l }));
  checking = true;
  if (lines.length && checkedPrefix() < lines.length) render();
  try {
    const r = await api('/api/gcg/verify', { json: { gcg: gcgText(lines) } });
    if (seq !== verifySeq) return;
    last = { ...r, checked: lines };
    failed = null;
    const out = $('entry-computed');
    if (out.dataset.kind === 'unchecked') {
      out.textContent = '';
      delete out.dataset.kind;
    }
  } catch (e) {
    if (seq !== verifySeq) return;
    failed = { error: e, away: !e.status };
    // The server away (or failing): try again by itself. A refusal of the sheet itself (4xx)
    // would only be refused again.
    if (!e.status || e.status >= 500) retryTimer = setTimeout(verify, RETRY_MS);
  }
  checking = false;
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
    $('entry-error').textContent = e.status ? e.message : `The record could not be read: ${problem(e)}. Try again in a moment.`;
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
  // Back on line: check at once rather than at the next retry.
  window.addEventListener('online', () => { if (failed) verify(); });
  render();
  verify();
}

window.tilebagSheet = { gcgText, get sheet() { return sheet; } };
init();
