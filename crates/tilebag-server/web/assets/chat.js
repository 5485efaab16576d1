// The chat panel, for the lobby (`<section id="lobby-chat">`) and a game's page
// (`<section id="game-chat">`): recent messages on load, new ones pushed by the server
// (Server-Sent Events, `/api/chat/stream`), a message box, and per message: report, mute or
// block its sender (a moderator may delete it). A game has two rooms: the players' chat and the
// watchers' chat (the server keeps the watchers' chat from the players while the game is on,
// and shuts the players' chat of an event game, NASPA I.D). Every refusal is the server's own
// words.

import { el } from './common.js';

/** POST a form to the server; resolves to the JSON answer, rejects with the server's words. */
async function post(path, fields) {
  const res = await fetch(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
    body: new URLSearchParams(fields),
  });
  let body = null;
  try { body = await res.json(); } catch { body = null; }
  if (!res.ok) throw new Error((body && body.error) || `${res.status} ${res.statusText}`);
  return body;
}

function timeOf(ms) {
  const d = new Date(ms);
  return d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}

class ChatPanel {
  constructor(section, rooms) {
    this.section = section;
    this.rooms = rooms; // [{ key, label }]
    this.room = rooms[0].key;
    this.state = null;
    this.source = null;
    this.build();
    this.open(this.room);
    addEventListener('pagehide', () => this.close());
    addEventListener('pageshow', (e) => { if (e.persisted) this.open(this.room); });
  }

  build() {
    const s = this.section;
    s.classList.add('card', 'chat-panel');
    s.setAttribute('aria-labelledby', `${s.id}-h`);
    s.hidden = false;
    s.replaceChildren();
    s.append(el('h2', { id: `${s.id}-h` }, 'Chat'));
    if (this.rooms.length > 1) {
      this.tabs = el('div', { class: 'chat-rooms', role: 'group', 'aria-label': 'Chat rooms' },
        this.rooms.map((r) => el('button', {
          type: 'button', 'data-room': r.key, 'aria-pressed': String(r.key === this.room),
          onclick: () => this.open(r.key),
        }, r.label)));
      s.append(this.tabs);
    }
    this.status = el('p', { class: 'chat-status hint', role: 'status', 'data-testid': 'chat-status' });
    this.log = el('div', { class: 'chat-log', role: 'log', tabindex: '0', 'aria-live': 'polite', 'aria-label': 'Messages', 'data-testid': 'chat-log' });
    this.input = el('input', { id: `${s.id}-text`, name: 'text', maxlength: '500', autocomplete: 'off', required: true });
    this.error = el('p', { class: 'error chat-error', role: 'alert', 'data-testid': 'chat-error' });
    this.form = el('form', { class: 'chat-form', onsubmit: (e) => { e.preventDefault(); this.send(); } },
      el('label', { for: `${s.id}-text` }, 'Message'),
      el('div', { class: 'chat-send' }, this.input, el('button', { type: 'submit', class: 'primary' }, 'Send')));
    this.silence = el('button', { type: 'button', class: 'chat-silence', hidden: true, onclick: () => this.askSilence() }, 'Ask for silence');
    this.hiddenList = el('details', { class: 'chat-hidden', hidden: true });
    s.append(this.status, this.log, this.form, this.error, this.silence, this.hiddenList);
  }

  close() {
    if (this.source) { this.source.close(); this.source = null; }
  }

  async open(room) {
    this.close();
    this.room = room;
    if (this.tabs) {
      for (const b of this.tabs.querySelectorAll('button')) b.setAttribute('aria-pressed', String(b.dataset.room === room));
    }
    await this.load();
    if (this.state && this.state.me) {
      this.source = new EventSource(`/api/chat/stream?room=${encodeURIComponent(room)}`);
      this.source.addEventListener('message', (e) => this.add(JSON.parse(e.data)));
      this.source.addEventListener('deleted', (e) => {
        const li = this.log.querySelector(`.chat-line[data-id="${CSS.escape(e.data)}"]`);
        if (li) li.remove();
      });
      this.source.addEventListener('notice', (e) => {
        this.log.append(el('div', { class: 'chat-line chat-notice' }, JSON.parse(e.data).text));
        this.load();
      });
      this.source.addEventListener('reload', () => this.load());
    }
  }

  async load() {
    let st;
    try {
      const res = await fetch(`/api/chat?room=${encodeURIComponent(this.room)}`, { headers: { Accept: 'application/json' } });
      st = await res.json();
      if (!res.ok) throw new Error(st.error || res.statusText);
    } catch (e) {
      this.status.textContent = `The chat cannot be reached: ${e.message}`;
      return;
    }
    this.state = st;
    this.log.replaceChildren();
    if (!st.me) {
      this.status.replaceChildren('Sign in to chat: ', el('a', { href: `/signin?next=${encodeURIComponent(location.pathname)}` }, 'sign in'), '.');
      this.form.hidden = true;
      this.silence.hidden = true;
      this.hiddenList.hidden = true;
      return;
    }
    const lines = [];
    if (st.hidden) lines.push(st.hidden);
    else if (!st.may_send && st.why_not) lines.push(st.why_not);
    this.status.textContent = lines.join(' ');
    this.form.hidden = !st.may_send;
    this.silence.hidden = !(st.player && st.may_send && this.room.endsWith(':players')) || gameOver();
    for (const m of st.messages) this.add(m);
    this.showHidden(st.hidden_users || []);
    // A room that is shut (a game on, silence asked for) opens when the game ends: look again
    // now and then while it is shut.
    clearTimeout(this.again);
    if (st.hidden || !st.may_send) this.again = setTimeout(() => this.load(), 15000);
  }

