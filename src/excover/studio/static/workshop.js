// The burr workshop in the panel "BurrTools puzzle" (excover.studio.workshop): the
// puzzle's shapes drawn and edited layer by layer in the page's editor (studio.js's
// Editor and editorTools, the board's own tool: any size, filled / variable / empty
// voxels, mirror, turn, shift, undo, names), its problems changed (pieces added or
// removed, their copies, the result, a new problem), each change made by the server
// into a new puzzle that is assembled and played like any other; and Save .xmpuzzle,
// the file BurrTools opens, with the solutions of the problem last assembled and their
// disassemblies. It uses the page's helpers (studio.js, puzzle.js: burr, api, guarded,
// showPuzzle, shapePicture, ...).
"use strict";

// The grid (a key of GRIDS) as which the editor draws the voxels of BurrTools' grid
// `number`: the studio's grid of that number whose spots are its voxels (cubes as
// squares, prisms as triangles, spheres on a checkerboard as the studio's balls,
// tetrahedra-octahedra as the studio's voxels), else plain voxels (rhombic dodecahedra:
// BurrTools' 48 voxels a dodecahedron), as the server names them.
function burrEditGrid(number) {
  const found = Object.entries(GRIDS).find(([, grid]) => grid.burrtools === number && grid.spot_cells === 1);
  return found ? found[0] : PLAIN_VOXELS;
}
// The server's name of the plain voxels (excover.studio.page_grids.VOXELS).
const PLAIN_VOXELS = "voxels";
// The longest side of a shape drawn here (the server's MAX_SIDE), and the most voxels of
// its box (MAX_VOLUME).
const SHAPE_SIDE = 64;
const SHAPE_VOLUME = 32768;
const STATE_OF = { "#": 1, "+": 2, _: 0 };
const CHAR_OF = ["_", "#", "+"];

const shop = {
  editor: null,   // the shape editor (an Editor)
  tools: null,    // its tools (editorTools)
  editing: null,  // the number of the shape edited, or null for a new one
  pending: null,  // the last run whose file Save may take: {id, puzzle, problem}
};

// Whether the rows of a layer on `grid` are drawn with BurrTools' y upwards (the last row
// on top), as the panel draws shapes: on every grid but the prisms', whose triangles
// point up where x + y is even with y downwards, as BurrTools draws them.
function upwards(grid) {
  return !DRAWINGS[GRIDS[grid].layer].alternating;
}

// The layers (bottom first, rows top first) of a shape's states (BurrTools' order: x
// fastest, then y, then z), each voxel 0, 1 or 2.
function shapeLayers(size, states, up = true) {
  const [sx, sy, sz] = size;
  return Array.from({ length: sz }, (_, z) => Array.from({ length: sy }, (_, row) =>
    Array.from({ length: sx }, (_, x) => STATE_OF[states[x + sx * ((up ? sy - 1 - row : row) + sy * z)]] || 0)));
}

// The editor's drawing as BurrTools' size and states.
function editorStates(editor) {
  const [sx, sy, sz] = [editor.width, editor.height, editor.depth];
  const up = upwards(editor.grid);
  let states = "";
  for (let z = 0; z < sz; z++) {
    for (let y = 0; y < sy; y++) for (let x = 0; x < sx; x++) states += CHAR_OF[editor.layers[z][up ? sy - 1 - y : y][x]];
  }
  return { size: [sx, sy, sz], states };
}

// The grid a shape of this puzzle is drawn on, and its layers: the studio's picture of
// BurrTools' grid when every voxel of the shape is a cell of it, else plain voxels
// (nothing is lost).
function editGrid(size, states) {
  const grid = burrEditGrid(burr.puzzle.grid);
  const layers = shapeLayers(size, states, upwards(grid));
  const fits = layers.every((rows, z) => rows.every((row, y) => row.every((v, x) => !v || onGrid(grid, x, y, z, rows.length))));
  return fits ? [grid, layers] : [PLAIN_VOXELS, shapeLayers(size, states)];
}

