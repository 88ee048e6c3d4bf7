// The studio's page: a board editor on every grid (squares, hexagons, triangles, and boxes
// of layers of cubes, triangular prisms, balls, rhombic dodecahedra, tetrahedra), the pieces of the catalog and one's own, and the runs of the server (a
// first solution, all of them, counts) with their progress, Cancel and Resume, the
// solutions paged, and the exports. Every request carries the run's token; the server
// checks each design it is sent.
"use strict";

const TOKEN = document.querySelector('meta[name="studio-token"]').content;
const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";

// The grids and the drawings of their layers, as the server describes them
// (excover.studio.page_grids, sent with the catalog): by grid, whether it is drawn as a
// box of layers (solid), its layers' drawing, the spots that may hold a cell (mask), its
// shift steps, whether its drawings turn, the longest side of a board, BurrTools' number,
// its words in the grid menu (label; none for the workshop's voxels), the width, height
// and layers of a new board (frame), whether the workshop plays puzzles on it (plays),
// the default gap of a solution's STL file (stl_gap, mm; null: its pieces touch); by
// drawing, where the cells of a frame go and their polygons. Filled by start().
const GRIDS = {};
const DRAWINGS = {};

// Whether `grid` is drawn as a box of layers (a solid grid's, or the workshop's voxels).
function layered(grid) {
  return GRIDS[grid].solid;
}

const state = {
  grid: null,         // the grid of the design (the server's first grid once started)
  families: [],       // [{grid, name, pieces: [{name, cells}]}] from the server, and the page's own
  pieces: {},         // grid -> Map(name -> {cells, count, symmetry})
  job: null,          // {id, task, events, ...} of the run going on (Follower)
  listing: null,      // {id, total, page, chosen, entries} of the solutions shown
  estimate: null,     // the estimate of the count going on
  leftSince: 0,       // when the last advance (and its time left) came, performance.now()
  shownFor: null,     // the design (JSON) whose result the result panel shows
  lastCount: null,    // the task of the last count, for Resume
};

// ----- talking to the server -----

async function api(method, path, body, raw) {
  const options = { method, headers: { "X-Studio-Token": TOKEN } };
  if (body !== undefined) {
    options.body = raw ? body : JSON.stringify(body);
    options.headers["Content-Type"] = !raw ? "application/json" : typeof body === "string" ? "text/plain" : "application/octet-stream";
  }
  const response = await fetch(path, options);
  const type = response.headers.get("Content-Type") || "";
  let data;
  if (type.includes("json")) data = await response.json();
  else if (type.includes("zip") || type.includes("stl")) data = await response.blob();
  else data = await response.text();
  if (!response.ok) {
    throw Object.assign(new Error("request failed"), { info: data.error || { message: String(data) } });
  }
  return data;
}

function withToken(path) {
  return `${path}${path.includes("?") ? "&" : "?"}token=${encodeURIComponent(TOKEN)}`;
}

// The page tells the server that it still follows run `id`, at most every FOLLOW_MS of
// the events it reads: the server cancels a run that nobody follows for a minute (a tab
// the browser froze, a client that stopped reading), so that it holds no place for days.
const FOLLOW_MS = 5000;

// How a panel follows its runs of the server (the Solve panel's, the design search's,
// the assembler's), written once so that they all start, end and cancel alike.
// `holder.job` is the run going on, {id, events, followed} and what the panel adds, or
// null; `statusId` the element where the panel says how the run goes; `running(on)`
// sets the panel's buttons; `handle(event)` reads each event the server sends.
class Follower {
  constructor(holder, statusId, running, handle) {
    Object.assign(this, { holder, statusId, running, handle });
  }

  // Follows the run `id` the server just made, `more` kept in `holder.job`.
  start(id, more = {}) {
    const events = new EventSource(withToken(`api/jobs/${id}/events`));
    this.holder.job = { ...more, id, events, followed: performance.now() };
    this.running(true);
    $(this.statusId).textContent = "starting…";
    events.onmessage = (message) => {
      this.alive(id);
      this.handle(JSON.parse(message.data));
    };
    events.onerror = () => {
      if (this.holder.job && this.holder.job.id === id) {
        this.finish();
        $(this.statusId).textContent = "Stopped: the studio did not answer (is it still running?)";
      }
    };
  }

  // Tells the server that the page still follows run `id`, at most every FOLLOW_MS.
  alive(id) {
    const job = this.holder.job;
    if (!job || job.id !== id || performance.now() - job.followed < FOLLOW_MS) return;
    job.followed = performance.now();
    fetch(`api/jobs/${id}/alive`, { method: "POST", headers: { "X-Studio-Token": TOKEN } }).catch(() => {});
  }

  // The run has ended (or the page stops following it): its stream closes.
  finish() {
    if (this.holder.job) this.holder.job.events.close();
    this.holder.job = null;
    this.running(false);
  }

  // Asks the server to cancel the run going on; its end comes as an event.
  async cancel() {
    const job = this.holder.job;
    if (!job) return;
    $(this.statusId).textContent = "cancelling…";
    try {
      await api("POST", `api/jobs/${job.id}/cancel`);
    } catch (error) {
      if (this.holder.job === job) throw error; // else the run ended meanwhile: nothing to stop
    }
  }
}

function showError(info) {
  const where = info.line ? `line ${info.line}, column ${info.column}: ` : info.where ? `${info.where}: ` : "";
  $("error-message").textContent = where + info.message;
  $("error-report").textContent = info.report || "";
  $("error").hidden = false;
}

function clearError() {
  $("error").hidden = true;
}

async function guarded(action) {
  clearError();
  try {
    await action();
  } catch (error) {
    showError(error.info || { message: String(error) });
  }
}

function save(blob, name) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = name;
  link.click();
}

// ----- the geometry of the grids -----

// How a layer of `grid` is drawn (a key of DRAWINGS): triangles on the prism grid, discs
// on the packings of balls and of rhombic dodecahedra, squares (voxels) on the cube and
// tetraocta grids, a planar grid's own cells.
function layerGrid(grid) {
  return GRIDS[grid].layer;
}

// Whether cell (x, y) (y: the row from the top) of layer z of a frame `height` rows high
// may hold a cell of `grid` (excover.studio.cells.on_grid, sent as the spots of a period):
// on the packings a square of the checkerboard, on the tetraocta grid one of BurrTools'
// voxels that is a cell.
function onGrid(grid, x, y, z, height) {
  const mask = GRIDS[grid].mask;
  if (!mask) return true;
  const period = mask.length, up = height - 1 - y;
  return mask[z % period][up % period][x % period];
}

// The layers with every cell off the grid made empty, each cell a state: 0 empty, 1
// filled, 2 variable (a voxel of a BurrTools result that may stay empty); true and
// false are read as 1 and 0.
function masked(grid, layers) {
  return layers.map((rows, z) => rows.map((row, y) => row.map((on, x) =>
    (onGrid(grid, x, y, z, rows.length) ? Number(on === true ? 1 : on || 0) : 0))));
}

// The outline of cell (x, y) of a frame (y: the row from the top) in the drawing
// `drawing` (a key of DRAWINGS), for cells of about `size` pixels: the drawing's polygon
// (of the two, up and down, on alternating grids: triangles point up where x + y is even)
// at the cell's place (hexagons sit in offset rows, odd rows shifted right by half a
// hexagon), one pixel in from the frame's corner.
function outline(drawing, x, y, size) {
  const { advance, stagger, alternating, polygons } = DRAWINGS[drawing];
  const left = x * advance[0] + (y % 2) * stagger, top = y * advance[1];
  const polygon = polygons[alternating ? (x + y) % 2 : 0];
  return polygon.map(([px, py]) => [(left + px) * size + 1, (top + py) * size + 1]);
}

// The pixel size of a frame of `width` x `height` cells in the drawing `drawing`.
function extent(drawing, width, height, size) {
  const { advance, stagger, box } = DRAWINGS[drawing];
  return [((width - 1) * advance[0] + (height > 1 ? stagger : 0) + box[0]) * size + 2,
    ((height - 1) * advance[1] + box[1]) * size + 2];
}

function points(corners) {
  return corners.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" ");
}

// A small picture of a layer (rows of "*" and "."), as SVG text.
function layerSvg(grid, rows, size, fill) {
  const [w, h] = extent(grid, rows[0].length, rows.length, size);
  const parts = [];
  rows.forEach((row, y) => [...row].forEach((c, x) => {
    if (c === "*") parts.push(`<polygon points="${points(outline(grid, x, y, size))}"/>`);
  }));
  return `<svg xmlns="${SVG}" width="${w.toFixed(0)}" height="${h.toFixed(0)}" fill="${fill}" stroke="white" stroke-width="0.8">${parts.join("")}</svg>`;
}

