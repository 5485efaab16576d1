// The analysis of an ended game (GET /api/games/ID/analysis): per turn the move played, its
// equity, the best moves the engine found with theirs, the equity lost and missed bingos; per
// player totals. Clicking an alternative shows it on the board as the board was at that turn
// (the page draws it in the preview style; the game is not changed).

import { api, el } from './common.js';

const $ = (id) => document.getElementById(id);

const fmt = (x) => (Math.round(x * 10) / 10).toFixed(1);

export class Analysis {
  /**
   * @param {string} gameId
   * @param {(preview: null | {board: string[], tiles: Map<string, string>}) => void} onPreview
   */
  constructor(gameId, onPreview) {
    this.gameId = gameId;
    this.onPreview = onPreview;
    this.doc = null;
    this.pressed = null;
  }

  async open(names) {
    const box = $('analysis');
    box.hidden = false;
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
    const back = el('button', { type: 'button', id: 'preview-clear', hidden: true, onclick: () => this.clear() }, 'Back to the game');
    this.back = back;
    const list = el('ol', { class: 'analysis-turns', 'data-testid': 'analysis-turns' },
      ...d.turns.map((t) => this.turnItem(t, names)));
    $('analysis-body').replaceChildren(
      el('div', { class: 'table-scroll' }, totals),
      el('div', { class: 'preview-bar' }, back, el('span', { id: 'preview-what', class: 'hint', role: 'status', 'aria-live': 'polite' })),
      list);
  }

  turnItem(t, names) {
    const who = names[t.player] || `Player ${t.player + 1}`;
    const lost = t.equity_lost > 0.05
      ? el('span', { class: 'lost' }, `lost ${fmt(t.equity_lost)}`)
      : el('span', { class: 'best-played' }, 'best');
    const head = el('div', {},
      el('strong', {}, `${t.n}. ${who}`), ` · rack ${t.rack} · played `,
      el('span', { class: 'mono' }, t.played.text || '—'),
      ` (${t.played.score}, equity ${fmt(t.played.equity)}${t.valid ? '' : ', a phony'}) · `, lost,
      t.missed_bingo ? el('span', { class: 'lost' }, ' · missed a bingo') : '');
    const alts = el('div', { class: 'alts', role: 'group', 'aria-label': `Best moves for move ${t.n}: each button shows its move on the board` },
      ...t.best.map((m, i) => {
        const label = `${m.text}${m.word ? ` (${m.word})` : ''} ${m.score}, eq ${fmt(m.equity)}${m.bingo ? ', bingo' : ''}`;
        const b = el('button', {
          type: 'button',
          'aria-pressed': 'false',
          'data-testid': 'alternative',
        }, `${i + 1}. ${label}`);
        b.addEventListener('click', () => this.show(t, m, b));
        return b;
      }));
    return el('li', { class: 'analysis-turn', 'data-testid': 'analysis-turn' }, head, alts);
  }

  show(t, m, button) {
    if (this.pressed) this.pressed.setAttribute('aria-pressed', 'false');
    this.pressed = button;
    button.setAttribute('aria-pressed', 'true');
    const tiles = new Map();
    for (const [r, c, ch] of m.tiles) tiles.set(`${r},${c}`, ch);
    this.back.hidden = false;
    $('preview-what').textContent = m.kind === 'play'
      ? `Move ${t.n}: ${m.text} shown on the board as it was then.`
      : `Move ${t.n}: ${m.text} (nothing to show on the board).`;
    this.onPreview({ board: t.board, tiles });
  }

  clear() {
    if (this.pressed) this.pressed.setAttribute('aria-pressed', 'false');
    this.pressed = null;
    this.back.hidden = true;
    $('preview-what').textContent = '';
    this.onPreview(null);
  }
}
