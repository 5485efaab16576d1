// The tournament clock for a physical board (NASPA III.A.3, WESPA 1.4.2): it counts down, shows
// overtime counting up as −m:ss with the penalty it costs, can be neutralised from the centre key,
// and recalls its times through a reload or a closed tab (localStorage holds the remaining times,
// the running side and when it started running; the elapsed time is computed on load).

import { fmtClock, navLinks, overtimePenalty } from './common.js';

const $ = (id) => document.getElementById(id);
const KEY = 'tilebag.clock.v1';
const params = new URLSearchParams(location.search);

let C = null;
// For the tests: the state, and the sides whose alarm has sounded.
window.tilebagClock = { get state() { return C; }, alarms: [] };
let confirmTimer = null;
let wakeLock = null;

// The rulebooks' overtime limits: the game is over for a player this far into overtime
// (NASPA V.G.3: exceeding 10 minutes; WESPA 5.3.3: reaching 10; SANSPA 18.5: reaching 15).
const PRESETS = {
  naspa: { name: 'NASPA 2013', limitMin: 10, rule: 'V.G.3' },
  wespa: { name: 'WESPA 2010', limitMin: 10, rule: '5.3.3' },
  sanspa: { name: 'SANSPA 1999', limitMin: 15, rule: '18.5' },
  none: { name: 'no rulebook', limitMin: null, rule: '' },
};

function fresh(minutes, penalty, names, preset = 'naspa', mode = 'none', seconds = 0) {
  const ms = Math.round(minutes * 60000);
  return {
    minutes,
    penalty,
    names,
    preset,
    mode, // 'none' | 'delay' | 'increment'
    seconds,
    delayLeft: 0, // ms of the running turn's delay not yet used
    flagged: [false, false], // the side's time has reached zero (the alarm has sounded)
    remaining: [ms, ms],
    running: null, // the side whose clock runs
    since: null, // Date.now() when it started running
    paused: null, // the side to resume after a neutralisation
    started: false,
  };
}

function save() {
  try {
    localStorage.setItem(KEY, JSON.stringify(C));
  } catch {
    // Private browsing without storage: the clock still runs, it just cannot recall.
  }
}

function load() {
  let saved = null;
  try {
    saved = JSON.parse(localStorage.getItem(KEY) || 'null');
  } catch {
    saved = null;
  }
  const urlMinutes = Number(params.get('minutes'));
  const hasUrl = params.has('minutes') && Number.isFinite(urlMinutes) && urlMinutes > 0;
  if (saved && Array.isArray(saved.remaining) && (saved.started || !hasUrl)) return saved;
  return fresh(hasUrl ? urlMinutes : 25, Number(params.get('penalty')) || 10, ['Left', 'Right']);
}

function remainingNow(side) {
  const base = C.remaining[side];
  if (C.running !== side || C.since === null) return base;
  const elapsed = Date.now() - C.since;
  // Delay mode: the clock starts counting down only after the turn's delay.
  return base - Math.max(0, elapsed - (C.delayLeft || 0));
}

/** Fold the running time into the remaining time (before any change of state). */
function settle() {
  if (C.running !== null && C.since !== null) {
    const elapsed = Date.now() - C.since;
    C.remaining[C.running] = remainingNow(C.running);
    C.delayLeft = Math.max(0, (C.delayLeft || 0) - elapsed);
    C.since = Date.now();
  }
}

function press(side) {
  if (C.paused !== null) {
    status('The clock is neutralised: press the centre key (Space) to resume.');
    return;
  }
  if (C.running !== null && C.running !== side) return; // only the player whose clock runs
  settle();
  // Increment mode: the time is added when the player ends the turn (not at the start).
  if (C.running === side && C.mode === 'increment') C.remaining[side] += Math.round(C.seconds * 1000);
  C.running = 1 - side;
  C.since = Date.now();
  C.delayLeft = C.mode === 'delay' ? Math.round(C.seconds * 1000) : 0;
  C.started = true;
  save();
  status(`${C.names[C.running]}'s clock is running.`);
  keepAwake(true);
  render();
}

