// The panel "BurrTools puzzle": a BurrTools .xmpuzzle file opened (the picker, a file
// dropped on the page, or the command line), as the server describes it
// (excover.studio.burrtools): its grid, its problems (a chooser when there are several),
// each problem's pieces with their counts or ranges, its result (filled and variable
// voxels), the solutions stored in the file (each played as the file separates it), and
// the run "assemble" (every assembly, each taken apart, with its progress, time limit and
// Cancel), whose assemblies are listed and played in the 3D view by the disassembly
// player of the Solve panel. It uses the page's own helpers (studio.js: api, guarded,
// solidView, disassemblyPlayer, duration, Follower, ...).
"use strict";

const burr = {
  puzzle: null,   // the puzzle shown: the server's summary, with its id
  problem: 0,     // the problem shown (from 0)
  job: null,      // {id, events, followed, run} of the assemble run going on (Follower)
  run: null,      // {id, problem, takeApart, entries, found, ...} of the last assemble run
  played: null,   // what the 3D view plays: "stored K" or "found K"
};

// The most assemblies listed at once (the run counts them all).
const LISTED = 200;

function plural(count, word, words = `${word}s`) {
  return `${count.toLocaleString("en-US")} ${count === 1 ? word : words}`;
}

// A shape's voxels (layers, bottom first, of rows of "*" filled, "+" variable, "."
// empty) as one SVG picture: the layers side by side, `size` pixels a voxel.
function voxelsSvg(layers, size) {
  const width = layers[0][0].length * size, height = layers[0].length * size, gap = 5;
  const parts = layers.map((rows, z) => {
    const cells = [];
    rows.forEach((row, y) => [...row].forEach((c, x) => {
      if (c === ".") return;
      const variable = c === "+";
      cells.push(`<rect x="${x * size + 0.5}" y="${y * size + 0.5}" width="${size - 1}" height="${size - 1}"`
        + ` fill="${variable ? "#dfe6f5" : "#5d6f99"}"${variable ? ' stroke="#7b8bb0" stroke-dasharray="2 1.5" class="variable"' : ' class="filled"'}/>`);
    }));
    return `<g transform="translate(${z * (width + gap)},0)"><rect width="${width}" height="${height}" fill="#eef0f5"/>${cells.join("")}</g>`;
  });
  const total = layers.length * (width + gap) - gap;
  return `<svg xmlns="${SVG}" width="${total}" height="${height}">${parts.join("")}</svg>`;
}

// The picture of shape `number` (or why there is none), at most `most` pixels wide.
function shapePicture(number, most) {
  const shape = burr.puzzle.shapes[number];
  if (!shape.layers) {
    const why = shape.filled + shape.variable === 0 ? "no voxel" : "too large to draw";
    return `<span class="hint">${shape.size.join("x")}: ${why}</span>`;
  }
  const [w, h, d] = shape.box;
  const size = Math.max(3, Math.min(12, Math.floor((most - 5 * (d - 1)) / (w * d)), Math.floor(160 / h)));
  return voxelsSvg(shape.layers, size);
}

// Show a puzzle the server has read (`puzzle`: its summary): the panel opens on its
// problem `problem` (the first by default), scrolled into view unless `quiet` (a puzzle
// made again from the workshop's edits).
function showPuzzle(puzzle, problem = 0, quiet = false) {
  if (!quiet && burr.puzzle !== puzzle) $("shape-box").hidden = true; // a shape of another puzzle
  burr.puzzle = puzzle;
  burr.run = null;
  $("puzzle-panel").hidden = false;
  $("puzzle-name").textContent = puzzle.name;
  const facts = [`the grid of ${puzzle.grid_name}`, plural(puzzle.shapes.length, "shape"), plural(puzzle.problems.length, "problem")];
  if (!puzzle.playable) facts.push("its assemblies are listed, not taken apart (the disassembler moves pieces on cubes and prisms)");
  $("puzzle-about").textContent = `${facts.join(" · ")}.${puzzle.comment ? ` ${puzzle.comment}` : ""}`;
  $("puzzle-about").dataset.grid = puzzle.grid;
  const select = $("puzzle-problem");
  select.replaceChildren();
  puzzle.problems.forEach((problem, k) => {
    const option = document.createElement("option");
    option.value = k;
    option.textContent = `${k + 1}. ${problem.label}`;
    select.appendChild(option);
  });
  select.parentElement.hidden = puzzle.problems.length < 2;
  $("puzzle-panel").dataset.puzzle = puzzle.id;
  showProblem(Math.min(problem, Math.max(puzzle.problems.length - 1, 0)));
  if (!quiet) $("puzzle-panel").scrollIntoView({ block: "start" });
}