  showHidden(users) {
    this.hiddenList.hidden = users.length === 0;
    this.hiddenList.replaceChildren(
      el('summary', {}, `Muted and blocked (${users.length})`),
      el('ul', {}, users.map((u) => el('li', {}, `${u.name} (${u.kind === 'mute' ? 'muted' : 'blocked'}) `,
        el('button', { type: 'button', onclick: () => this.relation(u.name, u.kind, 'off') }, `Lift the ${u.kind}`)))));
  }

  add(m) {
    if (this.log.querySelector(`.chat-line[data-id="${m.id}"]`)) return;
    const mine = this.state && m.sender === this.state.me;
    const actions = [];
    if (!mine) {
      actions.push(
        el('button', { type: 'button', onclick: () => this.report(m) }, 'Report'),
        el('button', { type: 'button', onclick: () => this.relation(m.sender, 'mute', 'on') }, `Mute ${m.sender}`),
        el('button', { type: 'button', onclick: () => this.relation(m.sender, 'block', 'on') }, `Block ${m.sender}`));
    }
    if (this.state && this.state.moderator) {
      actions.push(el('button', { type: 'button', class: 'danger', onclick: () => this.remove(m) }, 'Delete'));
    }
    const li = el('div', { 'data-id': m.id, class: mine ? 'chat-line mine' : 'chat-line' },
      el('span', { class: 'chat-time' }, timeOf(m.sent_ms)), ' ',
      el('strong', { class: 'chat-sender' }, m.sender), ' ',
      el('span', { class: 'chat-text' }, m.text));
    if (actions.length) {
      li.append(el('details', { class: 'chat-actions' },
        el('summary', { 'aria-label': `Actions on ${m.sender}'s message` }, '⋯'),
        el('div', { class: 'buttons' }, actions)));
    }
    this.log.append(li);
    this.log.scrollTop = this.log.scrollHeight;
  }

  async send() {
    const text = this.input.value;
    this.error.textContent = '';
    try {
      await post('/api/chat/send', { room: this.room, text, csrf: this.state.csrf });
      this.input.value = '';
    } catch (e) {
      this.error.textContent = e.message;
    }
  }

  async askSilence() {
    this.error.textContent = '';
    try {
      await post('/api/chat/silence', { room: this.room, csrf: this.state.csrf });
      await this.load();
    } catch (e) {
      this.error.textContent = e.message;
    }
  }

  async relation(user, kind, set) {
    this.error.textContent = '';
    try {
      await post('/api/chat/relation', { user, kind, set, csrf: this.state.csrf });
      await this.load();
    } catch (e) {
      this.error.textContent = e.message;
    }
  }

  async report(m) {
    this.error.textContent = '';
    const reason = prompt(`Report ${m.sender}'s message to the moderators. Why? (optional)`, '');
    if (reason === null) return;
    try {
      await post('/api/chat/report', { message: String(m.id), reason, csrf: this.state.csrf });
      this.status.textContent = 'Reported to the moderators. Thank you.';
    } catch (e) {
      this.error.textContent = e.message;
    }
  }

  async remove(m) {
    this.error.textContent = '';
    try {
      await post('/moderation/delete', { message: String(m.id), csrf: this.state.moderation_csrf, js: '1' });
    } catch (e) {
      this.error.textContent = e.message;
    }
  }
}

/** Whether this page's game has ended (its result is shown): silence is asked for during a
 * game only. */
function gameOver() {
  const result = document.getElementById('result');
  return !!result && !result.hidden;
}

/** The panel's rooms on this page: the lobby's, or a game's two. */
function start() {
  const lobby = document.getElementById('lobby-chat');
  if (lobby) new ChatPanel(lobby, [{ key: 'lobby', label: 'Lobby' }]);
  const game = document.getElementById('game-chat');
  const id = location.pathname.match(/^\/games?\/([A-Za-z0-9-]{1,64})\/?$/);
  if (game && id) {
    const panel = new ChatPanel(game, [
      { key: `game:${id[1]}:players`, label: 'Players' },
      { key: `game:${id[1]}:watchers`, label: 'Watchers' },
    ]);
    // Once the game ends, "Ask for silence" goes.
    const result = document.getElementById('result');
    if (result) {
      new MutationObserver(() => { if (gameOver()) panel.silence.hidden = true; })
        .observe(result, { attributes: true, attributeFilter: ['hidden'] });
    }
  }
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