// A picture of a piece: its layers side by side on the solid grids, bottom first.
function pieceSvg(grid, cells, size) {
  const layers = layered(grid) ? cells : [cells];
  const flat = layerGrid(grid);
  if (layers.length === 1) return layerSvg(flat, layers[0], size, "#5d6f99");
  const [width, height] = extent(flat, layers[0][0].length, layers[0].length, size), gap = 4;
  const parts = layers.map((rows, z) => {
    const inner = layerSvg(flat, rows, size, "#5d6f99").replace(/^<svg[^>]*>|<\/svg>$/g, "");
    return `<g transform="translate(${z * (width + gap)},0)"><rect width="${width}" height="${height}" fill="#e4e7ee"/>${inner}</g>`;
  });
  const total = layers.length * (width + gap) - gap;
  return `<svg xmlns="${SVG}" width="${total}" height="${height}" fill="#5d6f99" stroke="white" stroke-width="0.8">${parts.join("")}</svg>`;
}

// ----- an editor of drawings: the board, one's own piece, a BurrTools shape -----

// The states a cell of a drawing takes, as the design and BurrTools write them.
const STATE_CHARS = [".", "*", "+"];

class Editor {
  // `element`: where the cells go; `size`: pixels a cell; `changed`: called after edits.
  // A cell is 0 (empty), 1 (filled) or 2 (variable); a click sets the cells it paints
  // to `tool` (1 unless a tool is chosen), or empties them when the first one holds it.
  constructor(element, size, changed) {
    this.element = element;
    this.size = size;
    this.changed = changed;
    this.grid = Object.keys(GRIDS)[0]; // the server's first grid (start() reads them first)
    this.layers = [[[1]]]; // bottom first; each rows (top first) of cell states
    this.layer = 0;
    this.tool = 1;
    this.undo = [];
    this.painting = null; // the state a drag gives the cells it passes over
    element.addEventListener("pointerdown", (event) => {
      const cell = event.target.closest(".cell");
      if (!cell) return;
      this.remember();
      const [x, y] = [Number(cell.dataset.x), Number(cell.dataset.y)];
      this.painting = this.layers[this.layer][y][x] === this.tool ? 0 : this.tool;
      this.paint(cell);
      event.preventDefault();
    });
    element.addEventListener("pointerover", (event) => {
      const cell = event.target.closest(".cell");
      if (cell && this.painting !== null && event.buttons) this.paint(cell);
    });
    document.addEventListener("pointerup", () => { this.painting = null; });
  }

  get width() { return this.layers[0][0].length; }
  get height() { return this.layers[0].length; }
  get depth() { return this.layers.length; }

  remember() {
    this.undo.push({ grid: this.grid, layers: this.layers.map((l) => l.map((r) => r.slice())), layer: this.layer });
    if (this.undo.length > 200) this.undo.shift();
    this.changed();
  }

  // A new drawing (a list of layers of rows of cell states, or booleans) on `grid`, its
  // cells off the grid dropped; `keep`: undoable.
  set(grid, layers, keep) {
    if (keep) this.remember();
    this.grid = grid;
    this.layers = masked(grid, layers);
    this.layer = Math.max(0, Math.min(this.layer, layers.length - 1));
    this.draw();
    this.changed();
  }

  back() {
    const earlier = this.undo.pop();
    if (!earlier) return;
    this.grid = earlier.grid;
    this.layers = earlier.layers;
    this.layer = Math.min(earlier.layer, this.layers.length - 1);
    this.draw();
    this.changed();
  }

  paint(cell) {
    const [x, y] = [Number(cell.dataset.x), Number(cell.dataset.y)];
    const rows = this.layers[this.layer];
    if (rows[y][x] === this.painting) return;
    rows[y][x] = this.painting;
    cell.setAttribute("class", Editor.cellClass(this.painting));
    this.changed();
  }

  static cellClass(value) {
    return value === 2 ? "cell variable" : value ? "cell on" : "cell";
  }

  draw() {
    const grid = layerGrid(this.grid);
    const [w, h] = extent(grid, this.width, this.height, this.size);
    const svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("width", w.toFixed(0));
    svg.setAttribute("height", h.toFixed(0));
    this.layers[this.layer].forEach((row, y) => row.forEach((on, x) => {
      if (!onGrid(this.grid, x, y, this.layer, this.height)) return;
      const cell = document.createElementNS(SVG, "polygon");
      cell.setAttribute("points", points(outline(grid, x, y, this.size)));
      cell.setAttribute("class", Editor.cellClass(on));
      cell.dataset.x = x;
      cell.dataset.y = y;
      svg.appendChild(cell);
    }));
    this.element.replaceChildren(svg);
  }

  // The drawing as the design writes it: rows of "*", "+" and "." (layers of them on the
  // solid grids).
  drawing() {
    const layers = this.layers.map((rows) => rows.map((row) => row.map((on) => STATE_CHARS[on]).join("")));
    return layered(this.grid) ? layers : layers[0];
  }

  cells() {
    return this.layers.reduce((n, rows) => n + rows.reduce((m, row) => m + row.filter(Boolean).length, 0), 0);
  }

  // The same cells in a box of `width` x `height` x `depth` (those outside it dropped,
  // the bottom-left corner kept where it is).
  resize(width, height, depth) {
    const old = this.layers, h0 = this.height;
    this.set(this.grid, Array.from({ length: depth }, (_, z) => Array.from({ length: height }, (_, y) =>
      Array.from({ length: width }, (_, x) => {
        const row = h0 - height + y; // rows counted from the bottom stay put
        return (old[z] && old[z][row] && old[z][row][x]) || 0;
      }))), true);
  }

  // Every cell of the box set to `value`.
  fill(value) {
    this.set(this.grid, this.layers.map((l) => l.map((r) => r.map(() => value))), true);
  }

  // The cell at (x, y, z) with y counted from the bottom, and the drawing rebuilt from
  // a function of those coordinates over a box of the given size.
  at(x, y, z) {
    return this.layers[z][this.height - 1 - y][x];
  }

  rebuilt(width, height, depth, value) {
    this.set(this.grid, Array.from({ length: depth }, (_, z) => Array.from({ length: height }, (_, row) =>
      Array.from({ length: width }, (_, x) => value(x, height - 1 - row, z)))), true);
  }

  // Mirrored across the middle of the box along `axis` (0: x, 1: y, 2: z).
  mirror(axis) {
    const size = [this.width, this.height, this.depth];
    this.rebuilt(...size, (x, y, z) => {
      const v = [x, y, z];
      v[axis] = size[axis] - 1 - v[axis];
      return this.at(...v);
    });
  }

  // Turned a quarter about `axis` (0: x, 1: y, 2: z), the box turned with it.
  rotate(axis) {
    const [w, h, d] = [this.width, this.height, this.depth];
    if (axis === 2) this.rebuilt(h, w, d, (x, y, z) => this.at(y, h - 1 - x, z));
    else if (axis === 0) this.rebuilt(w, d, h, (x, y, z) => this.at(x, z, d - 1 - y));
    else this.rebuilt(d, h, w, (x, y, z) => this.at(w - 1 - z, y, x));
  }

  // Shifted by `step` cells along `axis` (y up, z up), the cells that leave the box coming
  // back on the other side (nothing is lost).
  shift(axis, step) {
    const size = [this.width, this.height, this.depth];
    this.rebuilt(...size, (x, y, z) => {
      const v = [x, y, z];
      v[axis] = (((v[axis] - step) % size[axis]) + size[axis]) % size[axis];
      return this.at(...v);
    });
  }
}

