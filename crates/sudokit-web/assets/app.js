// sudokit page. All Sudoku work happens on the server (the sudokit library); this
// script only draws. It knows one rule, "a digit appears once in a house", with the
// houses sent by the server, to show candidates while a trace is replayed.
//
// Replaying a trace: givens, singletons and hidden singles fill a cell; a guess fills a
// cell and opens a branch; a backtrack closes the latest branch, emptying every cell
// filled since its guess (the engines restore the board they saved before guessing);
// a dead end fills nothing. Going back a step replays from the start, which takes
// microseconds even for long traces.
'use strict';

const SYMBOLS = '123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const $ = (id) => document.getElementById(id);

const S = {
  n: 9, houses: [], peers: [], boxRows: 3, boxCols: 3,
  variant: 'standard', regionMap: null, regions: [], shaded: new Set(),
  puzzle: [], line: '', solution: null,
  mode: 'watch',
  trace: [], engine: 'moler', pos: 0, timer: null, stats: null,
  hand: null,
};

function message(text, isError) {
  const m = $('message');
  m.textContent = text || '';
  m.className = isError ? 'error' : '';
}

async function api(path, body) {
  const init = body === undefined
    ? { method: 'GET' }
    : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
  let response;
  try {
    response = await fetch(path, init);
  } catch (e) {
    message('the server does not answer: ' + e, true);
    return null;
  }
  const data = await response.json().catch(() => ({ error: 'bad answer from the server' }));
  if (!response.ok) {
    message(data.error || ('error ' + response.status), true);
    return null;
  }
  return data;
}

// The variant keys of the board on screen (every request about it carries them).
function boardVariant() {
  const keys = {};
  if (S.variant !== 'standard') keys.variant = S.variant;
  if (S.regionMap) keys.regions = S.regionMap;
  return keys;
}

// The checkboxes of the named extra houses (X, windoku...), one rule word each.
function ruleBoxes() {
  return Array.from(document.querySelectorAll('#rules input[data-rule]'));
}

// The variant keys chosen in the controls (loading and generating): the kind (boxes,
// Latin square or jigsaw), the named extra houses ticked, and the maps of houses of
// the user's own, all one variant (`jigsaw,x,extra=MAP`).
function chosenVariant() {
  const keys = {};
  const kind = $('variant').value;
  const words = kind ? [kind] : [];
  for (const box of ruleBoxes()) if (box.checked && !box.disabled) words.push(box.dataset.rule);
  // Maps of extra houses are part of the variant's name: extra=MAP, one word a map
  // (the field takes several, separated by commas, for houses that cross).
  for (const m of $('extra').value.split(/[,+]/)) {
    const map = m.trim().replace(/^extra=/, '');
    if (map) words.push('extra=' + map);
  }
  if (words.length) keys.variant = words.join(',');
  // A jigsaw without a map: a generated one draws its own.
  if (kind === 'jigsaw' && $('regions').value.trim()) keys.regions = $('regions').value;
  return keys;
}

// Shows the controls of one variant (`standard`, or words as in `jigsaw,x,extra=MAP`).
function showVariant(variant) {
  const words = variant === 'standard' ? [] : variant.split(',');
  $('variant').value = words.includes('latin') ? 'latin' : words.includes('jigsaw') ? 'jigsaw' : '';
  for (const box of ruleBoxes()) box.checked = words.includes(box.dataset.rule);
  $('extra').value = words.filter((w) => w.startsWith('extra=')).map((w) => w.slice('extra='.length)).join(',');
  showKind();
}

// The regions field for a jigsaw; the rules laid on boxes (windoku, disjoint groups,
// centre dot) only where there are boxes.
function showKind() {
  const kind = $('variant').value;
  $('regions-label').hidden = kind !== 'jigsaw';
  for (const label of document.querySelectorAll('#rules .on-boxes')) {
    label.querySelector('input').disabled = kind !== '';
  }
}