function closePuzzle() {
  if (burr.job) guarded(() => assembleRuns.cancel());
  burr.puzzle = burr.run = null;
  clearPlayed();
  $("puzzle-panel").hidden = true;
  delete $("puzzle-panel").dataset.puzzle;
}

// Show problem k of the puzzle: its pieces, result, figures and stored solutions; the
// assemblies and the 3D view are those of another problem, so they go.
function showProblem(k) {
  const puzzle = burr.puzzle;
  if (burr.job) guarded(() => assembleRuns.cancel()); // a run of another problem, or of another puzzle
  burr.problem = k;
  $("puzzle-problem").value = k;
  clearPlayed();
  burr.run = null;
  $("puzzle-assemblies").replaceChildren();
  $("puzzle-order-row").hidden = true;
  $("puzzle-progress").value = 0;
  $("puzzle-status").textContent = "";
  const problem = puzzle.problems[k];
  if (!problem) {
    $("puzzle-problem-about").textContent = "The file has no problem: nothing to assemble.";
    for (const id of ["puzzle-pieces", "puzzle-result", "puzzle-stored"]) $(id).replaceChildren();
    $("puzzle-assemble").disabled = true;
    if (typeof workshopShow === "function") workshopShow();
    return;
  }
  $("puzzle-assemble").disabled = Boolean(burr.job); // until a run of another problem has stopped

  const lines = [`${problem.piece_count} pieces of ${plural(problem.pieces.length, "shape")}, ${problem.piece_voxels} voxels in all;`
    + ` the result ${puzzle.shapes[problem.result].label}: ${plural(problem.result_filled, "filled voxel")}`
    + (problem.result_variable ? ` and ${problem.result_variable} variable` : "") + "."];
  if (problem.colour_constraints) lines.push("Colour constraints apply.");
  if (problem.max_holes !== null) lines.push(`At most ${plural(problem.max_holes, "hole")}.`);
  if (problem.state === 2 && problem.assemblies !== null) {
    lines.push(`The file says: ${plural(problem.assemblies, "assembly", "assemblies")}, ${plural(problem.solutions ?? 0, "solution")}.`);
  } else if (problem.state === 1) lines.push("The file's search was interrupted.");
  $("puzzle-problem-about").textContent = lines.join(" ");
  const pieces = $("puzzle-pieces");
  pieces.replaceChildren();
  problem.pieces.forEach((piece, k) => {
    const box = document.createElement("div");
    box.className = "piece";
    box.dataset.shape = piece.shape;
    box.innerHTML = `<div class="voxels">${shapePicture(piece.shape, 150)}</div>`
      + `<span class="name">${escaped(piece.label)}</span><span class="count" title="how many copies: a number, or a range">${piece.count === "1" ? "1 copy" : `${piece.count} copies`}</span>`;
    if (typeof workshopPiece === "function") workshopPiece(box, k, piece);
    pieces.appendChild(box);
  });
  $("puzzle-result").innerHTML = `<div class="voxels">${shapePicture(problem.result, 560)}</div>`;
  showStored(problem);
  if (typeof workshopShow === "function") workshopShow();
}

