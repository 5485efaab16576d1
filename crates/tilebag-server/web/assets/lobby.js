// The lobby: players looking for a game (seeks: made, listed live, accepted with one click,
// cancelled; signed-in players only), play the computer (first: a name, a level and the button; the rules, lexicon, time
// and seat one step away, in a disclosure), create a game between two people (the same way),
// hand out the seat and observer links, list the games. While the server cannot be reached the
// page says so in plain words, and catches up by itself when it is back.

import { api, el, navLinks } from './common.js';

const $ = (id) => document.getElementById(id);
let presets = [];
let lexicons = null;

/** What went wrong, in plain words: the server's own message, or that it cannot be reached (a
 *  failed `fetch` says only "Failed to fetch"). */
function problem(e) {
  if (e && e.status) return e.message;
  return 'The server cannot be reached just now (the connection or the server is down)';
}

function describe(p) {
  const r = p.ruleset;
  const parts = [p.title];
  if (r.clock.kind === 'per-player') parts.push(`${r.clock.initial_ms / 60000} minutes each`);
  if (r.clock.kind === 'shared-game') {
    parts.push(`one ${r.clock.total_ms / 60000}-minute game clock, at most ${r.clock.per_turn_max_ms / 1000} s a turn`);
  }
  const ch = r.challenge;
  const chText = {
    void: 'void (phonies are refused)',
    single: 'single challenge',
    double: 'double challenge',
    'points-per-word': `${ch.points} points per word challenged`,
    'points-per-turn': `${ch.points} points per challenge`,
  }[ch.kind] || ch.kind;
  parts.push(chText);
  if (r.overtime) parts.push(`overtime −${r.overtime.penalty_per_minute} a minute`);
  return parts.join(' · ');
}

function onPreset(prefix = '') {
  const p = presets.find((x) => x.name === $(`${prefix}preset`).value);
  if (!p) return;
  // The rulebook may name a word list (OWL, CSW ...); the game is judged by the lexicon
  // chosen below, and the page says so.
  if (!prefix) $('preset-desc').textContent = `${describe(p)} · words judged by the lexicon ${$('lexicon').value || 'chosen below'}`;
  const m = $(`${prefix}minutes`);
  if (p.ruleset.clock.kind === 'per-player') {
    m.disabled = false;
    m.value = String(p.ruleset.clock.initial_ms / 60000);
  } else {
    m.disabled = true;
    m.value = '';
  }
  summarise(prefix);
}

/** The choices now in force, shown on the closed disclosure: "naspa-2013, 25 minutes, enable1". */
function summarise(prefix) {
  const out = $(`${prefix || 'create-'}options-now`);
  if (!out) return;
  const m = $(`${prefix}minutes`);
  const parts = [$(`${prefix}preset`).value];
  if (!m.disabled && m.value !== '') parts.push(`${m.value} minutes`);
  if ($(`${prefix}lexicon`).value) parts.push($(`${prefix}lexicon`).value);
  out.textContent = parts.every(Boolean) ? `(now: ${parts.join(', ')})` : '';
}

let loading = false;
async function load() {
  if (loading) return;
  loading = true;
  try {
    const [pr, lx] = await Promise.all([api('/api/presets'), api('/api/lexicons')]);
    lexicons = lx;
    presets = pr.presets || [];
    // The server takes a seed only when its operator allows it (serve --allow-seeds).
    for (const e of document.querySelectorAll('.seed-field')) e.hidden = !pr.allow_seeds;
    for (const prefix of ['', 'bot-', 'seek-']) {
      $(`${prefix}preset`).replaceChildren(...presets.map((p) => el('option', { value: p.name, selected: p.default ? true : null }, `${p.name} — ${p.title}`)));
      onPreset(prefix);
    }
    $('seek-lexicon').replaceChildren(...(lx.lexicons || []).map((n) => el('option', { value: n, selected: n === lx.default ? true : null }, n)));
    const lex = $('lexicon');
    lex.replaceChildren(...(lx.lexicons || []).map((n) => el('option', { value: n, selected: n === lx.default ? true : null }, n)));
    onPreset();
    // The computer plays only with the lexicons loaded as word lists.
    const computer = lx.computer || [];
    $('bot-lexicon').replaceChildren(...computer.map((n) => el('option', { value: n, selected: n === lx.default ? true : null }, n)));
    if (!computer.length) {
      $('bot-create').disabled = true;
      $('bot-error').textContent = 'The computer has no lexicon on this server.';
    } else {
      $('bot-create').disabled = false;
      $('bot-error').textContent = '';
    }
    $('create-error').textContent = '';
    summarise('');
    summarise('bot-');
  } catch (e) {
    // Tried again when the server is back (the list's stream reopens).
    lexicons = null;
    $('create-error').textContent = `The rules and lexicons could not be loaded: ${problem(e)}. They load by themselves when the server is back.`;
  } finally {
    loading = false;
  }
  listGames();
}

