// The rematch offer at the end of a game between two accounts (issue 30 item 4). Once the game
// is over, its page asks the server whether this viewer is one of its players
// (`GET /api/games/ID/rematch`); if so it shows a small panel under the result: offer a
// rematch, or accept or decline the other player's offer, or withdraw one's own. The answers
// arrive on the player's own lobby stream (`/api/lobby/stream`: `rematch` events for this game,
// and `game` with the new seat's link once the rematch starts, which the page then opens).
// Seats are swapped in the rematch; the rules, lexicon and clock stay the same.

import { api, el } from './common.js';

let begun = false;

/** Called by game.js whenever a view says the game has ended; sets up the panel once. */
export function rematchOnEnd(gameId) {
  if (begun) return;
  begun = true;
  setUp(gameId);
}

async function setUp(gameId) {
  const path = `/api/games/${encodeURIComponent(gameId)}/rematch`;
  let st;
  try {
    st = await api(path);
  } catch {
    return;
  }
  if (!st || !st.player || !st.me) return;
  const me = st.me.username;
  const csrf = st.me.csrf;
  let offer = st.offer || null;
  // Whether the offer was accepted while this page was open (then the new game opens itself).
  let starting = false;
  const status = el('p', { id: 'rematch-status', role: 'status', 'data-testid': 'rematch-status' });
  const buttons = el('div', { class: 'buttons' });
  const error = el('p', { class: 'error', role: 'alert', 'data-testid': 'rematch-error' });
  const box = el('section', { id: 'rematch', class: 'rematch', 'aria-labelledby': 'rematch-h', 'data-testid': 'rematch' },
    el('h2', { id: 'rematch-h' }, 'Rematch'), status, buttons, error);
  const result = document.getElementById('result');
  if (result && result.parentNode) result.after(box);
  else document.getElementById('main').append(box);

  const button = (label, action, primary) => el('button', {
    type: 'button', class: primary ? 'primary' : null, 'data-testid': `rematch-${action}`,
    onclick: () => act(action),
  }, label);

  function render() {
    const state = offer ? offer.state : null;
    if (state === 'offered' && offer.to === me) {
      status.textContent = `${offer.from} offers a rematch, with the seats swapped.`;
      buttons.replaceChildren(button('Accept the rematch', 'accept', true), button('Decline', 'decline'));
    } else if (state === 'offered') {
      status.textContent = `You offered ${offer.to} a rematch; waiting for an answer.`;
      buttons.replaceChildren(button('Withdraw the offer', 'withdraw'));
    } else if (state === 'accepted' && st.rematch) {
      // Opened later: the rematch was started then; to this player's own seat in it.
      status.replaceChildren('The rematch was started: ',
        el('a', { href: st.rematch.url, 'data-testid': 'rematch-link' }, 'your seat in the rematch'), '.');
      buttons.replaceChildren();
    } else if (state === 'accepted') {
      status.textContent = starting ? 'The rematch is starting…' : 'The rematch was started.';
      buttons.replaceChildren();
    } else {
      const said = {
        declined: offer && offer.to === me ? 'You declined the rematch.' : `${offer && offer.to} declined the rematch.`,
        withdrawn: 'The rematch offer was withdrawn.',
        expired: 'The rematch offer expired.',
      }[state] || '';
      status.textContent = said;
      buttons.replaceChildren(...(st.can_offer ? [button('Offer a rematch', 'offer', true)] : []));
    }
  }

  async function act(action) {
    error.textContent = '';
    try {
      const r = await api(path, { json: { action }, headers: { 'X-CSRF-Token': csrf } });
      if (r && r.game) {
        starting = true;
        location.href = r.game.url;
        return;
      }
      if (r && r.offer) offer = r.offer;
      render();
    } catch (e) {
      error.textContent = e.status ? e.message : 'The server cannot be reached just now; try again in a moment.';
    }
  }

  render();
  if (!window.EventSource) return;
  const events = new EventSource('/api/lobby/stream');
  events.addEventListener('rematch', (e) => {
    const o = JSON.parse(e.data);
    if (o.game_id !== gameId) return;
    offer = o;
    if (o.state === 'accepted') starting = true;
    render();
  });
  events.addEventListener('game', (e) => {
    const g = JSON.parse(e.data);
    // The rematch of this game has started: to the new seat.
    if (g.fresh && g.rematch_of === gameId) location.href = g.url;
  });
  window.addEventListener('pagehide', () => events.close());
}