function escaped(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

// The solutions the file stores for the problem, each with its level when the server
// measured it; a click plays one.
function showStored(problem) {
  const list = $("puzzle-stored");
  list.replaceChildren();
  if (!problem.stored_count) {
    const item = document.createElement("li");
    item.className = "hint";
    item.textContent = "none";
    list.appendChild(item);
    return;
  }
  for (const stored of problem.stored) {
    const item = document.createElement("li");
    item.dataset.index = stored.number;
    const measured = stored.fault ? `its separation does not hold: ${stored.fault}`
      : stored.level !== null ? `level ${stored.level}, ${plural(stored.total, "move")}`
      : stored.separation ? "with its disassembly" : "no disassembly stored";
    const of = stored.assembly !== null ? ` (assembly ${stored.assembly + 1})` : "";
    item.innerHTML = `<span class="rank">${stored.number + 1}.</span><span>${escaped(measured)}${of}</span>`;
    if (stored.separation && burr.puzzle.playable && !stored.fault) {
      item.title = "play it as the file separates it";
      item.onclick = () => guarded(() => playStored(stored.number, item));
    }
    list.appendChild(item);
  }
  if (problem.stored_count > problem.stored.length) {
    const item = document.createElement("li");
    item.className = "hint";
    item.textContent = `… and ${problem.stored_count - problem.stored.length} more`;
    list.appendChild(item);
  }
}

// ----- the assemble run -----

function assembleRunning(on) {
  $("puzzle-assemble").disabled = on;
  $("puzzle-cancel").disabled = !on;
}

// The assemble runs, followed as the Solve panel follows its runs.
const assembleRuns = new Follower(burr, "puzzle-status", assembleRunning, assembleHandle);

async function startAssembling() {
  const puzzle = burr.puzzle;
  const body = { task: "assemble", puzzle: puzzle.id, problem: burr.problem, take_apart: $("puzzle-take-apart").checked, settings: {} };
  const seconds = Number($("puzzle-seconds").value);
  if ($("puzzle-seconds").value && seconds > 0) body.settings.seconds = seconds;
  const { id } = await api("POST", "api/jobs", body);
  burr.run = { id, puzzle: puzzle.id, problem: burr.problem, takeApart: body.take_apart, finished: false, entries: [], found: 0, solved: 0, stuck: 0, unknown: 0 };
  $("puzzle-assemblies").replaceChildren();
  $("puzzle-order-row").hidden = !body.take_apart;
  $("puzzle-order").value = body.take_apart ? "solutions" : "found";
  burr.what = "starting"; // until the run says what it does
  assembleRuns.start(id, { run: burr.run });
  delete $("puzzle-status").dataset.done;
}

// The counts of a run so far, in words.
function assembledText(run) {
  const parts = [plural(run.found, "assembly", "assemblies")];
  if (run.takeApart) {
    parts.push(`${run.solved.toLocaleString("en-US")} come${run.solved === 1 ? "s" : ""} apart (solutions)`);
    if (run.stuck) parts.push(`${run.stuck.toLocaleString("en-US")} do not`);
    if (run.unknown) parts.push(`${run.unknown.toLocaleString("en-US")} unknown (a limit reached)`);
  }
  return parts.join(" · ");
}

let listTimer = null;

function assembleHandle(event) {
  const job = burr.job;
  if (!job) return;
  const run = job.run;
  const progress = $("puzzle-progress");
  const seconds = `${event.elapsed.toFixed(1)} s`;
  if (burr.run !== run) { // the page shows another problem or puzzle since: only the end matters
    if (!["solving", "assemblies", "tick"].includes(event.type)) assembleRuns.finish();
    return;
  }
  if (event.type === "solving") {
    progress.removeAttribute("value");
    burr.what = event.what + (event.note ? ` (${event.note})` : "");
    $("puzzle-status").textContent = `${burr.what}… (${seconds})`;
  } else if (event.type === "assemblies") {
    run.entries.push(...event.batch);
    Object.assign(run, { found: event.found, solved: event.solved, stuck: event.stuck, unknown: event.unknown });
    burr.what = null;
    $("puzzle-status").textContent = `${assembledText(run)} so far (${seconds})`;
    if (listTimer === null) listTimer = setTimeout(() => { listTimer = null; drawAssemblies(); }, 250);
  } else if (event.type === "tick") {
    $("puzzle-status").textContent = burr.what ? `${burr.what}… (${seconds})` : `${assembledText(run)} so far (${seconds})`;
  } else {
    assembleRuns.finish();
    burr.what = null;
    progress.value = event.type === "result" ? 1 : 0;
    if (event.type === "result") {
      Object.assign(run, { found: event.found, solved: event.solved, stuck: event.stuck, unknown: event.unknown, finished: true });
      const longest = event.maximum ? `, stopped by the studio's longest run time, ${duration(event.maximum)}` : "";
      const stopped = longest || (event.stopped_by === "timeout" ? ", stopped by the time limit (the counts are those found so far)" : "");
      const kept = event.kept < event.found ? ` The first ${event.kept.toLocaleString("en-US")} are kept to play.` : "";
      const note = event.note ? ` (${event.note})` : "";
      $("puzzle-status").textContent = `Done in ${seconds}${stopped}: ${assembledText(run)}.${note}${kept}`;
      $("puzzle-status").dataset.done = event.found;
      $("puzzle-status").dataset.solved = event.solved;
    } else if (event.type === "cancelled") {
      $("puzzle-status").textContent = `${event.message ? `Stopped after ${seconds}: ${event.message}` : `Cancelled after ${seconds}`}; ${assembledText(run)} found by then.`;
    } else {
      $("puzzle-status").textContent = "Stopped by an error.";
      showError({ message: event.message });
    }
    clearTimeout(listTimer);
    listTimer = null;
    drawAssemblies();
  }
}

// BurrTools' order of difficulty: the moves of each separation in pre-order, compared
// as sequences (larger is harder).
function harder(a, b) {
  const [x, y] = [a.key || [], b.key || []];
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return y[i] - x[i];
  return y.length - x.length || a.index - b.index;
}

function entryText(entry) {
  if (entry.status === undefined) return `${entry.pieces} pieces`;
  if (entry.status === "solved") return `level ${entry.level}, ${plural(entry.total, "move")}${entry.beyond_greedy ? " (beyond BurrTools' greedy search)" : ""}`;
  if (entry.status === "stuck") return "does not come apart";
  return `unknown: ${entry.reason || "a limit reached"}`;
}

// The assemblies of the last run, as the chooser says: the solutions hardest first, or
// every assembly in the order found; at most LISTED of them. A click plays one.
function drawAssemblies() {
  const run = burr.run;
  const list = $("puzzle-assemblies");
  list.replaceChildren();
  if (!run) return;
  let entries = run.entries;
  if ($("puzzle-order").value === "solutions" && run.takeApart) entries = entries.filter((e) => e.status === "solved").sort(harder);
  for (const entry of entries.slice(0, LISTED)) {
    const item = document.createElement("li");
    item.dataset.index = entry.index;
    item.dataset.status = entry.status || "";
    item.innerHTML = `<span class="rank">#${entry.index + 1}</span><span>${escaped(entryText(entry))}</span>`;
    if (burr.puzzle && burr.puzzle.playable) {
      item.title = "take it apart and play it";
      item.onclick = () => guarded(() => playFound(entry.index, item));
    }
    if (burr.played === `found ${entry.index}`) item.classList.add("chosen");
    list.appendChild(item);
  }
  if (entries.length > LISTED) {
    const item = document.createElement("li");
    item.className = "hint";
    item.textContent = `… and ${(entries.length - LISTED).toLocaleString("en-US")} more`;
    list.appendChild(item);
  }
}

// ----- playing an assembly or a stored solution -----

function clearPlayed() {
  burr.played = null;
  $("puzzle-caption").textContent = "";
  $("puzzle-view").replaceChildren();
  $("puzzle-legend").replaceChildren();
  for (const item of document.querySelectorAll("#puzzle-stored li, #puzzle-assemblies li")) item.classList.remove("chosen");
}

function bounds() {
  const seconds = Number($("puzzle-seconds").value);
  return $("puzzle-seconds").value && seconds > 0 ? { seconds } : {};
}

async function playStored(number, item) {
  const puzzle = burr.puzzle, problem = burr.problem;
  await played(`stored ${number}`, item, `Stored solution ${number + 1}, as the file separates it:`,
    () => api("POST", `api/puzzles/${puzzle.id}/${problem}/stored/${number}/play`, {}));
}

async function playFound(index, item) {
  const run = burr.run;
  await played(`found ${index}`, item, `Assembly #${index + 1}, taken apart:`,
    () => api("POST", `api/assemblies/${run.id}/${index}/play`, bounds()));
}

// Ask the server for a disassembly (`ask`) and play it in the 3D view, with a legend
// of the pieces' colours.
async function played(what, item, caption, ask) {
  const puzzle = burr.puzzle, problem = burr.problem;
  clearPlayed();
  burr.played = what;
  item.classList.add("chosen");
  $("puzzle-caption").textContent = `${caption} taking it apart…`;
  let found;
  try {
    found = await ask();
  } catch (error) {
    if (burr.played === what) $("puzzle-caption").textContent = "";
    throw error;
  }
  if (burr.played !== what || burr.puzzle !== puzzle || burr.problem !== problem) return; // another was asked since
  $("puzzle-caption").textContent = caption;
  const shown = solidView(found.solid);
  shown.querySelector("#explode").id = "puzzle-explode";
  const player = disassemblyPlayer(shown, "puzzle", ", ");
  player.title = `${puzzle.name}, ${puzzle.problems[problem].label}: ${caption.replace(/:$/, "")}`;
  shown.append(player);
  $("puzzle-view").replaceChildren(shown);
  player.load(found);
  $("puzzle-legend").innerHTML = found.names.map((name, k) => `<span style="--swatch: ${found.colours[k]}">${escaped(name)}</span>`).join("");
}

function wirePuzzle() {
  $("puzzle-close").onclick = closePuzzle;
  $("puzzle-problem").onchange = () => showProblem(Number($("puzzle-problem").value));
  $("puzzle-assemble").onclick = () => guarded(startAssembling);
  $("puzzle-cancel").onclick = () => guarded(() => assembleRuns.cancel());
  $("puzzle-order").onchange = drawAssemblies;
}

wirePuzzle();