// The tools of an editor (`editor`, an Editor), in rows: the box's size and Resize, the
// state a click gives (when `states`), Fill, Clear and Undo, the layers (on the solid
// grids), and mirror, turn and shift. Its elements' ids start with `prefix`; `options`:
// {size: the size row, states: the tool row, basics: Fill/Clear/Undo, layers: the layer
// row, transforms: the mirror/turn/shift row, most: the longest side}. Returns the
// element, whose `update()` shows the editor's size, layer and undo.
function editorTools(editor, prefix, options) {
  const tools = document.createElement("div");
  tools.className = "editor-tools";
  const rows = [];
  if (options.size) {
    rows.push(`<div class="row"><label>x <input id="${prefix}-x" type="number" min="1" max="${options.most}"></label>
      <label>y <input id="${prefix}-y" type="number" min="1" max="${options.most}"></label>
      <label class="solid-only">z <input id="${prefix}-z" type="number" min="1" max="${options.most}"></label>
      <button id="${prefix}-resize" title="keep the cells, change the size of the box">Resize</button></div>`);
  }
  if (options.states) {
    rows.push(`<div class="row" role="radiogroup" aria-label="a click makes a cell"><span>a click makes</span>
      <label><input type="radio" name="${prefix}-tool" value="1" checked> <span class="key filled"></span> filled</label>
      <label><input type="radio" name="${prefix}-tool" value="2"> <span class="key variable"></span> variable</label>
      <label><input type="radio" name="${prefix}-tool" value="0"> empty</label></div>`);
  }
  if (options.basics) {
    rows.push(`<div class="row"><button id="${prefix}-fill">Fill</button><button id="${prefix}-clear">Clear</button>
      <button id="${prefix}-undo" disabled>Undo</button></div>`);
  }
  if (options.layers) {
    rows.push(`<div class="row solid-only"><button id="${prefix}-down" title="the layer below">&#9660;</button>
      <span>layer <select id="${prefix}-layer"></select> <span id="${prefix}-layers"></span></span>
      <button id="${prefix}-up" title="the layer above">&#9650;</button></div>`);
  }
  if (options.transforms) {
    const axes = ["x", "y", "z"];
    const turn = axes.map((a, k) => `<button data-rotate="${k}" class="${k < 2 ? "solid-only" : ""}" title="a quarter turn about ${a}">&#8635;${a}</button>`).join("");
    const flip = axes.map((a, k) => `<button data-mirror="${k}" class="${k === 2 ? "solid-only" : ""}" title="mirrored along ${a}">&#8646;${a}</button>`).join("");
    const move = axes.map((a, k) => `<button data-shift="${k}" data-sign="-1" class="${k === 2 ? "solid-only" : ""}" title="shift along -${a}">${a}&#8722;</button>`
      + `<button data-shift="${k}" data-sign="1" class="${k === 2 ? "solid-only" : ""}" title="shift along +${a}">${a}+</button>`).join("");
    rows.push(`<div class="row transforms" id="${prefix}-transforms"><span>turn</span>${turn}<span>mirror</span>${flip}<span>shift</span>${move}</div>`);
  }
  tools.innerHTML = rows.join("");
  const get = (id) => tools.querySelector(`#${prefix}-${id}`);
  const sizes = () => ["x", "y", "z"].map((a, k) => {
    const input = get(a);
    const fallback = [editor.width, editor.height, editor.depth][k];
    if (k === 2 && !layered(editor.grid)) return 1;
    return Math.max(1, Math.min(options.most, Math.floor(Number(input.value)) || fallback));
  });
  if (options.size) get("resize").onclick = () => editor.resize(...sizes());
  if (options.states) {
    for (const radio of tools.querySelectorAll(`input[name="${prefix}-tool"]`)) {
      radio.onchange = () => { editor.tool = Number(radio.value); };
    }
  }
  if (options.basics) {
    get("fill").onclick = () => editor.fill(editor.tool || 1);
    get("clear").onclick = () => editor.fill(0);
    get("undo").onclick = () => editor.back();
  }
  const showLayer = (z) => {
    editor.layer = Math.max(0, Math.min(editor.depth - 1, z));
    editor.draw();
    tools.update();
  };
  if (options.layers) {
    get("layer").onchange = () => showLayer(Number(get("layer").value));
    get("up").onclick = () => showLayer(editor.layer + 1);
    get("down").onclick = () => showLayer(editor.layer - 1);
  }
  if (options.transforms) {
    // the steps a drawing shifts by along x, y (the rows) and z (the layers), so that a
    // cell lands on a cell of the same kind (a hexagon's row parity, a triangle's
    // pointing, a ball's checkerboard colour, a tetraocta voxel's block)
    const step = (axis) => GRIDS[editor.grid].shift[axis];
    for (const button of tools.querySelectorAll("[data-rotate]")) button.onclick = () => editor.rotate(Number(button.dataset.rotate));
    for (const button of tools.querySelectorAll("[data-mirror]")) button.onclick = () => editor.mirror(Number(button.dataset.mirror));
    for (const button of tools.querySelectorAll("[data-shift]")) {
      button.onclick = () => editor.shift(Number(button.dataset.shift), Number(button.dataset.sign) * step(Number(button.dataset.shift)));
    }
  }
  tools.update = () => {
    tools.dataset.layered = layered(editor.grid);
    tools.dataset.turning = GRIDS[editor.grid].turning; // squares, cubes, voxels
    if (options.size) {
      get("x").value = editor.width;
      get("y").value = editor.height;
      get("z").value = editor.depth;
    }
    if (options.basics) get("undo").disabled = editor.undo.length === 0;
    if (options.layers) {
      layerChoices(get("layer"), editor.depth, editor.layer);
      get("layers").textContent = `of ${editor.depth} (1: the bottom)`;
    }
  };
  return tools;
}

function frame(width, height, depth, value) {
  return Array.from({ length: depth }, () => Array.from({ length: height }, () => Array(width).fill(value)));
}

function parsed(grid, cells) {
  const layers = layered(grid) ? cells : [cells];
  return layers.map((rows) => rows.map((row) => [...row].map((c) => c === "*")));
}

let board = null; // the board's Editor
let drawn = null; // the Editor of one's own piece

function sizeInputs() {
  const clamp = (v, most) => Math.max(1, Math.min(most, Math.floor(Number(v)) || 1));
  const most = GRIDS[state.grid].max_side;
  return [clamp($("board-width").value, most), clamp($("board-height").value, most),
    layered(state.grid) ? clamp($("board-depth").value, most) : 1];
}

function layerChoices(select, count, chosen) {
  select.replaceChildren();
  for (let z = 0; z < count; z++) {
    const option = document.createElement("option");
    option.value = z;
    option.textContent = z + 1;
    select.appendChild(option);
  }
  select.value = chosen;
}

function boardChanged() {
  if (!board) return;
  if (boardTools) boardTools.update();
  $("undo").disabled = board.undo.length === 0;
  $("board-width").value = board.width;
  $("board-height").value = board.height;
  $("board-depth").value = board.depth;
  layerChoices($("layer"), board.depth, board.layer);
  $("layer-count").textContent = `of ${board.depth} (1: the bottom)`;
  const preview = $("board-layers");
  preview.replaceChildren();
  if (layered(board.grid)) {
    const rows = board.drawing();
    preview.innerHTML = rows.map((layer) => layerSvg(layerGrid(board.grid), layer, 8, "#7b8bb0")).join("");
    isometricSoon();
  }
  summarize();
}

// The isometric view of the box, drawn by the server a moment after the last edit.
let isometricTimer = null;

function isometricSoon() {
  clearTimeout(isometricTimer);
  isometricTimer = setTimeout(async () => {
    const grid = board.grid;
    if (!layered(grid) || !board.cells()) {
      $("board-isometric").replaceChildren();
      return;
    }
    try {
      const svg = await api("POST", "api/isometric", { grid, board: board.drawing(), pieces: [] });
      if (board.grid === grid) $("board-isometric").innerHTML = svg;
    } catch (error) {
      $("board-isometric").textContent = ""; // a view, not worth an error message
    }
  }, 150);
}

// The size inputs set to the frame of a new board on `grid` (the server's).
function frameInputs(grid) {
  const [w, h, d] = GRIDS[grid].frame;
  $("board-width").value = w;
  $("board-height").value = h;
  $("board-depth").value = d;
}

function setGrid(grid) {
  state.grid = grid;
  document.body.dataset.grid = grid;
  document.body.dataset.layered = layered(grid);
  $("grid").value = grid;
}

function newBoard(grid) {
  setGrid(grid);
  const [w, h, d] = sizeInputs();
  board.set(grid, frame(w, h, d, true), true);
}

function showLayer(z) {
  board.layer = Math.max(0, Math.min(board.depth - 1, z));
  board.draw();
  boardChanged();
}

// ----- the pieces -----

function isUsed(count) {
  return count !== "" && count !== "0" && count !== "0..0";
}

function symmetry() {
  return $("reflections").checked ? "all" : "rotations";
}

function piecesOf(grid) {
  if (!state.pieces[grid]) state.pieces[grid] = new Map();
  return state.pieces[grid];
}

function addPiece(grid, name, cells, count, sym) {
  piecesOf(grid).set(name, { cells, count: count || "0", symmetry: sym || symmetry() });
}

function familiesOf(grid) {
  return state.families.filter((f) => f.grid === grid);
}

function drawPieces() {
  const family = familiesOf(state.grid).find((f) => f.name === $("family").value);
  const element = $("pieces");
  element.replaceChildren();
  if (!family) return;
  for (const { name } of family.pieces) {
    const piece = piecesOf(state.grid).get(name);
    const box = document.createElement("div");
    box.className = isUsed(piece.count) ? "piece used" : "piece";
    box.dataset.name = name;
    box.innerHTML = pieceSvg(state.grid, piece.cells, layered(state.grid) ? 8 : 10) + `<span class="name">${name}</span>`;
    const input = document.createElement("input");
    input.value = piece.count;
    input.title = "copies: a number, LO..HI, or any";
    input.addEventListener("change", () => {
      piece.count = input.value.trim() || "0";
      box.className = isUsed(piece.count) ? "piece used" : "piece";
      summarize();
    });
    box.querySelector("svg").addEventListener("click", () => {
      piece.count = isUsed(piece.count) ? "0" : "1";
      input.value = piece.count;
      box.className = isUsed(piece.count) ? "piece used" : "piece";
      summarize();
    });
    box.appendChild(input);
    element.appendChild(box);
  }
}