function digitsOf(line) {
  return Array.from(line).map((ch) => SYMBOLS.indexOf(ch.toUpperCase()) + 1);
}
function lineOf(values) {
  return values.map((v) => (v ? SYMBOLS[v - 1] : '.')).join('');
}

// ---------------------------------------------------------------- the board

function setBoard(b) {
  S.n = b.size;
  S.houses = b.houses;
  S.peers = Array.from({ length: S.n * S.n }, () => new Set());
  for (const h of b.houses) {
    for (const a of h) for (const c of h) if (a !== c) S.peers[a].add(c);
  }
  const m = /^(\d+)x(\d+)/.exec(b.shape || '');
  S.boxRows = m ? +m[1] : S.n;
  S.boxCols = m ? +m[2] : S.n;
  // The variant travels with every later request on this board (hints, ratings...).
  S.variant = b.variant || 'standard';
  S.regionMap = b.region_map || null;
  S.regions = b.regions || [];
  S.shaded = new Set(b.shaded || []);
  showVariant(S.variant);
  if (S.regionMap) $('regions').value = S.regionMap;
  S.puzzle = digitsOf(b.puzzle);
  S.line = b.puzzle;
  buildGrid();
}

function buildGrid() {
  const board = $('board');
  const n = S.n;
  board.innerHTML = '';
  board.style.setProperty('--n', n);
  board.style.setProperty('--b', Math.ceil(Math.sqrt(n)));
  board.style.gridTemplateColumns = `repeat(${n}, 1fr)`;
  board.style.gridTemplateRows = `repeat(${n}, 1fr)`;
  for (let c = 0; c < n * n; c++) {
    const d = document.createElement('div');
    const r = Math.floor(c / n), col = c % n;
    d.className = 'cell';
    // Heavy lines wherever neighbours lie in different boxes or regions (none in a
    // Latin square), so a jigsaw draws itself.
    const reg = S.regions;
    if (col + 1 < n && reg[c] !== null && reg[c] !== reg[c + 1]) d.classList.add('box-right');
    if (r + 1 < n && reg[c] !== null && reg[c] !== reg[c + n]) d.classList.add('box-bottom');
    if (S.shaded.has(c)) d.classList.add('shaded');
    d.dataset.cell = c;
    d.addEventListener('click', () => selectCell(c));
    board.appendChild(d);
  }
}

function candidates(values, c) {
  const seen = new Set();
  for (const p of S.peers[c]) if (values[p]) seen.add(values[p]);
  const out = [];
  for (let d = 1; d <= S.n; d++) if (!seen.has(d)) out.push(d);
  return out;
}

// Draws one cell: a value with its kind, or candidates (small digits).
function drawCell(c, value, kind, cands, extra, marks) {
  const el = $('board').children[c];
  el.className = el.className.split(' ').filter((k) => k === 'cell' || k === 'shaded' || k.startsWith('box-')).join(' ');
  for (const k of extra) el.classList.add(k);
  if (value) {
    el.classList.add(kind);
    el.textContent = SYMBOLS[value - 1];
    return;
  }
  el.textContent = '';
  if (!cands) return;
  const g = document.createElement('div');
  g.className = 'cands';
  if (cands.length === 1 && (!marks || !marks.manual)) g.classList.add('next');
  const has = new Set(cands);
  for (let d = 1; d <= S.n; d++) {
    const s = document.createElement('span');
    if (has.has(d)) s.textContent = SYMBOLS[d - 1];
    if (marks && marks.elim && marks.elim.has(d)) { s.textContent = SYMBOLS[d - 1]; s.classList.add('elim'); }
    if (marks && marks.place === d) s.classList.add('place');
    g.appendChild(s);
  }
  el.appendChild(g);
}

// ---------------------------------------------------------------- watching an engine