function workshopSay(text) {
  $("workshop-status").textContent = text;
}

// ----- the edits, made by the server -----

// The page's picture of the puzzle as edits of it: every shape and problem as it is
// ({"from": K}), but those `change` replaces.
function puzzleEdits(change = {}) {
  const puzzle = burr.puzzle;
  const shapes = puzzle.shapes.map((shape, k) => change.shapes?.[k] || { from: k });
  if (change.newShape) shapes.push(change.newShape);
  const problems = puzzle.problems.map((problem, k) => change.problems?.[k] || { from: k });
  if (change.newProblem) problems.push(change.newProblem);
  return { base: puzzle.id, shapes, problems };
}

// The pieces of problem k as the server takes them.
function problemParts(k) {
  return burr.puzzle.problems[k].pieces.map((p) => ({ shape: p.shape, lo: p.lo, hi: p.hi }));
}

// Send the edits; the puzzle they make becomes the one shown, on problem `problem`.
async function applyEdits(change, problem, what) {
  workshopSay(`${what}…`);
  let made;
  try {
    made = await api("POST", "api/puzzles", puzzleEdits(change));
  } catch (error) {
    workshopSay("");
    throw error;
  }
  showPuzzle(made.puzzle, problem, true);
  workshopSay(`${what}: done.`);
  $("puzzle-panel").dataset.edits = Number($("puzzle-panel").dataset.edits || 0) + 1;
}

// "2" or "0..4" (copies of a piece) as [lo, hi].
function copies(text) {
  const match = /^\s*(\d+)\s*(?:\.\.\s*(\d+)\s*)?$/.exec(text);
  if (!match) throw Object.assign(new Error(), { info: { message: `copies: a number or a range LO..HI, not "${text}"` } });
  const lo = Number(match[1]), hi = match[2] === undefined ? lo : Number(match[2]);
  return [lo, hi];
}

function changePiece(k, edit) {
  const number = burr.problem;
  const parts = problemParts(number);
  edit(parts);
  const problem = { from: number, name: burr.puzzle.problems[number].name, result: burr.puzzle.problems[number].result, parts };
  return applyEdits({ problems: { [number]: problem } }, number, "changing the pieces");
}

// A piece's box in the problem's list (puzzle.js): its copies editable, and a button
// that takes it out of the problem.
function workshopPiece(box, k, piece) {
  const input = document.createElement("input");
  input.value = piece.count;
  input.className = "copies";
  input.title = "copies: a number, or a range LO..HI";
  input.onchange = () => guarded(() => changePiece(k, (parts) => {
    [parts[k].lo, parts[k].hi] = copies(input.value);
  }));
  const remove = document.createElement("button");
  remove.className = "remove";
  remove.textContent = "✕";
  remove.title = "take this piece out of the problem";
  remove.onclick = () => guarded(() => changePiece(k, (parts) => parts.splice(k, 1)));
  box.querySelector(".count").replaceWith(input);
  box.append(remove);
}

// The workshop's part of the panel, for the puzzle and problem shown.
function workshopShow() {
  const puzzle = burr.puzzle;
  if (!puzzle) return;
  const problem = puzzle.problems[burr.problem];
  $("problem-name").value = problem ? problem.name : "";
  for (const id of ["problem-name", "problem-result", "problem-add", "problem-new"]) $(id).disabled = !problem;
  const result = $("problem-result"), shapes = $("problem-shape");
  result.replaceChildren();
  shapes.replaceChildren();
  puzzle.shapes.forEach((shape, k) => {
    for (const select of [result, shapes]) {
      const option = document.createElement("option");
      option.value = k;
      option.textContent = `${k + 1}. ${shape.label}`;
      select.append(option);
    }
  });
  if (problem) result.value = problem.result;
  const list = $("shape-list");
  list.replaceChildren();
  puzzle.shapes.forEach((shape, k) => {
    const box = document.createElement("div");
    box.className = shop.editing === k && !$("shape-box").hidden ? "piece chosen" : "piece";
    box.dataset.shape = k;
    box.title = shape.states === null ? "too large to edit here" : "edit this shape";
    box.innerHTML = `<div class="voxels">${shapePicture(k, 120)}</div><span class="name">${escaped(`${k + 1}. ${shape.label}`)}</span>`
      + `<span class="hint">${shape.size.join("×")}${shape.weight > 1 ? `, weight ${shape.weight}` : ""}</span>`;
    if (shape.states !== null) box.onclick = () => openShape(k);
    list.append(box);
  });
  $("puzzle-save").disabled = false;
}

