// The director's division page: calls for the director arrive while the page is open. The page
// asks the server every few seconds (`GET .../calls`); a new call is shown at the top of the page
// (an assertive live region, so a screen reader says it at once) with a short sound. The page
// works without this script: it then shows the calls waiting when it is loaded.

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

if (box && box.dataset.poll) {
  // The calls shown when the page was loaded are not new.
  let known = new Set([...box.querySelectorAll('.call-item')].map(p => p.textContent));
  let seen = new Set();
  let first = true;
  async function poll() {
    try {
      const r = await fetch(box.dataset.poll, { headers: { Accept: 'application/json' }, cache: 'no-store' });
      if (r.ok) {
        const data = await r.json();
        const keys = new Set(data.calls.map(keyOf));
        const fresh = [...keys].some(k => !seen.has(k));
        box.innerHTML = data.html;
        box.dataset.count = String(data.calls.length);
        const textNow = [...box.querySelectorAll('.call-item')].map(p => p.textContent);
        if (fresh && !(first && textNow.every(t => known.has(t)))) chime();
        seen = keys;
        known = new Set();
        first = false;
      }
    } catch (_) {
      // The server is away for a moment: try again at the next tick.
    }
    setTimeout(poll, POLL_MS);
  }
  setTimeout(poll, POLL_MS);
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