function togglePause() {
  if (C.paused !== null) {
    C.running = C.paused;
    C.paused = null;
    C.since = Date.now();
    status(`Resumed: ${C.names[C.running]}'s clock is running.`);
    keepAwake(true);
  } else if (C.running !== null) {
    settle();
    C.paused = C.running;
    C.running = null;
    C.since = null;
    status(`Neutralised: both clocks are stopped; ${C.names[C.paused]}'s clock resumes.`);
    keepAwake(false);
  } else {
    status('The clock has not started: the second player presses their key to start it.');
  }
  save();
  render();
}

function status(text) {
  $('status').textContent = text;
}

/** The alarm: a sound and a flash when a side's time reaches zero. */
function alarm(side) {
  window.tilebagClock.alarms.push(side);
  const face = $(`side-${side}`);
  face.classList.remove('flag');
  void face.offsetWidth; // restart the flash
  face.classList.add('flag');
  status(`${C.names[side]}'s time has run out: overtime counts from now.`);
  try {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    const ctx = alarm.ctx || (alarm.ctx = new Ctx());
    for (const at of [0, 0.3, 0.6]) {
      const o = ctx.createOscillator();
      const g = ctx.createGain();
      o.frequency.value = 990;
      g.gain.value = 0.12;
      o.connect(g).connect(ctx.destination);
      o.start(ctx.currentTime + at);
      o.stop(ctx.currentTime + at + 0.2);
    }
  } catch {
    // No sound here: the flash remains.
  }
}

function render() {
  const face = $('face');
  const preset = PRESETS[C.preset] || PRESETS.naspa;
  face.dataset.running = C.running === null ? 'none' : String(C.running);
  face.dataset.paused = String(C.paused !== null);
  for (const s of [0, 1]) {
    const ms = remainingNow(s);
    const t = $(`time-${s}`);
    t.textContent = fmtClock(ms);
    const side = $(`side-${s}`);
    side.classList.toggle('running', C.running === s);
    side.classList.toggle('overtime', ms < 0);
    const p = overtimePenalty(ms, C.penalty);
    $(`penalty-${s}`).textContent = p ? `overtime penalty \u2212${p}` : '';
    if (!C.flagged) C.flagged = [false, false];
    if (ms <= 0 && !C.flagged[s]) {
      C.flagged[s] = true;
      save();
      if (C.running === s) alarm(s);
    }
    // The rulebook's overtime limit: the game is over for this player (NASPA "exceeds").
    const limitMs = preset.limitMin === null ? null : -preset.limitMin * 60000;
    const past = limitMs !== null && (C.preset === 'naspa' ? ms < limitMs : ms <= limitMs);
    side.classList.toggle('past-limit', past);
    $(`mark-${s}`).textContent = past
      ? `Overtime limit: ${preset.limitMin} minutes (${preset.name} ${preset.rule}): the game is over`
      : (C.paused === s ? 'resumes' : '');
    $(`name-${s}`).textContent = C.names[s];
    // The button's name is what it shows (name, time, penalty, mark, key), then what only a
    // screen reader needs: whether it runs, and what pressing it does (WCAG 2.5.3: the name
    // starts with the visible text).
    $(`state-${s}`).textContent = `${C.running === s ? ', running' : ''}. Press to end ${C.names[s]}'s turn.`;
  }
  $('preset-line').textContent = `Rules: ${preset.name}` +
    (preset.limitMin === null ? ', no overtime limit' : `, overtime limit ${preset.limitMin} minutes (${preset.rule})`) +
    `, \u2212${C.penalty} a started minute` +
    (C.mode === 'delay' ? ` \u00b7 ${C.seconds} s delay a turn` : '') +
    (C.mode === 'increment' ? ` \u00b7 ${C.seconds} s added a turn` : '');
  const pause = $('pause');
  pause.textContent = C.paused !== null ? 'Resume' : 'Pause';
  pause.setAttribute('aria-label', C.paused !== null ? 'Resume the clock' : 'Pause the clock (neutralise it)');
}