function replay(k) {
  const N = S.n * S.n;
  const values = new Array(N).fill(0);
  const kinds = new Array(N).fill('');
  const filled = [];
  const branches = [];
  let dead = -1;
  for (let i = 0; i < k; i++) {
    const s = S.trace[i];
    dead = -1;
    switch (s.reason) {
      case 'given':
        values[s.cell] = s.value; kinds[s.cell] = 'given'; break;
      case 'singleton':
      case 'hidden single':
        if (!values[s.cell]) filled.push(s.cell);
        values[s.cell] = s.value; kinds[s.cell] = 'single'; break;
      case 'guess':
        branches.push(filled.length);
        filled.push(s.cell);
        values[s.cell] = s.value; kinds[s.cell] = 'guess'; break;
      case 'backtrack': {
        const keep = branches.length ? branches.pop() : 0;
        while (filled.length > keep) { const c = filled.pop(); values[c] = 0; kinds[c] = ''; }
        break;
      }
      case 'dead end':
        dead = s.cell; break;
    }
  }
  return { values, kinds, dead };
}

function givenCount() {
  let k = 0;
  while (k < S.trace.length && S.trace[k].reason === 'given') k++;
  return k;
}

function renderWatch() {
  const N = S.n * S.n;
  let state;
  if (S.engine === 'fast' && S.solution && S.pos > 0) {
    state = { values: S.solution.slice(), kinds: S.solution.map((v, c) => (S.puzzle[c] ? 'given' : 'single')), dead: -1 };
  } else if (S.trace.length) {
    state = replay(S.pos);
  } else {
    state = { values: S.puzzle.slice(), kinds: S.puzzle.map((v) => (v ? 'given' : '')), dead: -1 };
  }
  const next = S.pos < S.trace.length ? S.trace[S.pos].cell : -1;
  for (let c = 0; c < N; c++) {
    const extra = [];
    if (c === next) extra.push('current');
    if (c === state.dead) extra.push('dead');
    const cands = state.values[c] ? null : candidates(state.values, c);
    drawCell(c, state.values[c], state.kinds[c], cands, extra, null);
  }
  const last = S.pos > 0 && S.trace.length ? S.trace[S.pos - 1] : null;
  $('step-count').textContent = last ? last.step : 0;
  $('step-text').textContent = S.trace.length
    ? `${S.pos} of ${S.trace.length} trace entries` + (last ? ` — depth ${last.depth}: ${last.name}${last.reason === 'dead end' ? '' : '=' + SYMBOLS[last.value - 1]} ${last.reason}` : '')
    : '';
}

function stopPlaying() {
  if (S.timer) { clearTimeout(S.timer); S.timer = null; }
  $('play').innerHTML = '&#x25B6;';
}

function delay() {
  // Slider 0..100 maps to 1500 ms .. 5 ms per step.
  const v = +$('speed').value;
  return Math.round(1500 * Math.pow(5 / 1500, v / 100));
}

function tick() {
  if (S.pos >= S.trace.length) { stopPlaying(); return; }
  S.pos++;
  renderWatch();
  S.timer = setTimeout(tick, delay());
}

function move(to) {
  stopPlaying();
  S.pos = Math.max(0, Math.min(S.trace.length, to));
  renderWatch();
}

async function runEngine() {
  stopPlaying();
  if (!S.line) { await load(); if (!S.line) return; }
  const engine = $('engine').value;
  const body = { puzzle: S.line, engine, ...boardVariant() };
  if (engine === 'moler') body.pick = $('pick').value;
  message('running ' + engine + '…');
  const r = await api('/api/solve', body);
  if (!r) return;
  S.engine = engine;
  S.trace = r.trace || [];
  S.solution = r.solution ? digitsOf(r.solution) : S.solution;
  S.pos = engine === 'fast' ? 0 : givenCount();
  const st = r.stats || {};
  const parts = Object.entries(st).map(([k, v]) => `${k.replace(/_/g, ' ')} ${v}`);
  $('engine-stats').textContent = `${r.status}` + (parts.length ? ` — ${parts.join(', ')}` : '') +
    (r.truncated ? ' (trace cut at ' + S.trace.length + ' entries)' : '') +
    ` — ${r.millis.toFixed(1)} ms`;
  message(engine === 'fast' ? 'press ▶| to show the solution' : 'press ▶ to play, or step with ◀ and ▶|');
  if (engine === 'fast') S.trace = [];
  renderWatch();
}