// ----- the shape editor -----

function shapeChanged() {
  if (shop.tools) shop.tools.update();
  const editor = shop.editor;
  if (!editor) return;
  let filled = 0, variable = 0;
  for (const rows of editor.layers) for (const row of rows) for (const v of row) { filled += v === 1; variable += v === 2; }
  $("shape-about").textContent = `${editor.width}×${editor.height}×${editor.depth}: ${plural(filled, "filled voxel")}`
    + (variable ? `, ${variable} variable` : "");
  $("shape-box").dataset.filled = filled;
  $("shape-box").dataset.variable = variable;
}

function shapeEditor() {
  if (!shop.editor) {
    shop.editor = new Editor($("shape-editor"), 22, shapeChanged);
    shop.tools = editorTools(shop.editor, "shape", { size: true, states: true, basics: true, layers: true, transforms: true, most: SHAPE_SIDE });
    $("shape-tools").replaceChildren(shop.tools);
  }
  return shop.editor;
}

// Edit shape k (null: a new shape, a 2x2x2 box empty).
function openShape(k) {
  const editor = shapeEditor();
  shop.editing = k;
  const shape = k === null ? null : burr.puzzle.shapes[k];
  const [grid, layers] = shape ? editGrid(shape.size, shape.states) : editGrid([2, 2, 2], "________");
  editor.undo = [];
  editor.layer = 0;
  editor.set(grid, layers, false);
  $("shape-box").dataset.grid = grid;
  $("shape-name").value = shape ? shape.name : `shape ${burr.puzzle.shapes.length + 1}`;
  $("shape-keep").disabled = k === null;
  $("shape-box").hidden = false;
  $("shape-box").dataset.editing = k === null ? "new" : k;
  shapeChanged();
  for (const box of document.querySelectorAll("#shape-list .piece")) box.classList.toggle("chosen", Number(box.dataset.shape) === k);
  $("shape-box").scrollIntoView({ block: "nearest" });
}

function drawnShape() {
  const editor = shop.editor;
  const { size, states } = editorStates(editor);
  if (size[0] * size[1] * size[2] > SHAPE_VOLUME) {
    throw Object.assign(new Error(), { info: { message: `a shape's box holds at most ${SHAPE_VOLUME.toLocaleString("en-US")} voxels` } });
  }
  return { name: $("shape-name").value.trim(), size, states };
}

async function keepShape(asNew) {
  const shape = drawnShape();
  const k = shop.editing;
  if (asNew || k === null) {
    const number = burr.puzzle.shapes.length;
    await applyEdits({ newShape: shape }, burr.problem, `adding the shape ${shape.name || number + 1}`);
    shop.editing = number;
  } else {
    await applyEdits({ shapes: { [k]: { from: k, ...shape } } }, burr.problem, `changing the shape ${shape.name || k + 1}`);
  }
  $("shape-keep").disabled = false;
  $("shape-box").dataset.editing = shop.editing;
  for (const box of document.querySelectorAll("#shape-list .piece")) box.classList.toggle("chosen", Number(box.dataset.shape) === shop.editing);
}

// ----- the problem -----

function changeProblem(fields, what) {
  const number = burr.problem;
  const problem = burr.puzzle.problems[number];
  const changed = { from: number, name: problem.name, result: problem.result, parts: problemParts(number), ...fields };
  return applyEdits({ problems: { [number]: changed } }, number, what);
}