function drawFamilies(selected) {
  const select = $("family");
  select.replaceChildren();
  for (const family of familiesOf(state.grid)) {
    const option = document.createElement("option");
    option.value = option.textContent = family.name;
    select.appendChild(option);
  }
  // the family the server marks to show first on the grid, else the grid's first one
  const first = familiesOf(state.grid).find((f) => f.first);
  select.value = selected || (first ? first.name : "");
  if (!select.value && select.options.length) select.selectedIndex = 0;
  drawPieces();
}

function usedPieces() {
  const used = [];
  for (const [name, piece] of piecesOf(state.grid)) {
    if (isUsed(piece.count)) used.push({ name, cells: piece.cells, count: piece.count, symmetry: piece.symmetry });
  }
  return used;
}

function design() {
  return { grid: state.grid, board: board.drawing(), pieces: usedPieces() };
}

function cellCount(grid, cells) {
  const layers = layered(grid) ? cells : [cells];
  return layers.reduce((n, rows) => n + rows.reduce((m, row) => m + [...row].filter((c) => c === "*").length, 0), 0);
}

function summarize() {
  const pieces = usedPieces();
  const exact = pieces.every((p) => /^\d+$/.test(p.count));
  const area = pieces.reduce((n, p) => n + cellCount(state.grid, p.cells) * (exact ? Number(p.count) : 0), 0);
  const names = pieces.length === 1 ? "1 piece" : `${pieces.length} pieces`;
  const covered = exact ? `, ${area} cells in all` : "";
  $("summary").textContent = `Board: ${board.cells()} cells. ${names} chosen${covered}.`;
}

// Put a family of the page's own (one's pieces, a file's) on the grid, with these pieces.
function ownFamily(grid, name, pieces) {
  let family = state.families.find((f) => f.grid === grid && f.name === name);
  if (!family) {
    family = { grid, name, pieces: [] };
    state.families.push(family);
  }
  for (const piece of pieces) {
    if (!family.pieces.some((p) => p.name === piece.name)) family.pieces.push(piece);
  }
}

function loadDesign(loaded, name) {
  const grid = loaded.grid || Object.keys(GRIDS)[0];
  setGrid(grid);
  const pieces = piecesOf(grid);
  for (const piece of pieces.values()) piece.count = "0";
  const extra = [];
  for (const piece of loaded.pieces) {
    const same = pieces.get(piece.name);
    if (same && JSON.stringify(same.cells) === JSON.stringify(piece.cells)) {
      Object.assign(same, { count: piece.count, symmetry: piece.symmetry });
    } else {
      addPiece(grid, piece.name, piece.cells, piece.count, piece.symmetry);
      extra.push({ name: piece.name, cells: piece.cells });
    }
  }
  state.families = state.families.filter((f) => !(f.grid === grid && f.name === "from the file"));
  if (extra.length) ownFamily(grid, "from the file", extra);
  $("reflections").checked = loaded.pieces.every((p) => p.symmetry === "all");
  board.layer = 0;
  board.set(grid, parsed(grid, loaded.board), true);
  drawFamilies(extra.length ? "from the file" : undefined);
  drawn.set(grid, frame(4, 4, layered(grid) ? 3 : 1, false), false);
  $("file-name").textContent = name || "";
}

// ----- one's own piece -----

function pieceChanged() {
  if (!drawn) return;
  layerChoices($("piece-layer"), drawn.depth, drawn.layer);
  if (pieceTools) pieceTools.update();
}

function addOwnPiece() {
  const name = $("piece-name").value.trim();
  if (!drawn.cells()) throw Object.assign(new Error(), { info: { message: "draw some cells first" } });
  if (piecesOf(state.grid).has(name)) {
    throw Object.assign(new Error(), { info: { where: `piece ${name}`, message: "a piece of this grid already has this name" } });
  }
  const cells = drawn.drawing();
  addPiece(state.grid, name, cells, "1");
  ownFamily(state.grid, "my pieces", [{ name, cells }]);
  drawFamilies("my pieces");
  summarize();
  const number = name.match(/^(.*?)(\d+)$/);
  $("piece-name").value = number ? number[1] + (Number(number[2]) + 1) : name + "2";
}

// ----- runs -----

function running(on) {
  for (const id of ["solve-first", "solve-all", "count", "count-symmetry"]) $(id).disabled = on;
  $("cancel").disabled = !on;
  if (on) $("resume").hidden = true;
}

// The Solve panel's runs: a first solution, all of them, a count.
const solveRuns = new Follower(state, "status", running, handle);

function settings(task) {
  const result = {};
  const seconds = Number($("seconds").value);
  if ($("seconds").value && seconds > 0) result.seconds = seconds;
  if (task === "all") {
    result.limit = Math.max(1, Math.min(100000, Math.floor(Number($("limit").value)) || 1000));
    result.up_to_symmetry = $("one-per-class").checked;
  }
  return result;
}

// The result panel shows the result of one design: `state.shownFor` is that design (as
// JSON), and any edit (a cell, a piece, its copies, the grid, a file opened) that makes
// the design another one clears the panel, so that no count or picture stands for a
// design it was not made of. A run keeps the design it started with: a result that comes
// back after an edit is not shown.
function designKey() {
  return JSON.stringify(design());
}

function clearResult() {
  state.shownFor = null;
  $("result-count").textContent = "";
  $("result-count").removeAttribute("data-count");
  $("solution-caption").textContent = "";
  $("solution").replaceChildren();
  $("gallery").replaceChildren();
  $("downloads").hidden = $("pager").hidden = $("views").hidden = $("resume").hidden = true;
  state.listing = null;
}

function checkFresh() {
  if (state.shownFor !== null && state.shownFor !== undefined && designKey() !== state.shownFor) {
    clearResult();
    if (!state.job) $("status").textContent = "The design changed: run again for its result.";
  }
}

for (const kind of ["change", "input", "click", "pointerup", "keyup"]) {
  document.addEventListener(kind, () => setTimeout(checkFresh, 0), true);
}

async function run(task) {
  const key = designKey();
  const { id } = await api("POST", "api/jobs", { design: design(), task, settings: settings(task) });
  clearResult();
  state.shownFor = key;
  if (task === "first" || task === "all") {
    $("solution-caption").textContent = "";
    $("solution").replaceChildren();
    $("gallery").replaceChildren();
    $("downloads").hidden = $("pager").hidden = $("views").hidden = true;
    state.listing = { id, grid: state.grid, first: task === "first", total: 0, page: 0, chosen: 0, entries: [] };
  } else {
    $("result-count").textContent = "";
    $("result-count").removeAttribute("data-count");
    state.lastCount = task;
  }
  state.estimate = null;
  solveRuns.start(id, { task, saved: false, key });
}

function duration(seconds) {
  if (!Number.isFinite(seconds)) return "a very long time";
  if (seconds < 1) return "less than a second";
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, "0")} s`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ${String(Math.floor(s % 3600 / 60)).padStart(2, "0")} min`;
  if (s < 86400 * 365) return `${Math.floor(s / 86400)} days ${Math.floor(s % 86400 / 3600)} h`;
  return `${(s / 86400 / 365).toPrecision(3)} years`;
}

function big(number) {
  return Number(number).toLocaleString("en-US", { maximumSignificantDigits: 3 });
}

// The time left in a count, as the server's model of progress says it (the same as the
// command line's bar: excover.parallel.progress.Meter), counted down since the event;
// null while it is not known.
function timeLeft(event) {
  if (event.left == null) return null;
  return Math.max(event.left - (performance.now() - state.leftSince) / 1000, 0);
}

