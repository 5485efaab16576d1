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

// The players' pages (pairings and standings on the wall): reload every minute while the box is
// ticked; the choice is kept per browser.
const auto = document.getElementById('auto-refresh');
if (auto) {
  const KEY = 'tilebag.events.autoRefresh';
  auto.checked = localStorage.getItem(KEY) !== 'off';
  let timer = null;
  const arm = () => {
    clearTimeout(timer);
    if (auto.checked) timer = setTimeout(() => location.reload(), 60000);
  };
  auto.addEventListener('change', () => {
    localStorage.setItem(KEY, auto.checked ? 'on' : 'off');
    arm();
  });
  arm();
}
