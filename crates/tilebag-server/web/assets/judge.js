// The word-judge kiosk (NASPA IV.J.1): the challenger types the words, the challenged player
// presses Tab, one verdict appears for the whole play (never naming a word), and the page clears
// after a few seconds. The server judges and keeps the log (POST /api/judge). While the server
// cannot be reached the page says so in plain words and asks again by itself: the verdict
// appears once the server answers.

import { api, el, navLinks } from './common.js';

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const clearAfter = Math.max(0.5, Number(params.get('clear')) || 6) * 1000;
let busy = false;
let clearTimer = null;
let retryTimer = null;
const RETRY_MS = 2000;

function words() {
  return $('words').value.split(/[\s,]+/).filter(Boolean);
}

async function judge() {
  if (busy) return;
  clearTimeout(retryTimer);
  retryTimer = null;
  $('judge-error').textContent = '';
  const w = words();
  if (w.length === 0) {
    $('judge-error').textContent = 'Type the challenged words first.';
    $('words').focus();
    return;
  }
  const bad = w.find((x) => !/^[A-Za-z]+$/.test(x));
  if (bad) {
    $('judge-error').textContent = `Use letters only: “${bad}” is not a word.`;
    $('words').focus();
    return;
  }
  busy = true;
  try {
    const body = { words: w.map((x) => x.toUpperCase()) };
    if ($('lexicon').value) body.lexicon = $('lexicon').value;
    const r = await api('/api/judge', { json: body });
    show(r.acceptable, body.words.length);
  } catch (e) {
    busy = false;
    if (e.status && e.status < 500) {
      $('judge-error').textContent = `The play could not be judged: ${e.message}`;
      return;
    }
    // The server is away (or failing): say so, and ask again by itself with the same words
    // (typing anything else stops that; Tab then judges what is typed).
    $('judge-error').textContent = e.status
      ? `The server could not judge the play just now (${e.message}). It is asked again by itself: the verdict appears here as soon as it answers.`
      : 'The server cannot be reached just now, so the play is not judged yet. It is asked again by itself: the verdict appears here as soon as the server answers.';
    retryTimer = setTimeout(judge, RETRY_MS);
  }
}

function show(acceptable, count) {
  // Hide what was typed while the verdict shows: the verdict is for the whole play.
  $('judge-form').hidden = true;
  $('words').value = '';
  const v = $('verdict');
  v.className = `verdict ${acceptable ? 'acceptable' : 'unacceptable'}`;
  $('verdict-text').textContent = acceptable ? 'ACCEPTABLE' : 'NOT ACCEPTABLE';
  // How many words were judged, never which (NASPA IV.J.1).
  const n = `${count} word${count === 1 ? '' : 's'} judged`;
  $('verdict-sub').textContent = acceptable ? `The play is acceptable (${n}).` : `The play is not acceptable (${n}).`;
  v.hidden = false;
  clearTimeout(clearTimer);
  clearTimer = setTimeout(reset, clearAfter);
}

function reset() {
  clearTimeout(clearTimer);
  clearTimer = null;
  $('verdict').hidden = true;
  $('verdict-text').textContent = '';
  $('verdict-sub').textContent = '';
  $('judge-form').hidden = false;
  $('words').value = '';
  $('judge-error').textContent = '';
  busy = false;
  $('words').focus();
}

async function loadLexicons() {
  // A director may fix the kiosk's lexicon in its address (`/judge?lexicon=csw21`).
  const fixed = params.get('lexicon');
  try {
    const lx = await api('/api/lexicons');
    $('lexicon').replaceChildren(...(lx.lexicons || []).map((n) => el('option', {
      value: n, selected: (fixed ? n === fixed : n === lx.default) ? true : null,
    }, n)));
    $('lexicon').disabled = !!fixed && (lx.lexicons || []).includes(fixed);
  } catch {
    // Until the list loads (asked again by itself), the address's lexicon or the server's own.
    if (!$('lexicon').options.length || $('lexicon').value === '') {
      $('lexicon').replaceChildren(fixed
        ? el('option', { value: fixed }, fixed)
        : el('option', { value: '' }, 'server default'));
    }
    setTimeout(loadLexicons, 5000);
  }
}

// A kiosk: no way off the page for the players (no site navigation, no link). The director
// who sets it up opens /judge?nav=1 to have the navigation.
if (params.get('nav') === '1') {
  $('nav').replaceWith(navLinks('/judge'));
  $('brand').replaceWith(el('a', { class: 'brand', href: '/' }, 'tilebag'));
} else {
  $('nav').remove();
}
$('judge-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  judge();
});
$('words').addEventListener('input', () => {
  // Other words typed: the play waiting for the server is no longer the one to judge.
  if (retryTimer) {
    clearTimeout(retryTimer);
    retryTimer = null;
    $('judge-error').textContent = '';
  }
});
$('words').addEventListener('keydown', (ev) => {
  // The challenged player's key. With nothing typed, Tab moves on as usual.
  if (ev.key === 'Tab' && !ev.shiftKey && words().length > 0) {
    ev.preventDefault();
    judge();
  }
});
document.addEventListener('keydown', (ev) => {
  if (!$('verdict').hidden && ev.key === 'Escape') reset();
});
loadLexicons();
$('words').focus();