// ---------------------------------------------------------------- solving by hand

function newHand() {
  S.hand = {
    values: S.puzzle.slice(), marks: new Array(S.n * S.n).fill(null),
    selected: -1, history: [], hint: null, wrong: new Set(),
  };
}

function snapshot() {
  const h = S.hand;
  h.history.push({ values: h.values.slice(), marks: h.marks.map((m) => (m ? new Set(m) : null)) });
}

function handCands(c) {
  const h = S.hand;
  if (h.values[c]) return [h.values[c]];
  if (h.marks[c]) return Array.from(h.marks[c]).sort((a, b) => a - b);
  return candidates(h.values, c);
}

function conflicts(values) {
  const bad = new Set();
  for (const house of S.houses) {
    const at = new Map();
    for (const c of house) {
      const v = values[c];
      if (!v) continue;
      if (at.has(v)) { bad.add(c); bad.add(at.get(v)); } else at.set(v, c);
    }
  }
  return bad;
}

function renderHand() {
  const h = S.hand;
  const N = S.n * S.n;
  const bad = conflicts(h.values);
  const hint = h.hint;
  const hl = { cell: new Set(), fin: new Set(), house: new Set(), elim: new Map(), place: new Map() };
  if (hint) {
    hint.cells.forEach((c) => hl.cell.add(c));
    hint.fins.forEach((c) => hl.fin.add(c));
    hint.houses.forEach((c) => hl.house.add(c));
    for (const [c, d] of hint.eliminations) {
      if (!hl.elim.has(c)) hl.elim.set(c, new Set());
      hl.elim.get(c).add(d);
    }
    for (const [c, d] of hint.placements) hl.place.set(c, d);
  }
  const auto = $('auto').checked;
  for (let c = 0; c < N; c++) {
    const extra = [];
    if (c === h.selected) extra.push('selected');
    if (bad.has(c)) extra.push('conflict');
    if (h.wrong.has(c)) extra.push('wrong');
    if (hl.house.has(c)) extra.push('hl-house');
    if (hl.cell.has(c) || hl.place.has(c)) extra.push('hl-cell');
    if (hl.fin.has(c)) extra.push('hl-fin');
    const v = h.values[c];
    const kind = S.puzzle[c] ? 'given' : 'entry';
    let cands = null;
    if (!v && (h.marks[c] || auto)) cands = handCands(c);
    const marks = { manual: !!h.marks[c], elim: hl.elim.get(c), place: hl.place.get(c) };
    drawCell(c, v, kind, cands, extra, marks);
  }
  const filled = h.values.filter((v) => v).length;
  $('step-count').textContent = filled + ' / ' + N;
}

function render() {
  if (S.mode === 'watch') renderWatch(); else renderHand();
}

function selectCell(c) {
  if (S.mode !== 'hand') return;
  S.hand.selected = c;
  renderHand();
}

function enter(d) {
  const h = S.hand;
  const c = h.selected;
  if (c < 0 || S.puzzle[c]) return;
  snapshot();
  h.hint = null;
  $('apply-hint').disabled = true;
  if ($('pencil').checked && d) {
    if (!h.marks[c]) h.marks[c] = new Set($('auto').checked ? candidates(h.values, c) : []);
    if (h.marks[c].has(d)) h.marks[c].delete(d); else h.marks[c].add(d);
  } else {
    h.values[c] = d;
    h.wrong.delete(c);
  }
  renderHand();
}

