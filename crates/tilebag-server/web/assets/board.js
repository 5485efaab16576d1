// The board: 15×15 squares with their premiums, column letters and row numbers (GCG
// coordinates), the tiles on it, tentative tiles, the last play highlighted and a typing cursor.
// One tab stop (role=grid with aria-activedescendant); the page decides what keys do.

import { COLS, SIZE, el, premiumAt, PREMIUM_NAMES, tileValue } from './common.js';

const PREMIUM_TEXT = { tw: 'TW', dw: 'DW', tl: 'TL', dl: 'DL', '': '' };

export class BoardView {
  /**
   * @param {HTMLElement} container
   * @param {object} opts `{ id, label, interactive, onSquareClick(r, c, ev), onDrop(r, c, ev),
   *   onTileDragStart(r, c, ev) }`
   */
  constructor(container, opts = {}) {
    this.opts = opts;
    this.prefix = opts.id || 'board';
    this.cells = [];
    const grid = el('div', {
      class: 'board' + (opts.interactive ? ' interactive' : ''),
      id: this.prefix,
      // A grid is interactive (one tab stop, a cursor); a board only to look at is a table.
      role: opts.interactive ? 'grid' : 'table',
      'aria-label': opts.label || 'Board',
      tabindex: opts.interactive ? '0' : null,
      'data-testid': 'board',
    });
    const head = el('div', { role: 'row', class: 'board-row' },
      el('span', { class: 'coord corner', role: 'columnheader', 'aria-hidden': 'true' }));
    for (let c = 0; c < SIZE; c++) {
      head.append(el('span', { class: 'coord col', role: 'columnheader' }, COLS[c]));
    }
    grid.append(head);
    for (let r = 0; r < SIZE; r++) {
      const row = el('div', { role: 'row', class: 'board-row' },
        el('span', { class: 'coord row', role: 'rowheader' }, String(r + 1)));
      const cells = [];
      for (let c = 0; c < SIZE; c++) {
        const p = premiumAt(r, c);
        const centre = r === 7 && c === 7;
        const cell = el('div', {
          class: `sq ${p}${centre ? ' centre' : ''}`,
          role: opts.interactive ? 'gridcell' : 'cell',
          id: `${this.prefix}-sq-${r}-${c}`,
          'data-r': r,
          'data-c': c,
          'data-sq': `${COLS[c]}${r + 1}`,
        });
        if (opts.onSquareClick) {
          cell.addEventListener('click', (ev) => opts.onSquareClick(r, c, ev));
        }
        if (opts.onDrop) {
          cell.addEventListener('dragover', (ev) => {
            ev.preventDefault();
            cell.classList.add('drop-target');
          });
          cell.addEventListener('dragleave', () => cell.classList.remove('drop-target'));
          cell.addEventListener('drop', (ev) => {
            ev.preventDefault();
            cell.classList.remove('drop-target');
            opts.onDrop(r, c, ev);
          });
        }
        row.append(cell);
        cells.push(cell);
      }
      this.cells.push(cells);
      grid.append(row);
    }
    this.grid = grid;
    container.replaceChildren(grid);
  }

  /**
   * Show a position.
   * @param {object} s `{ rows: string[15], highlight: Set<"r,c">, placed: Map<"r,c", {letter,
   *   blank}>, cursor: {r, c, dir} | null }`
   */
  render(s) {
    const rows = s.rows || [];
    for (let r = 0; r < SIZE; r++) {
      for (let c = 0; c < SIZE; c++) {
        const cell = this.cells[r][c];
        const key = `${r},${c}`;
        const ch = rows[r] ? rows[r][c] : '.';
        const tentative = s.placed && s.placed.get(key);
        const preview = s.preview && s.preview.get(key);
        const p = premiumAt(r, c);
        const centre = r === 7 && c === 7;
        const name = `${COLS[c]}${r + 1}`;
        let label;
        cell.replaceChildren();
        cell.classList.toggle('has-tile', ch !== '.' || !!tentative);
        cell.classList.toggle('last', !!(s.highlight && s.highlight.has(key)));
        cell.classList.toggle('tentative', !!tentative);
        cell.classList.toggle('preview', !!preview);
        cell.classList.toggle('cursor', !!(s.cursor && s.cursor.r === r && s.cursor.c === c));
        cell.classList.toggle('dir-down', !!(s.cursor && s.cursor.dir === 'down'));
        cell.removeAttribute('draggable');
        if (preview) {
          cell.append(tileNode(preview));
          const blank = preview >= 'a' && preview <= 'z';
          label = `${name}: ${preview.toUpperCase()}${blank ? ' (blank)' : ''}, shown by the analysis`;
          cell.ondragstart = null;
        } else if (tentative) {
          cell.append(tileNode(tentative.blank ? tentative.letter.toLowerCase() : tentative.letter));
          label = `${name}: ${tentative.letter}${tentative.blank ? ' (blank)' : ''}, not yet played`;
          if (this.opts.onTileDragStart) {
            cell.setAttribute('draggable', 'true');
            cell.ondragstart = (ev) => this.opts.onTileDragStart(r, c, ev);
          }
        } else if (ch !== '.') {
          cell.append(tileNode(ch));
          const blank = ch >= 'a' && ch <= 'z';
          label = `${name}: ${ch.toUpperCase()}${blank ? ' (blank)' : ''}`;
          cell.ondragstart = null;
        } else {
          cell.ondragstart = null;
          const text = centre ? '\u2605' : PREMIUM_TEXT[p];
          if (text) cell.append(el('span', { class: 'premium', 'aria-hidden': 'true', 'data-p': text }));
          label = `${name}: ${centre ? 'centre, ' : ''}${PREMIUM_NAMES[p] || 'empty'}`;
        }
        if (s.highlight && s.highlight.has(key)) label += ', last play';
        if (s.cursor && s.cursor.r === r && s.cursor.c === c) {
          label += `, cursor ${s.cursor.dir === 'down' ? 'down' : 'across'}`;
        }
        cell.setAttribute('aria-label', label);
      }
    }
    if (s.cursor) {
      this.grid.setAttribute('aria-activedescendant', `${this.prefix}-sq-${s.cursor.r}-${s.cursor.c}`);
    } else {
      this.grid.removeAttribute('aria-activedescendant');
    }
  }
}

/** A tile as shown on the board or a rack: its letter and value (a blank shows no value). The
 * value is drawn by the stylesheet from `data-v`: the tile's label says it in words. */
export function tileNode(ch) {
  const blank = ch === '?' || (ch >= 'a' && ch <= 'z');
  const v = tileValue(ch);
  return el('span', { class: 'tile' + (blank ? ' blank' : ''), 'aria-hidden': 'true' },
    el('span', { class: 'tile-letter' }, ch === '?' ? '' : ch.toUpperCase()),
    blank ? null : el('sub', { class: 'tile-value', 'data-v': String(v) }));
}