function handle(event) {
  const progress = $("progress");
  const seconds = `${event.elapsed.toFixed(1)} s`;
  if (event.type === "progress") {
    progress.max = event.total;
    progress.value = event.done;
    $("status").textContent = `placing the pieces: ${event.done} of ${event.total} orientations (${seconds})`;
  } else if (event.type === "solving") {
    progress.removeAttribute("value");
    state.what = `${event.what}, ${event.placements} placements`;
    $("status").textContent = `${state.what}… (${seconds})`;
  } else if (event.type === "estimate") {
    state.estimate = event;
    const solutions = event.solutions == null ? "more than 10^308" : `about ${big(event.solutions)}`;
    state.what = `counting: excover estimates ${solutions} solutions, ${duration(event.seconds)} of search`;
    $("status").textContent = `${state.what} (${seconds})`;
  } else if (event.type === "advance") {
    state.leftSince = performance.now();
    progress.max = 1;
    if (event.fraction == null) progress.removeAttribute("value");
    else progress.value = event.fraction;
    state.job.saved = Boolean(event.saved);
    const left = timeLeft(event);
    const share = event.fraction == null ? "counting" : `counting: ${(100 * event.fraction).toFixed(1)}%`;
    const parts = [share, `${BigInt(event.count).toLocaleString("en-US")} solutions so far`, `${seconds} spent`];
    if (left !== null) parts.push(`about ${duration(left)} left`);
    if (event.total) parts.push(`${event.done} of ${event.total} subproblems`);
    if (event.resumed) parts.push(`resumed with ${event.resumed} counted earlier`);
    state.what = null;
    $("status").textContent = parts.join(" · ");
  } else if (event.type === "solutions") {
    const limit = settings(state.job.task).limit || 1;
    progress.max = 1;
    progress.value = Math.min(event.found / limit, 1);
    state.what = null;
    $("status").textContent = `${event.found.toLocaleString("en-US")} solutions found (${seconds})`;
  } else if (event.type === "tick") {
    if (state.what) $("status").textContent = `${state.what}… (${seconds})`;
  } else {
    const job = state.job;
    solveRuns.finish();
    state.what = null;
    progress.max = 1;
    progress.value = event.type === "result" ? 1 : 0;
    if (event.type === "result" && job && job.key !== designKey()) {
      $("status").textContent = `Done in ${seconds}, for the design as it was: it changed since, run again for its result.`;
    } else if (event.type === "result") guarded(() => showResult(event, seconds));
    else if (event.type === "cancelled") {
      $("status").textContent = event.message ? `Stopped after ${seconds}: ${event.message}.` : `Cancelled after ${seconds}.`;
      if (job && job.saved) showResume("the subproblems counted so far are kept");
      if (job && (job.task === "all" || job.task === "first")) guarded(() => showPage(0, 0));
    } else {
      $("status").textContent = "Stopped by an error.";
      showError({ message: event.message });
    }
  }
}

function showResume(why) {
  $("resume").hidden = false;
  $("resume").title = why;
}

async function showResult(event, seconds) {
  const why = event.obstruction ? ` ${event.obstruction}` : "";
  const longest = event.maximum ? ` Stopped by the studio's longest run time, ${duration(event.maximum)} (excover studio --max-run-time).` : "";
  const stopped = longest || (event.stopped_by === "timeout" ? " Stopped by the time limit." : event.stopped_by === "limit" ? " Stopped at the limit." : "");
  $("status").textContent = `Done in ${seconds}.${stopped}${why}`;
  if (event.task === "first" || event.task === "all") {
    if (event.task === "first" && !event.found) {
      $("solution-caption").textContent = "No solution.";
      return;
    }
    await showPage(0, 0);
    return;
  }
  const what = event.task === "count" ? "solutions" : "solutions up to symmetry";
  if (event.count === null) {
    $("result-count").textContent = "no count: stopped before the end";
    return;
  }
  const count = BigInt(event.count).toLocaleString("en-US");
  if (event.complete) {
    $("result-count").dataset.count = event.count;
    $("result-count").textContent = `${count} ${what}`;
  } else {
    $("result-count").textContent = `at least ${count} ${what} (partial)`;
    if (event.kept) showResume(`${event.done} of ${event.subproblems} subproblems counted are kept`);
  }
}

// ----- looking at solutions -----

const PER_PAGE = 6;

async function showPage(page, chosen) {
  const listing = state.listing;
  if (!listing) return;
  const found = await api("GET", `api/listings/${listing.id}?start=${page * PER_PAGE}&count=${PER_PAGE}`);
  Object.assign(listing, { total: found.total, stopped: listing.first || Boolean(found.stopped_by), page, entries: found.solutions, chosen });
  const pages = Math.max(1, Math.ceil(found.total / PER_PAGE));
  $("pager").hidden = found.total <= PER_PAGE;
  $("page-caption").textContent = `page ${page + 1} of ${pages} (${found.total.toLocaleString("en-US")} solutions${found.stopped_by ? ", stopped at a limit" : ""})`;
  $("page-back").disabled = page === 0;
  $("page-next").disabled = page + 1 >= pages;
  const gallery = $("gallery");
  gallery.replaceChildren();
  if (found.total > 1) {
    for (const entry of found.solutions) {
      const figure = document.createElement("figure");
      figure.innerHTML = entry.svg + `<figcaption>${entry.index + 1}</figcaption>`;
      figure.dataset.index = entry.index;
      figure.onclick = () => choose(entry.index);
      gallery.appendChild(figure);
    }
  }
  if (found.solutions.length) choose(found.solutions[0].index === chosen ? chosen : found.solutions[0].index);
  else $("solution-caption").textContent = "No solution.";
}

function view() {
  return document.querySelector('input[name="view"]:checked').value;
}

function choose(index) {
  const listing = state.listing;
  const entry = listing.entries.find((e) => e.index === index);
  if (!entry) return;
  listing.chosen = index;
  for (const figure of $("gallery").children) figure.classList.toggle("chosen", Number(figure.dataset.index) === index);
  const isometric = entry.isometric && view() === "isometric";
  const svg = isometric ? entry.isometric : entry.svg;
  $("views").hidden = !entry.isometric;
  // a listing cut short (Solve, or a limit) knows only a lower bound of the solutions
  const total = listing.total.toLocaleString("en-US");
  $("solution-caption").textContent = listing.stopped
    ? `Solution ${index + 1} of at least ${total} (the listing stopped there; Count tells how many):`
    : `Solution ${index + 1} of ${total}:`;
  if (entry.solid && view() === "3d") {
    const shown = solidView(entry.solid);
    $("solution").replaceChildren(shown);
    if (entry.disassembles) shown.append(disassemblyPanel(listing, index, shown));
  } else $("solution").innerHTML = svg;
  $("downloads").hidden = false;
  $("download-svg").href = URL.createObjectURL(new Blob([svg], { type: "image/svg+xml" }));
  $("download-svg").download = `solution${index + 1}.svg`;
  $("download-png").download = `solution${index + 1}.png`;
  stlLink();
  $("download-json").href = withToken(`api/listings/${listing.id}/json`);
}

// The STL file of the solution shown: each piece its own closed body, pieces that touch
// moved the gap apart (mm, cells of 10 mm; the command line's `excover solve --stl FILE
// --gap MM`, the same writer and default). On a grid whose pieces are not moved apart
// (stl_gap null) the gap input is disabled and the file has none.
function stlPath() {
  const listing = state.listing;
  const input = $("stl-gap");
  const spaced = GRIDS[listing.grid].stl_gap !== null;
  if (spaced && input.value === "") input.value = GRIDS[listing.grid].stl_gap;
  input.disabled = !spaced;
  input.title = spaced
    ? "millimetres between pieces that touch (each face moved half of it inward), so that each piece is a body of its own and printed pieces fit; 0: they touch"
    : "the pieces of this grid's STL files touch: they are not moved apart yet";
  const gap = spaced ? input.value.trim() : "0";
  return `api/listings/${listing.id}/${listing.chosen}/stl?gap=${encodeURIComponent(gap)}`;
}

function stlLink() {
  if (!state.listing) return;
  $("download-stl").href = withToken(stlPath());
  $("download-stl").download = `solution${state.listing.chosen + 1}.stl`;
}

// Download the STL file through the server's answer, so that a gap it refuses is said.
async function downloadStl() {
  stlLink();
  save(await api("GET", stlPath()), $("download-stl").download);
}

// ----- a solution in 3D: exploded, turned by dragging -----