document.addEventListener('keydown', (e) => {
  if (S.mode !== 'hand' || e.target.tagName === 'TEXTAREA' || e.target.tagName === 'INPUT' && e.target.type === 'text') return;
  const h = S.hand;
  const n = S.n;
  const moves = { ArrowUp: -n, ArrowDown: n, ArrowLeft: -1, ArrowRight: 1, k: -n, j: n, h: -1, l: 1 };
  if (e.key in moves && h.selected >= 0) {
    const c = h.selected + moves[e.key];
    if (c >= 0 && c < n * n) { h.selected = c; renderHand(); }
    e.preventDefault();
    return;
  }
  if (e.key === 'p') { $('pencil').checked = !$('pencil').checked; return; }
  if (e.key === 'Backspace' || e.key === 'Delete' || e.key === '0' || e.key === '.') { enter(0); e.preventDefault(); return; }
  const d = SYMBOLS.indexOf(e.key.toUpperCase()) + 1;
  if (d >= 1 && d <= n) { enter(d); e.preventDefault(); }
});

async function hint() {
  const h = S.hand;
  const N = S.n * S.n;
  const cands = [];
  for (let c = 0; c < N; c++) cands.push(handCands(c));
  const r = await api('/api/hint', { puzzle: lineOf(h.values), candidates: cands, ...boardVariant() });
  if (!r) return;
  if (r.status !== 'step') {
    h.hint = null;
    $('hint-text').textContent = r.status === 'solved' ? 'The puzzle is solved.'
      : r.status === 'multiple' ? 'No step: the entries and pencil marks allow more than one solution.'
      : 'No step: some entry or pencil mark is wrong (try Check).';
    renderHand();
    return;
  }
  h.hint = r.step;
  $('hint-text').textContent = `${r.step.name} (${r.step.rating.toFixed(1)}): ${r.step.text}`;
  $('apply-hint').disabled = false;
  message('');
  renderHand();
}

function applyHint() {
  const h = S.hand;
  if (!h.hint) return;
  snapshot();
  for (const [c, d] of h.hint.eliminations) {
    if (!h.marks[c]) h.marks[c] = new Set(candidates(h.values, c));
    h.marks[c].delete(d);
  }
  for (const [c, d] of h.hint.placements) { h.values[c] = d; h.marks[c] = null; }
  h.hint = null;
  $('apply-hint').disabled = true;
  renderHand();
}

function undo() {
  const h = S.hand;
  const prev = h.history.pop();
  if (!prev) return;
  h.values = prev.values;
  h.marks = prev.marks;
  h.hint = null;
  renderHand();
}

function check() {
  const h = S.hand;
  if (!S.solution) { message('this puzzle has no unique solution to check against', true); return; }
  h.wrong = new Set();
  h.values.forEach((v, c) => { if (v && v !== S.solution[c]) h.wrong.add(c); });
  const done = h.values.every((v, c) => v === S.solution[c]);
  message(done ? 'Solved!' : h.wrong.size ? `${h.wrong.size} wrong entr${h.wrong.size === 1 ? 'y' : 'ies'} (red)` : 'no mistakes so far');
  renderHand();
}

// ---------------------------------------------------------------- puzzle, rate, generate

async function load() {
  stopPlaying();
  const text = $('puzzle-text').value;
  const r = await api('/api/check', { puzzle: text, ...chosenVariant() });
  if (!r) return;
  setBoard(r);
  S.solution = r.solution && r.verdict === 'unique' ? digitsOf(r.solution) : null;
  S.trace = [];
  S.pos = 0;
  $('engine-stats').textContent = '';
  $('hint-text').textContent = '';
  newHand();
  const notes = { unique: 'one solution', multiple: 'several solutions', none: 'no solution', invalid: 'conflicting clues', timeout: 'undecided (time limit)' };
  message(`${r.shape}, ${S.puzzle.filter((v) => v).length} clues: ${notes[r.verdict] || r.verdict}` + (r.conflict ? ` (${r.conflict.text})` : ''));
  render();
}