function linkItem(label, path, testid) {
  const url = new URL(path, location.origin).href;
  const input = el('input', { readonly: true, value: url, 'aria-label': `${label} link`, 'data-testid': testid });
  // Each control's name starts with what it shows (WCAG 2.5.3), then says which link.
  const show = (text) => {
    copy.textContent = text;
    copy.setAttribute('aria-label', `${text} the ${label} link`);
  };
  const copy = el('button', {
    type: 'button',
    onclick: async () => {
      try {
        await navigator.clipboard.writeText(url);
        show('Copied');
      } catch {
        input.select();
        show('Selected: copy');
      }
      setTimeout(() => show('Copy'), 2000);
    },
  });
  show('Copy');
  return el('li', {}, el('div', { class: 'link-label' }, label),
    el('div', { class: 'link-row' }, input, copy,
      el('a', { href: url, target: '_blank', rel: 'noopener', 'aria-label': `Open the ${label} link` }, 'Open')));
}

async function create(ev) {
  ev.preventDefault();
  $('create-error').textContent = '';
  const body = {
    players: [$('p1').value, $('p2').value],
    preset: $('preset').value || undefined,
    lexicon: $('lexicon').value || undefined,
  };
  const rules = {};
  for (const id of ['rule-end-rack', 'rule-challenge', 'rule-resignation']) {
    const sel = $(id);
    if (sel.value !== '') rules[sel.name] = sel.value;
  }
  if (Object.keys(rules).length) body.rules = rules;
  const m = $('minutes');
  if (!m.disabled && m.value !== '') body.initial_minutes = Number(m.value);
  const seed = $('seed').value.trim();
  if (seed !== '' && !$('seed').hidden) body.seed = Number(seed);
  $('create').disabled = true;
  try {
    const g = await api('/api/games', { json: body });
    const links = $('links');
    links.replaceChildren(
      ...g.seats.map((s) => linkItem(`${s.name} (seat ${s.seat + 1})`, gamePath(s.link), `seat-link-${s.seat}`)),
      linkItem('Observer', gamePath(g.observer_link), 'observer-link'));
    $('created').hidden = false;
    $('created').scrollIntoView({ block: 'nearest' });
    $('created-h').focus();
    listGames();
  } catch (e) {
    $('create-error').textContent = e.status ? e.message : `${problem(e)}: the game was not created. Try again in a moment.`;
  } finally {
    $('create').disabled = false;
  }
}

async function playComputer(ev) {
  ev.preventDefault();
  $('bot-error').textContent = '';
  const seat = $('bot-seat').value;
  // A signed-in player's game goes through the lobby, so that their seat is linked to their
  // account (their profile shows their record against the computer).
  const mins = $('bot-minutes');
  const whole = mins.disabled || mins.value === '' || (Number.isInteger(Number(mins.value)) && Number(mins.value) >= 1 && Number(mins.value) <= 120);
  if (me && whole) {
    const body = {
      opponent: 'computer',
      level: $('bot-level').value,
      preset: $('bot-preset').value || undefined,
      lexicon: $('bot-lexicon').value || undefined,
      seat: { random: 'random', 1: 'first', 0: 'second' }[seat],
    };
    if (!mins.disabled && mins.value !== '') body.minutes = Number(mins.value);
    $('bot-create').disabled = true;
    try {
      const r = await lobbyPost('/api/seeks', body);
      location.href = gamePath(r.game.url);
    } catch (e) {
      $('bot-error').textContent = e.status ? e.message : `${problem(e)}: the game was not started. Try again in a moment.`;
      $('bot-create').disabled = false;
    }
    return;
  }
  const body = {
    players: [$('bot-name').value],
    preset: $('bot-preset').value || undefined,
    lexicon: $('bot-lexicon').value || undefined,
    bot: { level: $('bot-level').value, seat: seat === 'random' ? 'random' : Number(seat) },
  };
  const m = $('bot-minutes');
  if (!m.disabled && m.value !== '') body.initial_minutes = Number(m.value);
  $('bot-create').disabled = true;
  try {
    const g = await api('/api/games', { json: body });
    // Straight to the game, in the human's seat.
    location.href = gamePath(g.seats[0].link);
  } catch (e) {
    $('bot-error').textContent = e.status ? e.message : `${problem(e)}: the game was not started. Try again in a moment.`;
    $('bot-create').disabled = false;
  }
}