function newProblem() {
  const number = burr.problem;
  const problem = burr.puzzle.problems[number];
  const made = { name: `${problem.label} (2)`, result: problem.result, parts: problemParts(number) };
  return applyEdits({ newProblem: made }, burr.puzzle.problems.length, "making a new problem");
}

// ----- saving -----

// The puzzle as a file: the last assemble run of the problem shown, when it took every
// assembly apart and is of this very puzzle, gives the file with that problem solved.
async function savePuzzle() {
  const puzzle = burr.puzzle;
  const run = burr.run;
  let query = "";
  if (run && run.takeApart && run.finished && run.puzzle === puzzle.id) query = `?run=${run.id}`;
  const response = await fetch(withToken(`api/puzzles/${puzzle.id}/save${query}`));
  if (!response.ok) {
    const body = await response.json().catch(() => ({}));
    throw Object.assign(new Error(), { info: body.error || { message: `saving failed (${response.status})` } });
  }
  const name = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") || "");
  const solved = query ? ` with the ${plural(run.solved, "solution")} of ${puzzle.problems[run.problem].label}` : "";
  workshopSay(`Saved${solved}.`);
  save(await response.blob(), name ? name[1] : "puzzle.xmpuzzle");
}

// A new puzzle, on the board's grid where the workshop plays puzzles of it (GRIDS' plays:
// triangular prisms, whose box of voxels is all cells, by BurrTools' number), else on
// cubes (BurrTools' grid 0; the other grids' puzzles are opened from files): a unit
// piece and a 2x2x2 result, one problem of eight pieces, to change from there.
async function newPuzzle() {
  const board = GRIDS[state.grid];
  const grid = board.plays && board.burrtools !== null ? board.burrtools : 0;
  const edits = {
    base: null,
    name: "new.xmpuzzle",
    grid,
    shapes: [
      { name: "piece 1", size: [1, 1, 1], states: "#" },
      { name: "result", size: [2, 2, 2], states: "########" },
    ],
    problems: [{ name: "problem 1", result: 1, parts: [{ shape: 0, lo: 8, hi: 8 }] }],
  };
  const made = await api("POST", "api/puzzles", edits);
  showPuzzle(made.puzzle);
  openShape(0);
}

// The design on the page (squares or cubes) as a BurrTools file: downloaded, or opened
// in the workshop (as a file would be).
async function designFile() {
  const response = await fetch(withToken("api/export/xmpuzzle"), {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(design()),
  });
  if (!response.ok) {
    const body = await response.json().catch(() => ({}));
    throw Object.assign(new Error(), { info: body.error || { message: `the export failed (${response.status})` } });
  }
  return response.blob();
}

async function exportXmpuzzle() {
  save(await designFile(), "design.xmpuzzle");
}

async function designInWorkshop() {
  await importFile(new File([await designFile()], "design.xmpuzzle"));
}

function wireWorkshop() {
  $("export-xmpuzzle").onclick = () => guarded(exportXmpuzzle);
  $("design-workshop").onclick = () => guarded(designInWorkshop);
  $("new-puzzle").onclick = () => guarded(newPuzzle);
  $("shape-new").onclick = () => openShape(null);
  $("shape-close").onclick = () => {
    $("shape-box").hidden = true;
    for (const box of document.querySelectorAll("#shape-list .piece")) box.classList.remove("chosen");
  };
  $("shape-keep").onclick = () => guarded(() => keepShape(false));
  $("shape-copy").onclick = () => guarded(() => keepShape(true));
  $("problem-name").onchange = () => guarded(() => changeProblem({ name: $("problem-name").value.trim() }, "renaming the problem"));
  $("problem-result").onchange = () => guarded(() => changeProblem({ result: Number($("problem-result").value) }, "changing the result"));
  $("problem-add").onclick = () => guarded(() => {
    const parts = problemParts(burr.problem);
    parts.push({ shape: Number($("problem-shape").value), lo: 1, hi: 1 });
    return changeProblem({ parts }, "adding the piece");
  });
  $("problem-new").onclick = () => guarded(newProblem);
  $("puzzle-save").onclick = () => guarded(savePuzzle);
}

wireWorkshop();