async function rate() {
  const puzzle = S.line || $('puzzle-text').value;
  message('rating…');
  const r = await api('/api/rate', { puzzle, ...(S.line ? boardVariant() : chosenVariant()) });
  if (!r) return;
  const f = (x) => (x === null ? '—' : x.toFixed(1));
  const t = r.techniques.map((x) => `${x.name} ×${x.count}`).join(', ');
  message(`ER ${f(r.er)} / EP ${f(r.ep)} / ED ${f(r.ed)}; level ${r.level} (score ${r.score}): ${t}`);
}

async function generate() {
  const body = { symmetry: $('gen-symmetry').value, ...chosenVariant() };
  if ($('gen-level').value) body.level = $('gen-level').value;
  // The side of the board on screen: its boxes, or for a Latin square the 1xN shape
  // (a jigsaw's side comes from its map).
  const kind = $('variant').value;
  if (kind === 'latin') body.shape = `1x${S.n}`;
  else if (kind !== 'jigsaw' && S.n !== 9 && S.boxRows * S.boxCols === S.n) body.shape = `${S.boxRows}x${S.boxCols}`;
  message('generating…');
  const r = await api('/api/generate', body);
  if (!r) return;
  $('puzzle-text').value = r.puzzle;
  if (r.region_map) $('regions').value = r.region_map;
  await load();
  message(`generated (seed ${r.seed}, ${r.clues} clues${r.level ? ', ' + r.level : ''})`);
}

function setMode(mode) {
  stopPlaying();
  S.mode = mode;
  $('tab-watch').classList.toggle('active', mode === 'watch');
  $('tab-hand').classList.toggle('active', mode === 'hand');
  $('watch').hidden = mode !== 'watch';
  $('hand').hidden = mode !== 'hand';
  $('legend').hidden = mode !== 'watch';
  $('counter-label').textContent = mode === 'watch' ? 'step' : 'filled';
  render();
}

async function init() {
  $('load').onclick = load;
  $('run').onclick = runEngine;
  $('first').onclick = () => move(S.engine === 'fast' ? 0 : givenCount());
  $('back').onclick = () => move(S.pos - 1);
  $('forward').onclick = () => (S.engine === 'fast' && !S.trace.length ? (S.pos = 1, renderWatch()) : move(S.pos + 1));
  $('last').onclick = () => move(S.trace.length);
  $('play').onclick = () => {
    if (S.timer) { stopPlaying(); return; }
    if (!S.trace.length) return;
    $('play').textContent = '\u2016';
    S.timer = setTimeout(tick, 0);
  };
  $('engine').onchange = () => { $('pick').disabled = $('engine').value !== 'moler'; };
  $('tab-watch').onclick = () => setMode('watch');
  $('tab-hand').onclick = () => setMode('hand');
  $('hint').onclick = hint;
  $('apply-hint').onclick = applyHint;
  $('undo').onclick = undo;
  $('check').onclick = check;
  $('restart').onclick = () => { newHand(); renderHand(); };
  $('auto').onchange = () => renderHand();
  $('rate').onclick = rate;
  $('generate').onclick = generate;
  $('variant').onchange = showKind;
  const list = await api('/api/puzzles');
  if (list) {
    for (const p of list) {
      const o = document.createElement('option');
      o.value = p.puzzle;
      o.textContent = p.name;
      o.title = p.note;
      $('builtin').appendChild(o);
    }
  }
  $('builtin').onchange = () => {
    if (!$('builtin').value) return;
    // The built-in puzzles are standard sudoku.
    showVariant('standard');
    $('puzzle-text').value = $('builtin').value;
    load();
  };
  await load();
  document.body.dataset.ready = '1';
}

init();
