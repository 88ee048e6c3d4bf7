// The studio's page: a board editor, the pieces of the catalog, and the runs of the
// server (first solution, count, count up to symmetry) with their progress and Cancel.
// Every request carries the run's token; the server checks each design it is sent.
"use strict";

const TOKEN = document.querySelector('meta[name="studio-token"]').content;
const $ = (id) => document.getElementById(id);

const state = {
  board: [],          // rows, top first, of booleans (true: a cell of the board)
  undo: [],           // earlier boards, for Undo
  families: [],       // [{name, pieces: [{name, cells}]}] from the server
  pieces: new Map(),  // name -> {cells, count, symmetry} of every piece shown
  job: null,          // {id, events} of the run going on
};

// ----- talking to the server -----

async function api(method, path, body, raw) {
  const options = { method, headers: { "X-Studio-Token": TOKEN } };
  if (body !== undefined) {
    options.body = raw ? body : JSON.stringify(body);
    options.headers["Content-Type"] = raw ? "text/plain" : "application/json";
  }
  const response = await fetch(path, options);
  const type = response.headers.get("Content-Type") || "";
  const data = type.includes("json") ? await response.json() : await response.text();
  if (!response.ok) {
    throw Object.assign(new Error("request failed"), { info: data.error || { message: String(data) } });
  }
  return data;
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

// ----- the board -----

function makeBoard(width, height, value) {
  return Array.from({ length: height }, () => Array(width).fill(value));
}

function sizeInputs() {
  const clamp = (v) => Math.max(1, Math.min(64, Math.floor(Number(v)) || 1));
  return [clamp($("board-width").value), clamp($("board-height").value)];
}

function remember() {
  state.undo.push(state.board.map((row) => row.slice()));
  if (state.undo.length > 200) state.undo.shift();
  $("undo").disabled = false;
}

function setBoard(board, keep) {
  if (keep) remember();
  state.board = board;
  $("board-width").value = board[0].length;
  $("board-height").value = board.length;
  drawBoard();
}

function drawBoard() {
  const element = $("board");
  const width = state.board[0].length;
  element.style.gridTemplateColumns = `repeat(${width}, var(--cell))`;
  element.replaceChildren();
  state.board.forEach((row, y) => row.forEach((on, x) => {
    const cell = document.createElement("div");
    cell.className = on ? "cell on" : "cell";
    cell.dataset.x = x;
    cell.dataset.y = y;
    element.appendChild(cell);
  }));
  summarize();
}

let painting = null; // the value a drag gives the cells it passes over

function paint(cell) {
  const x = Number(cell.dataset.x), y = Number(cell.dataset.y);
  if (state.board[y][x] === painting) return;
  state.board[y][x] = painting;
  cell.className = painting ? "cell on" : "cell";
  summarize();
}

function boardEvents() {
  const element = $("board");
  element.addEventListener("pointerdown", (event) => {
    const cell = event.target.closest(".cell");
    if (!cell) return;
    remember();
    painting = !state.board[Number(cell.dataset.y)][Number(cell.dataset.x)];
    paint(cell);
    event.preventDefault();
  });
  element.addEventListener("pointerover", (event) => {
    const cell = event.target.closest(".cell");
    if (cell && painting !== null && event.buttons) paint(cell);
  });
  document.addEventListener("pointerup", () => { painting = null; });
}

function boardRows() {
  return state.board.map((row) => row.map((on) => (on ? "*" : ".")).join(""));
}

function cellCount(rows) {
  return rows.reduce((n, row) => n + [...row].filter((c) => c === "*").length, 0);
}

// ----- the pieces -----

function pieceSvg(cells, size) {
  const height = cells.length, width = cells[0].length;
  const parts = [];
  cells.forEach((row, y) => [...row].forEach((c, x) => {
    if (c === "*") parts.push(`<rect x="${x * size + 1}" y="${y * size + 1}" width="${size - 1}" height="${size - 1}"/>`);
  }));
  return `<svg width="${width * size + 2}" height="${height * size + 2}" fill="#5d6f99">${parts.join("")}</svg>`;
}

function isUsed(count) {
  return count !== "" && count !== "0" && count !== "0..0";
}

function symmetry() {
  return $("reflections").checked ? "all" : "rotations";
}

function addPiece(name, cells, count, sym) {
  state.pieces.set(name, { cells, count: count || "0", symmetry: sym || symmetry() });
}

function drawPieces() {
  const family = state.families.find((f) => f.name === $("family").value);
  const element = $("pieces");
  element.replaceChildren();
  if (!family) return;
  for (const { name } of family.pieces) {
    const piece = state.pieces.get(name);
    const box = document.createElement("div");
    box.className = isUsed(piece.count) ? "piece used" : "piece";
    box.dataset.name = name;
    box.innerHTML = pieceSvg(piece.cells, 10) + `<span class="name">${name}</span>`;
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
  for (const family of state.families) {
    const option = document.createElement("option");
    option.value = option.textContent = family.name;
    select.appendChild(option);
  }
  select.value = selected || select.value;
  drawPieces();
}

function usedPieces() {
  const used = [];
  for (const [name, piece] of state.pieces) {
    if (isUsed(piece.count)) used.push({ name, cells: piece.cells, count: piece.count, symmetry: piece.symmetry });
  }
  return used;
}

function design() {
  return { board: boardRows(), pieces: usedPieces() };
}

function summarize() {
  const pieces = usedPieces();
  const exact = pieces.every((p) => /^\d+$/.test(p.count));
  const area = pieces.reduce((n, p) => n + cellCount(p.cells) * (exact ? Number(p.count) : 0), 0);
  const cells = cellCount(boardRows());
  const names = pieces.length === 1 ? "1 piece" : `${pieces.length} pieces`;
  const covered = exact ? `, ${area} cells in all` : "";
  $("summary").textContent = `Board: ${cells} cells. ${names} chosen${covered}.`;
}

function loadDesign(loaded, name) {
  const known = new Set(state.families.flatMap((f) => f.pieces.map((p) => p.name)));
  for (const piece of state.pieces.values()) piece.count = "0";
  const extra = [];
  for (const piece of loaded.pieces) {
    const same = state.pieces.get(piece.name);
    if (known.has(piece.name) && same && same.cells.join("/") === piece.cells.join("/")) {
      Object.assign(same, { count: piece.count, symmetry: piece.symmetry });
    } else {
      addPiece(piece.name, piece.cells, piece.count, piece.symmetry);
      extra.push({ name: piece.name, cells: piece.cells });
    }
  }
  state.families = state.families.filter((f) => f.name !== "from the file");
  if (extra.length) state.families.push({ name: "from the file", pieces: extra });
  $("reflections").checked = loaded.pieces.every((p) => p.symmetry === "all");
  setBoard(loaded.board.map((row) => [...row].map((c) => c === "*")), true);
  drawFamilies(extra.length ? "from the file" : undefined);
  $("file-name").textContent = name || "";
}

// ----- runs -----

function running(on) {
  for (const id of ["solve-first", "count", "count-symmetry"]) $(id).disabled = on;
  $("cancel").disabled = !on;
}

async function run(task) {
  const { id } = await api("POST", "api/jobs", { design: design(), task });
  if (task === "first") {
    $("solution-caption").textContent = "";
    $("solution").replaceChildren();
  } else {
    $("result-count").textContent = "";
    $("result-count").removeAttribute("data-count");
  }
  const events = new EventSource(`api/jobs/${id}/events?token=${encodeURIComponent(TOKEN)}`);
  state.job = { id, events };
  running(true);
  $("status").textContent = "starting…";
  events.onmessage = (message) => handle(JSON.parse(message.data));
  events.onerror = () => {
    if (state.job && state.job.id === id) finish();
  };
}

function finish() {
  if (state.job) state.job.events.close();
  state.job = null;
  running(false);
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
  } else if (event.type === "tick") {
    if (state.what) $("status").textContent = `${state.what}… (${seconds})`;
  } else {
    finish();
    state.what = null;
    progress.max = 1;
    progress.value = event.type === "result" ? 1 : 0;
    if (event.type === "result") showResult(event, seconds);
    else if (event.type === "cancelled") $("status").textContent = `Cancelled after ${seconds}.`;
    else {
      $("status").textContent = "Stopped by an error.";
      showError({ message: event.message });
    }
  }
}

function showResult(event, seconds) {
  $("status").textContent = `Done in ${seconds}.` + (event.obstruction ? ` ${event.obstruction}` : "");
  if (event.task === "first") {
    $("solution-caption").textContent = event.found ? "A solution:" : "No solution.";
    $("solution").innerHTML = event.found ? event.svg : "";
    const link = $("download-svg");
    link.hidden = !event.found;
    if (event.found) link.href = URL.createObjectURL(new Blob([event.svg], { type: "image/svg+xml" }));
    return;
  }
  const count = BigInt(event.count);
  const what = event.task === "count" ? "solutions" : "solutions up to symmetry";
  $("result-count").dataset.count = event.count;
  $("result-count").textContent = `${count.toLocaleString("en-US")} ${what}`;
}

async function cancel() {
  const job = state.job;
  if (!job) return;
  $("status").textContent = "cancelling…";
  try {
    await api("POST", `api/jobs/${job.id}/cancel`);
  } catch (error) {
    if (state.job === job) throw error; // else the run ended meanwhile: nothing to stop
  }
}

// ----- files -----

async function exportProgram() {
  const text = await api("POST", "api/export", design());
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  link.download = "puzzle.cmb";
  link.click();
}

async function importProgram(file) {
  const text = await file.text();
  const { design: loaded } = await api("POST", "api/import", text, true);
  loadDesign(loaded, file.name);
}

// ----- start -----

function wire() {
  boardEvents();
  $("new-board").onclick = () => { const [w, h] = sizeInputs(); setBoard(makeBoard(w, h, true), true); };
  $("resize-board").onclick = () => {
    const [w, h] = sizeInputs();
    setBoard(Array.from({ length: h }, (_, y) => Array.from({ length: w }, (_, x) => Boolean(state.board[y] && state.board[y][x]))), true);
  };
  $("fill-board").onclick = () => setBoard(state.board.map((row) => row.map(() => true)), true);
  $("clear-board").onclick = () => setBoard(state.board.map((row) => row.map(() => false)), true);
  $("undo").onclick = () => {
    if (state.undo.length) setBoard(state.undo.pop(), false);
    $("undo").disabled = state.undo.length === 0;
  };
  $("family").onchange = () => drawPieces();
  $("select-family").onclick = () => {
    const family = state.families.find((f) => f.name === $("family").value);
    for (const { name } of family.pieces) state.pieces.get(name).count = "1";
    drawPieces();
    summarize();
  };
  $("clear-pieces").onclick = () => {
    for (const piece of state.pieces.values()) piece.count = "0";
    drawPieces();
    summarize();
  };
  $("reflections").onchange = () => {
    for (const piece of state.pieces.values()) piece.symmetry = symmetry();
  };
  $("solve-first").onclick = () => guarded(() => run("first"));
  $("count").onclick = () => guarded(() => run("count"));
  $("count-symmetry").onclick = () => guarded(() => run("count_symmetry"));
  $("cancel").onclick = () => guarded(cancel);
  $("export").onclick = () => guarded(exportProgram);
  $("import").onchange = (event) => {
    const file = event.target.files[0];
    event.target.value = "";
    if (file) guarded(() => importProgram(file));
  };
}

async function start() {
  wire();
  const { families } = await api("GET", "api/catalog");
  state.families = families;
  for (const family of families) for (const piece of family.pieces) addPiece(piece.name, piece.cells, "0");
  const pentominoes = families.find((f) => f.name === "pentominoes");
  drawFamilies(pentominoes ? pentominoes.name : undefined);
  setBoard(makeBoard(...sizeInputs(), true), false);
  const initial = await api("GET", "api/initial");
  if (initial.design) loadDesign(initial.design, initial.name);
  document.body.dataset.ready = "true";
}

guarded(start);