async function keepAwake(on) {
  try {
    if (on && !wakeLock && navigator.wakeLock) wakeLock = await navigator.wakeLock.request('screen');
    if (!on && wakeLock) {
      await wakeLock.release();
      wakeLock = null;
    }
  } catch {
    wakeLock = null;
  }
}

function fillSettings() {
  $('set-minutes').value = String(C.minutes);
  $('set-penalty').value = String(C.penalty);
  $('set-name-0').value = C.names[0];
  $('set-name-1').value = C.names[1];
  $('set-preset').value = C.preset || 'naspa';
  $('set-mode').value = C.mode || 'none';
  $('set-seconds').value = String(C.seconds || 0);
}

function onReset(ev) {
  ev.preventDefault();
  const btn = $('reset');
  if (C.started && !confirmTimer) {
    btn.dataset.label = btn.textContent;
    btn.textContent = 'Press again to discard the running clock';
    confirmTimer = setTimeout(() => {
      confirmTimer = null;
      btn.textContent = btn.dataset.label;
    }, 4000);
    return;
  }
  clearTimeout(confirmTimer);
  confirmTimer = null;
  if (btn.dataset.label) btn.textContent = btn.dataset.label;
  const minutes = Number($('set-minutes').value);
  const penalty = Number($('set-penalty').value);
  if (!(minutes > 0)) {
    status('Minutes must be more than 0.');
    return;
  }
  const seconds = Number($('set-seconds').value);
  if (!(seconds >= 0)) {
    status('Seconds of delay or increment must be 0 or more.');
    return;
  }
  C = fresh(minutes, Number.isFinite(penalty) && penalty >= 0 ? penalty : 10,
    [$('set-name-0').value.trim() || 'Left', $('set-name-1').value.trim() || 'Right'],
    $('set-preset').value, $('set-mode').value, seconds);
  save();
  keepAwake(false);
  status('New clock set.');
  render();
}

function onKey(ev) {
  const tag = ev.target && ev.target.tagName;
  if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA') return;
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (ev.repeat) {
    if (ev.key === ' ') ev.preventDefault();
    return;
  }
  if (ev.code === 'ShiftLeft' || ev.key === 'a' || ev.key === 'A') {
    ev.preventDefault();
    press(0);
  } else if (ev.code === 'ShiftRight' || ev.key === 'l' || ev.key === 'L') {
    ev.preventDefault();
    press(1);
  } else if (ev.key === ' ' || ev.code === 'Space') {
    ev.preventDefault();
    togglePause();
  }
}

$('nav').replaceWith(navLinks('/clock'));
C = load();
save();
fillSettings();
render();
if (C.running !== null) status(`${C.names[C.running]}'s clock is running.`);
else if (C.paused !== null) status(`Neutralised: press the centre key (Space) to resume ${C.names[C.paused]}'s clock.`);
else status('The second player presses their key to start the first player\u2019s clock.');
$('side-0').addEventListener('click', () => press(0));
$('side-1').addEventListener('click', () => press(1));
$('pause').addEventListener('click', togglePause);
$('settings').addEventListener('submit', onReset);
document.addEventListener('keydown', onKey);
// Space on a focused button would also "click" it on key up: the keydown handler owns Space.
for (const b of document.querySelectorAll('.clock-face button')) {
  b.addEventListener('keyup', (ev) => { if (ev.key === ' ') ev.preventDefault(); });
}
document.addEventListener('visibilitychange', () => {
  if (!document.hidden && C.running !== null) keepAwake(true);
});
setInterval(render, 100);