// The pieces of a solution of a solid grid as the server describes them (each piece's
// colour and the faces of its surface in space, or its balls' centres), drawn on a canvas
// as seen from a direction the mouse turns (drag: left-right about the vertical, up-down
// tilts), pulled apart from the centre by the slider's amount. Faces turned away are left
// out and the rest drawn far to near (the painter's algorithm), lit from the viewer's
// upper left; a dark line runs where a piece's surface turns. The box it returns can move
// the pieces through the states of a disassembly (`box.play(states)`, then `box.show(p)`:
// state p, or between two states when p is fractional), seen at one scale throughout.
function solidView(solid) {
  const box = document.createElement("div");
  box.className = "solid-view";
  const canvas = document.createElement("canvas");
  const ratio = window.devicePixelRatio || 1;
  const [width, height] = [440, 380];
  canvas.width = width * ratio;
  canvas.height = height * ratio;
  canvas.style.width = `${width}px`;
  canvas.style.height = `${height}px`;
  const slider = document.createElement("input");
  Object.assign(slider, { type: "range", min: "0", max: "1.5", step: "0.05", value: "0.6", id: "explode" });
  const label = document.createElement("label");
  label.append("pulled apart ", slider);
  // the view's options: the pieces' names on them, which pieces are seen through (the
  // largest, a frame or a cage, or all), and what the view is scaled to (the pieces as
  // they are at each moment, or every state of a disassembly at once)
  const options = document.createElement("div");
  options.className = "view-options";
  options.innerHTML = `<label><input type="checkbox" class="labels" checked> names on the pieces</label>
    <label>see through <select class="see-through"><option value="none">no piece</option>
    <option value="largest">the largest piece (a frame)</option><option value="all">every piece</option></select></label>
    <label>scale to <select class="fit"><option value="state">the pieces shown</option>
    <option value="all">every state</option></select></label>`;
  const [labelsBox, seeThrough, fit] = [".labels", ".see-through", ".fit"].map((q) => options.querySelector(q));
  const stage = document.createElement("div");
  stage.className = "stage";
  stage.append(canvas);
  box.append(stage, label, options);
  box.stage = stage;
  box.canvas = canvas;
  const view = { yaw: -Math.PI / 4, pitch: Math.atan(1 / Math.SQRT2), explode: 0.6, states: null, position: 0, names: null };
  if (solid.pieces.every((p) => typeof p.name === "string")) view.names = solid.pieces.map((p) => p.name);
  const pieces = solid.pieces.map((piece) => {
    const points = piece.balls || piece.faces.flatMap((f) => f.points);
    const centre = [0, 1, 2].map((k) => points.reduce((sum, p) => sum + p[k], 0) / points.length);
    return { ...piece, centre, weight: points.length };
  });
  const total = pieces.reduce((n, p) => n + p.weight, 0);
  const middle = [0, 1, 2].map((k) => pieces.reduce((sum, p) => sum + p.centre[k] * p.weight, 0) / total);
  // how far the pieces reach from the middle, pulled apart by `explode` (balls: their radius
  // more), in every state of the disassembly played
  const reaches = new Map();
  const reach = (explode) => {
    if (!reaches.has(explode)) {
      let most = 1;
      for (const shift of view.states || [pieces.map(() => [0, 0, 0])]) {
        pieces.forEach((p, n) => {
          for (const q of p.balls || p.faces.flatMap((f) => f.points)) {
            const far = Math.hypot(...[0, 1, 2].map((k) => q[k] + explode * (p.centre[k] - middle[k]) - middle[k] + shift[n][k]));
            most = Math.max(most, far + (p.balls ? 0.5 : 0));
          }
        });
      }
      reaches.set(explode, most);
    }
    return reaches.get(explode);
  };
  // where piece n is moved to at the position played: between two states, in a straight line
  const shift = (n) => {
    if (!view.states) return [0, 0, 0];
    const last = view.states.length - 1;
    const k = Math.min(Math.floor(view.position), last), t = Math.min(view.position - k, 1);
    const [a, b] = [view.states[k][n], view.states[Math.min(k + 1, last)][n]];
    return a.map((v, i) => v + t * (b[i] - v));
  };

  // the largest piece (the most points of its surface): a frame or a cage, seen
  // through when asked
  const largest = pieces.reduce((best, p, n) => (p.weight > pieces[best].weight ? n : best), 0);
  function draw() {
    const cy = Math.cos(view.yaw), sy = Math.sin(view.yaw);
    const cp = Math.cos(view.pitch), sp = Math.sin(view.pitch);
    // turned: x across the screen, y into it (depth), z up the screen
    const turn = ([x, y, z]) => {
      const x1 = cy * x - sy * y, y1 = sy * x + cy * y;
      return [x1, y1 * cp - z * sp, y1 * sp + z * cp];
    };
    // each piece's move from where it is drawn: pulled apart from the middle, and moved
    // through the disassembly played
    const moves = pieces.map((piece, n) => {
      const moved = shift(n);
      return piece.centre.map((c, k) => view.explode * (c - middle[k]) - middle[k] + moved[k]);
    });
    let scale, offset = [0, 0, 0];
    if (fit.value === "state") { // the pieces shown, as turned, fill the canvas, centred
      const low = [Infinity, Infinity], high = [-Infinity, -Infinity];
      pieces.forEach((p, n) => {
        for (const q of p.balls || p.faces.flatMap((f) => f.points)) {
          const [x, , z] = turn(q.map((v, k) => v + moves[n][k]));
          const r = p.balls ? 0.5 : 0;
          low[0] = Math.min(low[0], x - r); high[0] = Math.max(high[0], x + r);
          low[1] = Math.min(low[1], z - r); high[1] = Math.max(high[1], z + r);
        }
      });
      scale = Math.min((width - 24) / Math.max(high[0] - low[0], 1), (height - 24) / Math.max(high[1] - low[1], 1));
      offset = [(low[0] + high[0]) / 2, 0, (low[1] + high[1]) / 2];
    } else {
      scale = (Math.min(width, height) / 2 - 12) / reach(view.explode);
    }
    const spot = ([x, , z]) => [width / 2 + (x - offset[0]) * scale, height / 2 - (z - offset[2]) * scale];
    const shapes = [];
    const labels = [];
    pieces.forEach((piece, n) => {
      const move = moves[n];
      const at = (q) => turn(q.map((v, k) => v + move[k]));
      const alpha = seeThrough.value === "all" || (seeThrough.value === "largest" && n === largest && pieces.length > 1) ? 0.28 : 1;
      if (view.names && view.names[n] !== undefined) labels.push({ text: view.names[n], at: at(piece.centre), colour: piece.colour });
      if (piece.balls) {
        for (const ball of piece.balls) shapes.push({ depth: at(ball)[1], ball: at(ball), colour: piece.colour, alpha });
        return;
      }
      for (const face of piece.faces) {
        const corners = face.points.map(at);
        const normal = [0, 0, 0];
        corners.forEach((p, i) => {
          const q = corners[(i + 1) % corners.length];
          normal[0] += (p[1] - q[1]) * (p[2] + q[2]);
          normal[1] += (p[2] - q[2]) * (p[0] + q[0]);
          normal[2] += (p[0] - q[0]) * (p[1] + q[1]);
        });
        const length = Math.hypot(...normal);
        if (normal[1] / length > -1e-6) continue; // turned away from the viewer
        const light = (-0.35 * normal[0] - 0.25 * normal[1] + 0.45 * normal[2]) / length;
        const depth = corners.reduce((sum, p) => sum + p[1], 0) / corners.length;
        shapes.push({ depth, corners, creases: face.creases, alpha, colour: shade(piece.colour, Math.max(-0.45, Math.min(0.45, light))) });
      }
    });
    shapes.sort((a, b) => b.depth - a.depth);
    const pen = canvas.getContext("2d");
    pen.setTransform(ratio, 0, 0, ratio, 0, 0);
    pen.fillStyle = "white";
    pen.fillRect(0, 0, width, height);
    pen.lineJoin = "round";
    pen.lineCap = "round";
    for (const shape of shapes) {
      pen.globalAlpha = shape.alpha;
      if (shape.ball) {
        const [x, y] = spot(shape.ball);
        const r = 0.5 * scale;
        const gradient = pen.createRadialGradient(x - r * 0.3, y - r * 0.35, r * 0.1, x, y, r);
        gradient.addColorStop(0, shade(shape.colour, 0.6));
        gradient.addColorStop(0.55, shape.colour);
        gradient.addColorStop(1, shade(shape.colour, -0.45));
        pen.beginPath();
        pen.arc(x, y, r, 0, 2 * Math.PI);
        pen.fillStyle = gradient;
        pen.fill();
        pen.strokeStyle = "#222";
        pen.lineWidth = 1;
        pen.stroke();
        continue;
      }
      const points = shape.corners.map(spot);
      pen.beginPath();
      points.forEach(([x, y], i) => (i ? pen.lineTo(x, y) : pen.moveTo(x, y)));
      pen.closePath();
      pen.fillStyle = shape.colour;
      pen.strokeStyle = shape.colour;
      pen.lineWidth = 0.6;
      pen.fill();
      pen.stroke();
      pen.beginPath();
      points.forEach(([x, y], i) => {
        if (!shape.creases[i]) return;
        const [u, v] = points[(i + 1) % points.length];
        pen.moveTo(x, y);
        pen.lineTo(u, v);
      });
      pen.strokeStyle = "#222";
      pen.lineWidth = 1.2;
      pen.stroke();
    }
    pen.globalAlpha = 1;
    // the pieces' names, each on a label at its centre (a piece far in the back too)
    if (labelsBox.checked) {
      pen.font = "600 12px system-ui, sans-serif";
      pen.textAlign = "center";
      pen.textBaseline = "middle";
      const placed = []; // the labels' boxes so far: a label moves down past those it would cover
      for (const { text, at, colour } of labels) {
        let [x, y] = spot(at);
        const w = pen.measureText(text).width + 8;
        for (let tries = 0; tries < 12; tries++) {
          const hit = placed.find((b) => Math.abs(b[0] - x) < (b[2] + w) / 2 && Math.abs(b[1] - y) < 18);
          if (!hit) break;
          y = hit[1] + 19;
        }
        placed.push([x, y, w]);
        pen.fillStyle = "rgba(255, 255, 255, 0.85)";
        pen.strokeStyle = colour;
        pen.lineWidth = 2;
        pen.beginPath();
        pen.rect(x - w / 2, y - 9, w, 18);
        pen.fill();
        pen.stroke();
        pen.fillStyle = "#111";
        pen.fillText(text, x, y + 0.5);
      }
    }
    // what the tests read: the pieces' extent on the canvas, their labels
    let low = [width, height], high = [0, 0];
    for (const shape of shapes) {
      for (const point of shape.ball ? [shape.ball] : shape.corners) {
        const [x, y] = spot(point);
        low = [Math.min(low[0], x), Math.min(low[1], y)];
        high = [Math.max(high[0], x), Math.max(high[1], y)];
      }
    }
    canvas.dataset.extent = `${Math.round(high[0] - low[0])}x${Math.round(high[1] - low[1])}`;
    canvas.dataset.labels = labelsBox.checked ? labels.map((l) => l.text).join("|") : "";
    canvas.dataset.seeThrough = seeThrough.value;
    canvas.dataset.drawn = shapes.length;
    canvas.dataset.yaw = view.yaw.toFixed(3);
    canvas.dataset.position = view.position.toFixed(3);
  }

  let from = null;
  canvas.addEventListener("pointerdown", (event) => {
    from = [event.clientX, event.clientY];
    canvas.setPointerCapture(event.pointerId);
  });
  canvas.addEventListener("pointermove", (event) => {
    if (!from) return;
    view.yaw -= (event.clientX - from[0]) * 0.01;
    view.pitch = Math.max(-1.5, Math.min(1.5, view.pitch + (event.clientY - from[1]) * 0.01));
    from = [event.clientX, event.clientY];
    draw();
  });
  canvas.addEventListener("pointerup", () => { from = null; });
  slider.addEventListener("input", () => { view.explode = Number(slider.value); draw(); });
  for (const control of [labelsBox, seeThrough, fit]) control.addEventListener("change", () => draw());
  box.setNames = (names) => { view.names = names; draw(); };
  box.seeThrough = seeThrough;
  box.play = (states) => {
    view.states = states;
    view.position = 0;
    view.explode = 0;
    slider.value = "0";
    reaches.clear();
    draw();
  };
  box.show = (position) => {
    view.position = position;
    draw();
  };
  draw();
  return box;
}

