// The analysis of an ended game (GET /api/games/ID/analysis): per turn the move played, its
// equity, the best moves the engine found with theirs, the equity lost and missed bingos; per
// player totals. Clicking an alternative shows it on the board as the board was at that turn,
// with the scores, racks and unseen tiles of that moment (the page draws it beside the board in
// the preview style; the game is not changed). Moves are written as words: a letter already on
// the board is read off the board of that turn, not left as GCG's dot.

import { api, el, wordNode } from './common.js';

const $ = (id) => document.getElementById(id);

const fmt = (x) => (Math.round(x * 10) / 10).toFixed(1);
const signedFmt = (x) => (x < 0 ? `\u2212${fmt(-x)}` : `+${fmt(x)}`);

/** A move's text (`8D COOPER.`, `-ABC`, `-`) with its word written out on `board`. */
export function moveNode(text, board) {
  const m = /^(\S+) (\S+)$/.exec(text || '');
  if (!m || m[1].startsWith('-')) return el('span', { class: 'mono' }, text || '\u2014');
  const at = (r, c) => (board[r] ? board[r][c] : '.');
  return el('span', { class: 'mono move-text' }, `${m[1]} `, wordNode(m[1], m[2], at));
}

export class Analysis {
  /**
   * @param {string} gameId
   * @param {(preview: null | {turn, move, rank, names}) => void} onPreview
   */
  constructor(gameId, onPreview) {
    this.gameId = gameId;
    this.onPreview = onPreview;
    this.doc = null;
    this.pressed = null;
    this.names = [];
  }

  async open(names) {
    this.names = names;
    const box = $('analysis');
    box.hidden = false;
    // The address says so too (/games/ID#analysis), to keep or pass on.
    if (location.hash !== '#analysis') history.replaceState(history.state, '', '#analysis');
    $('analysis-h').focus();
    if (this.doc) return;
    $('analysis-status').textContent = 'Analysing the game…';
    try {
      this.doc = await api(`/api/games/${encodeURIComponent(this.gameId)}/analysis`);
    } catch (e) {
      $('analysis-status').textContent = `No analysis: ${e.message}`;
      return;
    }
    $('analysis-status').textContent = `${this.doc.turns.length} moves analysed with ${this.doc.lexicon}.`;
    this.render(names);
  }

  render(names) {
    const d = this.doc;
    const totals = el('table', { class: 'analysis-totals', 'data-testid': 'analysis-totals' },
      el('thead', {}, el('tr', {},
        el('th', { scope: 'col' }, 'Player'),
        el('th', { scope: 'col' }, 'Moves'),
        el('th', { scope: 'col' }, 'Best found'),
        el('th', { scope: 'col' }, 'Equity lost'),
        el('th', { scope: 'col' }, 'Missed bingos'))),
      el('tbody', {}, ...d.totals.map((t, p) => el('tr', {},
        el('th', { scope: 'row' }, names[p] || `Player ${p + 1}`),
        el('td', {}, String(t.moves)),
        el('td', {}, String(t.best_played)),
        el('td', {}, fmt(t.equity_lost)),
        el('td', {}, String(t.missed_bingos))))));
    const list = el('ol', { class: 'analysis-turns', 'data-testid': 'analysis-turns' },
      ...d.turns.map((t) => this.turnItem(t, names)));
    $('analysis-body').replaceChildren(
      el('div', { class: 'table-scroll' }, totals),
      el('p', { class: 'hint' }, 'Equity is the score plus the value of the tiles kept; in brackets, ' +
        'how much more (or less) than the move played. A move\u2019s button shows it on the board, ' +
        'with the scores, racks and unseen tiles of that moment.'),
      list);
  }

  turnItem(t, names) {
    const who = names[t.player] || `Player ${t.player + 1}`;
    const lost = t.equity_lost > 0.05
      ? el('span', { class: 'lost' }, `lost ${fmt(t.equity_lost)}`)
      : el('span', { class: 'best-played' }, 'best');
    const head = el('div', {},
      el('strong', {}, `${t.n}. ${who}`), ` · rack ${t.rack} · played `,
      el('span', { 'data-testid': 'played' }, moveNode(t.played.text, t.board)),
      ` (${t.played.score}, equity ${fmt(t.played.equity)}${t.valid ? '' : ', a phony'}) · `, lost,
      t.missed_bingo ? el('span', { class: 'lost' }, ' · missed a bingo') : '');
    const alts = el('div', { class: 'alts', role: 'group', 'aria-label': `Best moves for move ${t.n}: each button shows its move on the board` },
      ...t.best.map((m, i) => {
        const diff = m.equity - t.played.equity;
        const b = el('button', {
          type: 'button',
          'aria-pressed': 'false',
          'data-testid': 'alternative',
          'data-equity': fmt(m.equity),
          title: `Equity ${fmt(m.equity)}: ${Math.abs(diff) < 0.05 ? 'the same as' : `${fmt(Math.abs(diff))} ${diff > 0 ? 'more' : 'less'} than`} the move played`,
        }, `${i + 1}. `, moveNode(m.text, t.board), ` ${m.score} · `,
        el('span', { class: 'equity', 'data-testid': 'equity' }, `equity ${fmt(m.equity)}`),
        ` (${signedFmt(diff)})`, m.bingo ? ' · bingo' : '');
        b.addEventListener('click', () => this.show(t, m, i, b));
        return b;
      }));
    return el('li', { class: 'analysis-turn', 'data-testid': 'analysis-turn' }, head, alts);
  }

  show(t, m, rank, button) {
    if (this.pressed) this.pressed.setAttribute('aria-pressed', 'false');
    this.pressed = button;
    button.setAttribute('aria-pressed', 'true');
    this.onPreview({ turn: t, move: m, rank, names: this.names, moveNode: moveNode(m.text, t.board) });
  }

  /** Back to the list: the alternative last shown, focused (and so scrolled to). */
  backToList() {
    const target = this.pressed || $('analysis-h');
    target.focus();
  }

  clear() {
    if (this.pressed) this.pressed.setAttribute('aria-pressed', 'false');
    const was = this.pressed;
    this.pressed = null;
    this.onPreview(null);
    return was;
  }
}