// The API hands out /games/ID links; the page lives at /game/ID (both work).
function gamePath(p) {
  return p.replace(/^\/games\//, '/game/');
}

function statusText(g) {
  if (g.status === 'expired') return 'Expired: nobody joined';
  if (g.status === 'ended' && g.result) {
    const r = g.result;
    if (r.winner === null || r.winner === undefined) return 'Ended: a tie';
    return `Ended: ${g.players[r.winner]} won`;
  }
  if (g.status === 'ended') return 'Ended';
  // Before both players have come, nobody is "to move" yet.
  if (g.started === false) return 'Waiting for players';
  if (g.paused === 'director-called') return 'Paused: the director is called';
  if (g.paused) return 'Paused';
  return g.to_move !== null && g.to_move !== undefined ? `Live: ${g.players[g.to_move]} to move` : 'Live';
}

/** The rules of a listed game: the preset, the organiser's choices, the lexicon. */
function rulesText(g) {
  const rules = g.rules && g.rules.length ? ` with ${g.rules.join(', ')}` : '';
  return `${g.preset}${rules} · ${g.lexicon}${g.seeded ? ' · seeded' : ''}`;
}

function gameRow(g) {
  const scores = g.result ? g.result.scores : g.scores;
  return el('tr', { 'data-testid': 'game-row', 'data-kind': g.event ? 'event' : 'casual' },
    el('td', {}, `${g.players[0]} vs ${g.players[1]}`),
    el('td', { 'data-testid': 'game-rules' }, rulesText(g)),
    el('td', {}, scores && g.started !== false ? `${scores[0]}\u2013${scores[1]}` : ''),
    el('td', { 'data-testid': 'game-status' }, statusText(g)),
    el('td', {}, watchLink(g)));
}

/** "Watch" (or "View" once the game is over), named for the game: the name starts with what
 *  the link shows (WCAG 2.5.3), "Watch Alice vs Bob". */
function watchLink(g) {
  const verb = g.status === 'ended' ? 'View' : 'Watch';
  return el('a', { href: `/game/${encodeURIComponent(g.id)}`, 'aria-label': `${verb} ${g.players[0]} vs ${g.players[1]}` }, verb);
}

async function listGames() {
  try {
    const r = await api('/api/games?limit=50');
    const games = r.games || [];
    // Tournament games (an event's online games) apart from casual ones.
    const event = games.filter((g) => g.event);
    const casual = games.filter((g) => !g.event);
    $('games').tBodies[0].replaceChildren(...casual.map(gameRow));
    $('games-empty').hidden = casual.length > 0;
    $('event-games').tBodies[0].replaceChildren(...event.map(gameRow));
    $('event-games-area').hidden = event.length === 0;
    updated(`Kept up to date by the server; last change at ${new Date().toLocaleTimeString()}.`, 'live');
  } catch (e) {
    // The list is a convenience: say that it may be out of date, and why.
    if (e && e.status) updated(`The list could not be loaded: ${e.message}.`, 'error');
    else away();
  }
}

/** The line over the list: how current it is. */
function updated(text, state) {
  const p = $('games-updated');
  p.textContent = text;
  p.dataset.state = state;
}

/** The server cannot be reached: the list stays, marked as possibly out of date. */
function away() {
  updated('The server cannot be reached just now, so this list may be out of date. '
    + 'It brings itself up to date when the server is back.', 'offline');
}

// The list keeps itself current: the server pushes an event whenever games change
// (`GET /api/lobby/changes`, Server-Sent Events) and the list is fetched again. While the page is
// hidden, a change is only noted and the list is fetched when the page is seen again. The browser
// reconnects a dropped stream by itself, and the list is fetched again then (changes may have
// been missed). A browser without EventSource asks every 5 s instead.
let stale = false;
const refresh = () => {
  if (document.hidden) { stale = true; return; }
  stale = false;
  listGames();
};
if (window.EventSource) {
  // Closed when the page is left, opened again if it is shown from the back/forward cache: a
  // kept page's open stream would hold one of the six connections a browser speaking HTTP/1.1
  // keeps to a server, and after a few visits the next page would wait for one.
  // The stream ends when the server stops; the browser then tries again every few seconds (and
  // gives up only on a refusal, when the page tries again itself). The first answer after that
  // fetches the list (and the rules, if they never loaded).
  let changes = null;
  let retry = null;
  const open = () => {
    clearTimeout(retry);
    // One stream for both lists: the games (`games`: fetch again) and the seeks (sent whole,
    // then each one that comes or goes), and this player's own started games (`game`).
    changes = new EventSource('/api/lobby/stream');
    changes.addEventListener('games', refresh);
    changes.addEventListener('seeks', (e) => setSeeks(JSON.parse(e.data).seeks || []));
    changes.addEventListener('seek-added', (e) => { const x = JSON.parse(e.data); seeks.set(x.id, x); renderSeeks(); });
    changes.addEventListener('seek-removed', (e) => { seeks.delete(JSON.parse(e.data).id); renderSeeks(); });
    changes.addEventListener('game', (e) => startedGame(JSON.parse(e.data)));
    changes.addEventListener('open', () => {
      if (!lexicons) load(); else refresh();
    });
    changes.addEventListener('error', () => {
      away();
      if (changes && changes.readyState === EventSource.CLOSED) {
        changes = null;
        retry = setTimeout(open, 5000);
      }
    });
  };
  open();
  window.addEventListener('pagehide', () => { clearTimeout(retry); if (changes) changes.close(); changes = null; });
  window.addEventListener('pageshow', (e) => { if (e.persisted && !changes) open(); });
  $('games').dataset.live = 'push';
} else {
  setInterval(refresh, 5000);
}
document.addEventListener('visibilitychange', () => { if (!document.hidden && stale) refresh(); });

$('nav').replaceWith(navLinks('/'));
$('preset').addEventListener('change', () => onPreset());
$('lexicon').addEventListener('change', () => onPreset());
$('bot-preset').addEventListener('change', () => onPreset('bot-'));
$('bot-lexicon').addEventListener('change', () => summarise('bot-'));
$('minutes').addEventListener('input', () => summarise(''));
$('bot-minutes').addEventListener('input', () => summarise('bot-'));
$('bot-form').addEventListener('submit', playComputer);
$('create-form').addEventListener('submit', create);
$('refresh').addEventListener('click', listGames);
$('seek-form').addEventListener('submit', createSeek);
$('seek-preset').addEventListener('change', () => onPreset('seek-'));
$('seek-opponent').addEventListener('change', () => {
  $('seek-invite-row').hidden = $('seek-opponent').value !== 'invited';
});
load();
loadLobby();

// ---------------------------------------------------------------------------------------------
// Seeks (issue 30 item 4)

/** The signed-in player (`{username, csrf}`), or null for a guest. */
let me = null;
/** The open seeks this viewer may see, by id. */
const seeks = new Map();

/** A request that changes something, as a signed-in player: with the page's CSRF token. */
function lobbyPost(path, json) {
  return api(path, { json, headers: { 'X-CSRF-Token': me ? me.csrf : '' } });
}

async function loadLobby() {
  try {
    const r = await api('/api/lobby');
    me = r.me || null;
    setSeeks(r.seeks || []);
  } catch (e) {
    $('seeks-updated').textContent = e.status ? `The seeks could not be loaded: ${e.message}.` : '';
  }
  $('seek-form').hidden = !me;
  $('seek-form-h').hidden = !me;
  $('seek-signin').hidden = !!me;
  if (me) {
    // Against the computer too, a signed-in player plays under their own name.
    $('bot-name').value = me.username;
    $('bot-name').readOnly = true;
  }
  renderSeeks();
}

function setSeeks(list) {
  seeks.clear();
  for (const x of list) seeks.set(x.id, x);
  renderSeeks();
}

/** What a seek asks for, in words: "naspa-2013 · enable1 · 10 min each (rapid) · rated". */
function seekWords(x) {
  const parts = [x.preset, x.lexicon, `${x.minutes} min each (${x.class})`, x.rated ? 'rated' : 'casual'];
  if (x.range) parts.push(`rating ${x.range.min ?? 'any'}\u2013${x.range.max ?? 'any'}`);
  if (x.invited) parts.push(`for ${x.invited} only`);
  return parts.join(' · ');
}

function seekItem(x) {
  const mine = me && x.seeker === me.username;
  const words = seekWords(x);
  let action;
  if (mine) {
    action = el('button', { type: 'button', 'data-testid': 'seek-cancel', 'aria-label': `Cancel your seek: ${words}`, onclick: () => cancelSeek(x) }, 'Cancel');
  } else if (me) {
    action = el('button', { type: 'button', class: 'primary', 'data-testid': 'seek-accept', 'aria-label': `Accept ${x.seeker}'s seek: ${words}`, onclick: (e) => acceptSeek(x, e.currentTarget) }, 'Accept');
  } else {
    action = el('a', { href: '/signin?next=/', 'aria-label': `Sign in to accept ${x.seeker}'s seek` }, 'Sign in to accept');
  }
  return el('li', { 'data-testid': 'seek', 'data-seek-id': String(x.id) },
    el('span', { class: 'seek-what' }, el('span', { class: 'seek-who' }, `${x.seeker} (${x.seeker_rating})`), ` · ${words}`),
    action);
}

function renderSeeks() {
  const list = [...seeks.values()].sort((a, b) => a.created_ms - b.created_ms);
  $('seeks').replaceChildren(...list.map(seekItem));
  $('seeks-empty').hidden = list.length > 0;
}

async function createSeek(ev) {
  ev.preventDefault();
  $('seek-error').textContent = '';
  const body = {
    preset: $('seek-preset').value || undefined,
    lexicon: $('seek-lexicon').value || undefined,
    rated: $('seek-rated').value === 'true',
    opponent: $('seek-opponent').value,
  };
  const m = $('seek-minutes');
  if (!m.disabled && m.value !== '') body.minutes = Number(m.value);
  if (body.opponent === 'invited') body.invite = $('seek-invite').value.trim();
  for (const [id, key] of [['seek-min', 'min_rating'], ['seek-max', 'max_rating']]) {
    if ($(id).value !== '') body[key] = Number($(id).value);
  }
  $('seek-create').disabled = true;
  try {
    const r = await lobbyPost('/api/seeks', body);
    seeks.set(r.seek.id, r.seek);
    renderSeeks();
  } catch (e) {
    if (e.status === 401) loadLobby();
    $('seek-error').textContent = e.status ? e.message : `${problem(e)}: nothing was sought. Try again in a moment.`;
  } finally {
    $('seek-create').disabled = false;
  }
}

async function acceptSeek(x, button) {
  $('seek-error').textContent = '';
  if (button) button.disabled = true;
  try {
    const r = await lobbyPost(`/api/seeks/${x.id}/accept`, {});
    location.href = gamePath(r.game.url);
  } catch (e) {
    if (e.status === 410) { seeks.delete(x.id); renderSeeks(); }
    $('seek-error').textContent = e.status ? e.message : `${problem(e)}: the seek was not accepted.`;
    if (button) button.disabled = false;
  }
}

async function cancelSeek(x) {
  $('seek-error').textContent = '';
  try {
    await lobbyPost(`/api/seeks/${x.id}/cancel`, {});
    seeks.delete(x.id);
    renderSeeks();
  } catch (e) {
    $('seek-error').textContent = e.status ? e.message : `${problem(e)}: the seek was not cancelled.`;
  }
}

/** One of this player's games has started (their seek was accepted, or a rematch): a new one
 *  is opened at once; one started a while ago (sent again when the stream reconnects) is
 *  offered as a link. */
function startedGame(g) {
  if (g.fresh) {
    location.href = gamePath(g.url);
    return;
  }
  $('seek-started').replaceChildren(`Your game against ${g.opponent} has started: `,
    el('a', { href: gamePath(g.url), 'data-testid': 'seek-started-link' }, 'go to your seat'), '.');
}