// ----- a solution taken apart, played step by step -----

// Milliseconds between two pictures of a disassembly played.
const FRAME = 30;

// What the server found of a disassembly, said in one line.
function disassemblyText(found) {
  if (found.status === "solved") {
    const extra = found.beyond_greedy ? " (BurrTools' greedy search would call it stuck)" : "";
    return `level ${found.level}, ${found.total} moves${extra}`;
  }
  if (found.status === "stuck") return "does not come apart";
  return `unknown: limit reached (${found.reason})`;
}

// Move k (from 1) of a disassembly, the pieces named as the design names them (joined
// by `separator`: names of a BurrTools file may hold spaces).
function moveText(found, k, separator = " ") {
  if (k === 0) return "assembled";
  const move = found.moves[k - 1];
  const pieces = move.pieces.map((p) => found.names[p]).join(separator);
  return `move ${k} of ${found.moves.length}: ${pieces} ${move.direction} ${move.distance === null ? "out" : move.distance}`;
}

// A disassembly as text: the level, then each move on a line (the pieces named as in
// `found.names`), as the page's "Moves as text" saves it.
function disassemblyLines(found, title) {
  const lines = [title, disassemblyText(found)];
  (found.moves || []).forEach((move, k) => {
    const pieces = move.pieces.map((p) => found.names[p]).join(", ");
    lines.push(`${k + 1}. ${pieces} ${move.direction} ${move.distance === null ? "out" : move.distance}`);
  });
  return lines.join("\n") + "\n";
}

// A player of disassemblies under a 3D view (`shown`, made by solidView): the level, a
// slider over the states, Play/Pause, which moves the pieces from state to state (a
// state a second or so, times the speed chosen), the moves as a list beside the view (a
// click goes to the state after that move) and "Moves as text". Its elements' ids start
// with `prefix`; `player.load(found)` shows a disassembly as the server describes it
// (the pieces' names go on the pieces in the view); `player.level` is where the level
// goes, and `player.head` the row that holds it; `player.title` names the file saved.
function disassemblyPlayer(shown, prefix, separator = " ") {
  const panel = document.createElement("div");
  panel.className = "disassembly";
  panel.innerHTML = `<div class="row"><span id="${prefix}-level" class="level"></span></div>
    <div class="row" id="${prefix}-player" hidden><button id="${prefix}-play">Play</button>
    <input id="${prefix}-step" class="step" type="range" min="0" max="0" step="1" value="0">
    <span id="${prefix}-move"></span></div>
    <div class="row" id="${prefix}-controls" hidden><label>speed <select id="${prefix}-speed">
    <option value="0.25">&#188;&#215;</option><option value="0.5">&#189;&#215;</option><option value="1" selected>1&#215;</option>
    <option value="2">2&#215;</option><option value="4">4&#215;</option><option value="8">8&#215;</option></select></label>
    <a id="${prefix}-text" href="#" download="disassembly.txt" title="the level and every move, as text">Moves as text</a></div>`;
  const [level, player, play, step, caption, controls, speed, text] = ["level", "player", "play", "step", "move", "controls", "speed", "text"].map(
    (id) => panel.querySelector(`#${prefix}-${id}`));
  const list = document.createElement("ol");
  list.id = `${prefix}-moves`;
  list.className = "moves";
  list.hidden = true;
  list.title = "the moves: a click shows the pieces after that move";
  if (shown.stage) shown.stage.append(list);
  let found = null, playing = null;
  const at = (position) => {
    shown.show(position);
    const k = Math.floor(position);
    step.value = String(k);
    caption.textContent = moveText(found, k, separator);
    list.querySelectorAll("li").forEach((item, n) => item.classList.toggle("current", n === k));
    const current = list.children[k]; // kept in sight in the list (not the page) while it plays
    if (current && !list.hidden) {
      const [r, l] = [current.getBoundingClientRect(), list.getBoundingClientRect()];
      if (r.top < l.top || r.bottom > l.bottom) list.scrollTop += r.top - l.top - l.height / 2;
    }
  };
  const pause = () => {
    if (playing !== null) clearTimeout(playing);
    playing = null;
    play.textContent = "Play";
  };
  panel.level = level;
  panel.head = level.parentElement;
  panel.title = "disassembly";
  panel.load = (answer) => {
    pause();
    found = answer;
    level.textContent = disassemblyText(found);
    level.dataset.status = found.status;
    shown.play(found.states);
    if (shown.setNames && found.names) shown.setNames(found.names);
    step.max = String(found.states.length - 1);
    player.hidden = controls.hidden = list.hidden = found.states.length < 2;
    list.replaceChildren();
    const start = document.createElement("li");
    start.textContent = "assembled";
    start.value = 0;
    list.append(start);
    (found.moves || []).forEach((move, k) => {
      const item = document.createElement("li");
      const pieces = move.pieces.map((p) => found.names[p]).join(separator);
      item.textContent = `${pieces} ${move.direction} ${move.distance === null ? "out" : move.distance}`;
      item.value = k + 1;
      list.append(item);
    });
    list.querySelectorAll("li").forEach((item, n) => { item.onclick = () => { pause(); at(n); }; });
    at(0);
  };
  text.onclick = (event) => {
    event.preventDefault();
    if (!found) return;
    save(new Blob([disassemblyLines(found, panel.title)], { type: "text/plain" }), text.download);
  };
  step.addEventListener("input", () => { pause(); at(Number(step.value)); });
  play.onclick = () => {
    if (playing !== null) return pause();
    const last = found.states.length - 1;
    let position = Number(step.value) >= last ? 0 : Number(step.value);
    let before = performance.now();
    play.textContent = "Pause";
    // a frame every FRAME ms (a timer: it goes on in a page the browser does not paint)
    const frame = () => {
      if (!panel.isConnected) return;
      const now = performance.now();
      const rate = Number(speed.value) || 1;
      position = Math.min(last, position + Math.min(Math.min(now - before, 100) * rate / 900, 1)); // no state skipped
      before = now;
      at(position);
      if (position >= last) return pause();
      playing = setTimeout(frame, FRAME);
    };
    playing = setTimeout(frame, FRAME);
  };
  return panel;
}

// The Disassemble button under a 3D view (`shown`, made by solidView) of solution `index`
// of `listing`, and once the server has answered, its player (disassemblyPlayer).
function disassemblyPanel(listing, index, shown) {
  const panel = disassemblyPlayer(shown, "disassembly");
  const button = document.createElement("button");
  button.id = "disassemble";
  button.title = "slide the pieces apart, as BurrTools counts moves";
  button.textContent = "Disassemble";
  panel.head.prepend(button);
  const level = panel.level;
  listing.disassemblies = listing.disassemblies || {};
  const shownFound = (answer) => {
    button.hidden = true;
    panel.load(answer);
  };
  button.onclick = () => guarded(async () => {
    button.disabled = true;
    level.textContent = "taking it apart…";
    const seconds = Number($("seconds").value);
    const bounds = $("seconds").value && seconds > 0 ? { seconds } : {};
    try {
      const answer = await api("POST", `api/listings/${listing.id}/${index}/disassemble`, bounds);
      listing.disassemblies[index] = answer;
      if (panel.isConnected) shownFound(answer);
    } catch (error) {
      level.textContent = "";
      throw error;
    } finally {
      button.disabled = false;
    }
  });
  if (listing.disassemblies[index]) shownFound(listing.disassemblies[index]);
  return panel;
}

