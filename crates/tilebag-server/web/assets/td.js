// The director's division page: calls for the director arrive while the page is open. The server
// pushes them (`GET .../calls/stream`, Server-Sent Events: an event whenever the calls change,
// and one when the stream opens); a browser without EventSource asks every few seconds
// (`GET .../calls`). A new call is shown at the top of the page (an assertive live region, so a
// screen reader says it at once) with a short sound. The page works without this script: it
// then shows the calls waiting when it is loaded.

const POLL_MS = 3000;
const box = document.getElementById('calls');

/** A short two-tone chime (Web Audio; no sound file). Browsers may keep it silent until the
 *  page has had a click or a key; the visible notice shows either way. */
function chime() {
  window.tdChimes = (window.tdChimes || 0) + 1;
  try {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    const ctx = chime.ctx || (chime.ctx = new Ctx());
    if (ctx.state === 'suspended') ctx.resume().catch(() => {});
    [880, 660].forEach((f, i) => {
      const o = ctx.createOscillator();
      const g = ctx.createGain();
      o.frequency.value = f;
      g.gain.value = 0.15;
      o.connect(g).connect(ctx.destination);
      const t = ctx.currentTime + i * 0.18;
      o.start(t);
      o.stop(t + 0.15);
    });
  } catch (_) {
    // No sound on this browser: the notice is enough.
  }
}

function keyOf(c) { return `${c.round}/${c.board}/${c.who}`; }

if (box && (box.dataset.stream || box.dataset.poll)) {
  // The calls shown when the page was loaded are not new.
  let known = new Set([...box.querySelectorAll('.call-item')].map(p => p.textContent));
  let seen = new Set();
  let first = true;
  /** Show the calls now waiting; chime when one is new. */
  const show = (data) => {
    const keys = new Set(data.calls.map(keyOf));
    const fresh = [...keys].some(k => !seen.has(k));
    box.innerHTML = data.html;
    box.dataset.count = String(data.calls.length);
    const textNow = [...box.querySelectorAll('.call-item')].map(p => p.textContent);
    if (fresh && !(first && textNow.every(t => known.has(t)))) chime();
    seen = keys;
    known = new Set();
    first = false;
  };
  if (window.EventSource && box.dataset.stream) {
    // The browser reconnects by itself; the stream's first event is the calls waiting then.
    // The stream is closed when the page is left: a browser speaking HTTP/1.1 keeps at most six
    // connections to a server, and a page kept for the back button with its stream still open
    // holds one of them, so a director who moved between a few pages would find the next page
    // waiting for a free connection. It is opened again if the page is shown from that cache.
    let source = null;
    const open = () => {
      source = new EventSource(box.dataset.stream);
      source.addEventListener('calls', (e) => {
        try { show(JSON.parse(e.data)); } catch (_) { /* a damaged event: the next one mends it */ }
      });
    };
    open();
    window.addEventListener('pagehide', () => { if (source) source.close(); source = null; });
    window.addEventListener('pageshow', (e) => { if (e.persisted && !source) open(); });
    box.dataset.live = 'push';
  } else {
    const poll = async () => {
      try {
        const r = await fetch(box.dataset.poll, { headers: { Accept: 'application/json' }, cache: 'no-store' });
        if (r.ok) show(await r.json());
      } catch (_) {
        // The server is away for a moment: try again at the next tick.
      }
      setTimeout(poll, POLL_MS);
    };
    setTimeout(poll, POLL_MS);
    box.dataset.live = 'poll';
  }
}

// The players' event pages (pairings and standings on the wall, on the players' phones) are
// live: the server pushes the page's body whenever it changes (`data-stream`, Server-Sent Events:
// `page` events carrying `{version, html}`, one when the stream opens so that a page that was
// away catches up), and it is put in place without a reload, keeping the focus and the tables'
// scroll. A line says whether the page is live, and says so in plain words when the server
// cannot be reached; the browser reconnects by itself (the page too, after a refusal). The box
// beside it turns the updates off (WCAG 2.2.2); the choice is kept per browser.
const live = document.getElementById('live-body');
if (live && live.dataset.stream && window.EventSource) {
  const KEY = 'tilebag.events.live';
  const bar = document.getElementById('live-bar');
  const status = document.getElementById('live-status');
  const toggle = document.getElementById('live-updates');
  let version = live.dataset.version;
  let source = null;
  let retry = null;
  const say = (state, text) => {
    if (status.dataset.state === state && status.textContent === text) return;
    status.dataset.state = state;
    status.textContent = text;
  };
  const time = () => new Date().toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  const liveText = (at) => `Live: results and pairings appear here as the director enters them${at ? ` (last change at ${at})` : ''}.`;
  let changedAt = null;

  /** Put a new body in place, keeping what the reader was on. */
  const replace = (html) => {
    const focused = document.activeElement && live.contains(document.activeElement) ? document.activeElement : null;
    const focusKey = focused && (focused.id ? `#${CSS.escape(focused.id)}`
      : focused.getAttribute('href') ? `a[href="${CSS.escape(focused.getAttribute('href'))}"]` : null);
    const scrolls = [...live.querySelectorAll('.scroll')].map((b) => [b.querySelector('table')?.id, b.scrollLeft]);
    live.innerHTML = html;
    for (const [id, left] of scrolls) {
      const box = id && live.querySelector(`#${CSS.escape(id)}`)?.closest('.scroll');
      if (box) box.scrollLeft = left;
    }
    if (focusKey) live.querySelector(focusKey)?.focus({ preventScroll: true });
  };

  const open = () => {
    clearTimeout(retry);
    say('connecting', 'Connecting for live updates\u2026');
    source = new EventSource(live.dataset.stream);
    source.addEventListener('open', () => say('live', liveText(changedAt)));
    source.addEventListener('page', (e) => {
      let data;
      try { data = JSON.parse(e.data); } catch (_) { return; /* a damaged event: the next one mends it */ }
      if (data.version !== version) {
        replace(data.html);
        version = data.version;
        changedAt = time();
      }
      say('live', liveText(changedAt));
    });
    source.addEventListener('error', () => {
      say('offline', 'The server cannot be reached just now, so this page may be out of date. '
        + 'It brings itself up to date when the server is back.');
      // The browser tries again by itself after a dropped connection, but not after a refusal.
      if (source && source.readyState === EventSource.CLOSED) {
        source = null;
        retry = setTimeout(open, 5000);
      }
    });
  };
  const close = () => {
    clearTimeout(retry);
    if (source) source.close();
    source = null;
  };
  const start = () => {
    if (toggle.checked) open();
    else {
      close();
      say('paused', 'Live updates are off: this page stays as it is. Tick the box to see results as they come in.');
    }
  };
  bar.hidden = false;
  toggle.checked = localStorage.getItem(KEY) !== 'off';
  toggle.addEventListener('change', () => {
    localStorage.setItem(KEY, toggle.checked ? 'on' : 'off');
    start();
  });
  // Closed when the page is left (a kept page's open stream would hold one of the browser's few
  // connections to the server), opened again if it is shown from the back/forward cache.
  window.addEventListener('pagehide', close);
  window.addEventListener('pageshow', (e) => { if (e.persisted && !source) start(); });
  start();
}