// `colour` (#rrggbb) mixed with white (amount > 0) or black (< 0), as the server shades.
function shade(colour, amount) {
  const target = amount > 0 ? 255 : 0;
  return "#" + [1, 3, 5].map((i) => {
    const c = parseInt(colour.slice(i, i + 2), 16);
    return Math.round(c + (target - c) * Math.abs(amount)).toString(16).padStart(2, "0");
  }).join("");
}

// The solution shown, as a PNG made here (no server involved): the 3D view's canvas as it
// is drawn, or a canvas the SVG picture is drawn on.
async function png() {
  const drawn = $("solution").querySelector("canvas");
  if (drawn) {
    save(await new Promise((done) => drawn.toBlob(done, "image/png")), $("download-png").download);
    return;
  }
  const svg = $("solution").querySelector("svg");
  if (!svg) return;
  const text = new XMLSerializer().serializeToString(svg);
  const image = new Image();
  const url = URL.createObjectURL(new Blob([text], { type: "image/svg+xml" }));
  await new Promise((done, failed) => { image.onload = done; image.onerror = failed; image.src = url; });
  const scale = 2;
  const canvas = document.createElement("canvas");
  canvas.width = image.naturalWidth * scale;
  canvas.height = image.naturalHeight * scale;
  const context = canvas.getContext("2d");
  context.fillStyle = "white";
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.drawImage(image, 0, 0, canvas.width, canvas.height);
  URL.revokeObjectURL(url);
  const blob = await new Promise((done) => canvas.toBlob(done, "image/png"));
  save(blob, $("download-png").download);
}

// ----- files -----

async function exportProgram() {
  const text = await api("POST", "api/export", design());
  save(new Blob([text], { type: "text/plain" }), "puzzle.cmb");
}

async function exportStl() {
  const blob = await api("POST", "api/export/stl", design());
  save(blob, "pieces.zip");
}

// A file opened (with the picker, or dropped on the page): its bytes go to the server as
// they are, which tells a BurrTools puzzle (gzip or XML) from a .cmb program by their
// content; a puzzle goes to the panel "BurrTools puzzle" (puzzle.js), a program becomes
// the design on the page.
async function importFile(file) {
  const bytes = await file.arrayBuffer();
  const opened = await api("POST", `api/import?name=${encodeURIComponent(file.name)}`, bytes, true);
  if (opened.puzzle) showPuzzle(opened.puzzle);
  else loadDesign(opened.design, file.name);
}

// Files dragged over the page are opened where they are dropped, wherever that is.
function wireDrops() {
  const carries = (event) => [...(event.dataTransfer ? event.dataTransfer.types : [])].includes("Files");
  document.addEventListener("dragover", (event) => {
    if (!carries(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "copy";
    document.body.classList.add("dropping");
  });
  document.addEventListener("dragleave", (event) => {
    if (event.relatedTarget === null) document.body.classList.remove("dropping");
  });
  document.addEventListener("drop", (event) => {
    document.body.classList.remove("dropping");
    if (!carries(event)) return;
    event.preventDefault();
    const file = event.dataTransfer.files[0];
    if (file) guarded(() => importFile(file));
  });
}

// ----- start -----

// The tools shared by the board's editor and the piece's (editorTools): the board's
// turn, mirror and shift; the piece's size, Fill, Undo and those.
let boardTools = null;
let pieceTools = null;

function wire() {
  board = new Editor($("board"), 26, boardChanged);
  drawn = new Editor($("piece-editor"), 20, pieceChanged);
  boardTools = editorTools(board, "board", { transforms: true, most: 64 });
  $("board-tools").replaceChildren(boardTools);
  pieceTools = editorTools(drawn, "own", { size: true, basics: true, transforms: true, most: 16 });
  $("piece-tools").replaceChildren(pieceTools);
  $("grid").onchange = () => {
    const grid = $("grid").value;
    frameInputs(grid);
    board.layer = 0;
    newBoard(grid);
    drawn.layer = 0;
    drawn.set(grid, frame(4, 4, layered(grid) ? 3 : 1, false), false);
    drawFamilies();
  };
  $("new-board").onclick = () => newBoard(state.grid);
  $("resize-board").onclick = () => {
    const [w, h, d] = sizeInputs();
    const old = board.layers;
    board.set(state.grid, Array.from({ length: d }, (_, z) => Array.from({ length: h }, (_, y) =>
      Array.from({ length: w }, (_, x) => Boolean(old[z] && old[z][y] && old[z][y][x])))), true);
  };
  $("fill-board").onclick = () => board.set(state.grid, board.layers.map((l) => l.map((r) => r.map(() => true))), true);
  $("clear-board").onclick = () => board.set(state.grid, board.layers.map((l) => l.map((r) => r.map(() => false))), true);
  $("undo").onclick = () => {
    board.back();
    if (board.grid !== state.grid) {
      setGrid(board.grid);
      drawFamilies();
    }
  };
  $("layer").onchange = () => showLayer(Number($("layer").value));
  $("layer-up").onclick = () => showLayer(board.layer + 1);
  $("layer-down").onclick = () => showLayer(board.layer - 1);
  $("piece-layer").onchange = () => { drawn.layer = Number($("piece-layer").value); drawn.draw(); };
  $("piece-layer-up").onclick = () => { drawn.layer = Math.min(drawn.depth - 1, drawn.layer + 1); drawn.draw(); pieceChanged(); };
  $("piece-layer-down").onclick = () => { drawn.layer = Math.max(0, drawn.layer - 1); drawn.draw(); pieceChanged(); };
  $("piece-clear").onclick = () => drawn.set(state.grid, drawn.layers.map((l) => l.map((r) => r.map(() => false))), true);
  $("piece-add").onclick = () => guarded(async () => addOwnPiece());
  $("family").onchange = () => drawPieces();
  $("select-family").onclick = () => {
    const family = familiesOf(state.grid).find((f) => f.name === $("family").value);
    for (const { name } of family.pieces) piecesOf(state.grid).get(name).count = "1";
    drawPieces();
    summarize();
  };
  $("clear-pieces").onclick = () => {
    for (const piece of piecesOf(state.grid).values()) piece.count = "0";
    drawPieces();
    summarize();
  };
  $("reflections").onchange = () => {
    for (const piece of piecesOf(state.grid).values()) piece.symmetry = symmetry();
  };
  $("solve-first").onclick = () => guarded(() => run("first"));
  $("solve-all").onclick = () => guarded(() => run("all"));
  $("count").onclick = () => guarded(() => run("count"));
  $("count-symmetry").onclick = () => guarded(() => run("count_symmetry"));
  $("resume").onclick = () => guarded(() => run(state.lastCount || "count"));
  $("cancel").onclick = () => guarded(() => solveRuns.cancel());
  $("page-back").onclick = () => guarded(() => showPage(state.listing.page - 1, -1));
  $("page-next").onclick = () => guarded(() => showPage(state.listing.page + 1, -1));
  for (const radio of document.querySelectorAll('input[name="view"]')) {
    radio.onchange = () => state.listing && choose(state.listing.chosen);
  }
  $("download-png").onclick = (event) => { event.preventDefault(); guarded(png); };
  $("download-stl").onclick = (event) => { event.preventDefault(); guarded(downloadStl); };
  $("stl-gap").oninput = stlLink;
  $("export").onclick = () => guarded(exportProgram);
  $("export-stl").onclick = () => guarded(exportStl);
  $("import").onchange = (event) => {
    const file = event.target.files[0];
    event.target.value = "";
    if (file) guarded(() => importFile(file));
  };
  wireDrops();
}

async function start() {
  const { families, grids, drawings } = await api("GET", "api/catalog");
  Object.assign(GRIDS, grids);
  Object.assign(DRAWINGS, drawings);
  $("grid").replaceChildren(...Object.entries(GRIDS).filter(([, g]) => g.label).map(([name, g]) => {
    const option = document.createElement("option");
    option.value = name;
    option.textContent = g.label;
    return option;
  }));
  wire();
  state.families = families;
  for (const family of families) for (const piece of family.pieces) addPiece(family.grid, piece.name, piece.cells, "0");
  const first = $("grid").options[0].value;
  setGrid(first);
  frameInputs(first);
  board.set(first, frame(...sizeInputs(), true), false);
  drawn.set(first, frame(4, 4, 1, false), false);
  drawFamilies();
  const initial = await api("GET", "api/initial");
  if (initial.design) loadDesign(initial.design, initial.name);
  if (initial.puzzle) showPuzzle(initial.puzzle);
  document.body.dataset.readyAt = Math.round(performance.now()); // ms after the navigation began
  document.body.dataset.ready = "true";
}

guarded(start);
