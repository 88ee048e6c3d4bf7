// The panel "Which pieces?": a design search over the pieces chosen and the board on the
// page (the server's task "design_search", excover.studio.design_search): which sets of k
// of the pieces fill the board with exactly one solution (or at most N, or any), its
// progress, Cancel, and the list of the designs found; a click on one loads it (the board
// and just its pieces) as the design on the page. It uses the page's own helpers
// (studio.js: api, design, loadDesign, pieceSvg, guarded, Follower, ...).
"use strict";

const finder = {
  job: null,        // {id, events, followed} of the search going on (Follower)
  searched: null,   // the design (JSON) the last search was made on
  found: [],        // the designs it found, best first
};

function finderRunning(on) {
  $("search-start").disabled = on;
  $("search-cancel").disabled = !on;
}

// The searches, followed as the Solve panel follows its runs.
const finderRuns = new Follower(finder, "search-status", finderRunning, finderHandle);

// What the panel asks, as the server reads it ({"pieces": k, "solutions": ..., ...}).
function finderRequest() {
  const k = Number($("search-pieces").value);
  if (!Number.isInteger(k) || k < 1) {
    throw Object.assign(new Error(), { info: { where: "pieces in a design", message: "a whole number from 1 on" } });
  }
  const goal = $("search-goal").value;
  let solutions = goal;
  if (goal === "most") {
    solutions = Number($("search-most").value);
    if (!Number.isInteger(solutions) || solutions < 1) {
      throw Object.assign(new Error(), { info: { where: "at most", message: "a whole number of solutions from 1 on" } });
    }
  }
  const [by, order] = $("search-by").value.split(":");
  const request = { pieces: k, solutions, up_to_symmetry: $("search-symmetry").checked, by, order };
  const top = Number($("search-top").value);
  if ($("search-top").value !== "") {
    if (!Number.isInteger(top) || top < 1) {
      throw Object.assign(new Error(), { info: { where: "keep the best", message: "a whole number from 1 on, or empty for all" } });
    }
    request.top = top;
  }
  return request;
}

async function startSearch() {
  const searched = design();
  const body = { design: searched, task: "design_search", search: finderRequest(), settings: {} };
  const seconds = Number($("search-seconds").value);
  if ($("search-seconds").value && seconds > 0) body.settings.seconds = seconds;
  const { id } = await api("POST", "api/jobs", body);
  finder.searched = searched;
  finder.found = [];
  $("search-list").replaceChildren();
  $("search-summary").textContent = "";
  $("search-restore").hidden = true;
  finderRuns.start(id);
}

function finderHandle(event) {
  const progress = $("search-progress");
  const seconds = `${event.elapsed.toFixed(1)} s`;
  if (event.type === "searching") {
    finder.what = `${event.space}: ${event.goal}`;
    progress.max = Math.max(event.candidates, 1);
    progress.value = 0;
    $("search-status").textContent = `searching ${event.candidates.toLocaleString("en-US")} sets, ${finder.what}… (${seconds})`;
  } else if (event.type === "searched") {
    finder.what = null;
    progress.max = Math.max(event.total, 1);
    progress.value = event.done;
    const parts = [`${event.done.toLocaleString("en-US")} of ${event.total.toLocaleString("en-US")} designs searched`,
      `${event.qualifying.toLocaleString("en-US")} qualifying so far`, `${seconds} spent`];
    if (event.left != null && event.done < event.total) parts.push(`about ${duration(event.left)} left`);
    $("search-status").textContent = parts.join(" · ");
    $("search-status").dataset.done = event.done;
  } else if (event.type === "tick") {
    if (finder.what) $("search-status").textContent = `${finder.what}… (${seconds})`;
  } else {
    finderRuns.finish();
    finder.what = null;
    progress.value = event.type === "result" ? progress.max : 0;
    if (event.type === "result") showFound(event, seconds);
    else if (event.type === "cancelled") {
      $("search-status").textContent = event.message ? `Stopped after ${seconds}: ${event.message}.` : `Cancelled after ${seconds}.`;
    } else {
      $("search-status").textContent = "Stopped by an error.";
      showError({ message: event.message });
    }
  }
}

// The outcome of a search: what it searched, how the designs fared, and the list.
function showFound(event, seconds) {
  const report = event.report;
  const longest = event.maximum ? `, stopped by the studio's longest run time, ${duration(event.maximum)}` : "";
  const stopped = longest || (event.stopped_by === "timeout" ? ", stopped by the time limit" : "");
  $("search-status").textContent = `Done in ${seconds}${stopped}: ${report.candidates.toLocaleString("en-US")} of ${report.size.toLocaleString("en-US")} designs searched.`;
  const buckets = Object.entries(report.distribution).map(([k, n]) => `${k.endsWith("+") ? `${k.slice(0, -1)} or more` : k}: ${n}`);
  const rejected = Object.entries(report.rejected).map(([why, n]) => `${n} by ${why}`);
  const lines = [`${report.space}; ${report.goal_text}.`, `${report.qualifying.toLocaleString("en-US")} design${report.qualifying === 1 ? "" : "s"} qualify.`];
  if (buckets.length) lines.push(`Designs by solutions: ${buckets.join(", ")}.`);
  if (rejected.length) lines.push(`Rejected before any search: ${rejected.join(", ")}.`);
  if (!report.kept_all) lines.push(`The best ${report.found.length.toLocaleString("en-US")} are listed.`);
  $("search-summary").textContent = lines.join(" ");
  $("search-summary").dataset.qualifying = report.qualifying;
  finder.found = report.found;
  drawFound();
}

function drawFound() {
  const list = $("search-list");
  list.replaceChildren();
  const searched = finder.searched;
  const cells = new Map(searched.pieces.map((p) => [p.name, p.cells]));
  finder.found.forEach((found, rank) => {
    const item = document.createElement("li");
    item.dataset.index = found.index;
    item.dataset.pieces = found.pieces.join(" ");
    item.title = "load this design: its board and just these pieces";
    const pictures = found.pieces.map((name) =>
      `<span class="piece-name">${pieceSvg(searched.grid, cells.get(name), layered(searched.grid) ? 4 : 6)}${name}</span>`);
    const scores = Object.entries(found.scores).map(([name, value]) => `${name} ${Array.isArray(value) ? value.join(".") : value}`);
    const solutions = `${found.solutions.toLocaleString("en-US")} solution${found.solutions === 1 ? "" : "s"}`;
    item.innerHTML = `<span class="rank">${rank + 1}.</span>${pictures.join("")}<span class="figures">${[solutions, ...scores].join(" · ")}</span>`;
    item.onclick = () => guarded(async () => loadFound(found, item));
    list.appendChild(item);
  });
}

// Load a design found: the board searched and just its pieces, each used once.
function loadFound(found, item) {
  const searched = finder.searched;
  const chosen = new Set(found.pieces);
  const pieces = searched.pieces.filter((p) => chosen.has(p.name)).map((p) => ({ ...p, count: "1" }));
  loadDesign({ grid: searched.grid, board: searched.board, pieces });
  for (const other of $("search-list").children) other.classList.toggle("chosen", other === item);
  $("search-restore").hidden = false;
  $("search-status").textContent = `Loaded ${found.pieces.join(" ")} as the design on the page: solve it, or count its solutions.`;
}

function restoreSearched() {
  if (!finder.searched) return;
  loadDesign(finder.searched);
  for (const other of $("search-list").children) other.classList.remove("chosen");
  $("search-restore").hidden = true;
  $("search-status").textContent = "The board and the pieces searched are back on the page.";
}

// The line beside "pieces in a design": the pieces chosen, and how many of them cover
// the board when they all have one size (that number goes into the box until one types
// in it).
function finderHint() {
  if (typeof board === "undefined" || !board) return;
  const pieces = usedPieces();
  const sizes = new Set(pieces.map((p) => cellCount(state.grid, p.cells)));
  const cells = board.cells();
  let text = `${pieces.length} piece${pieces.length === 1 ? "" : "s"} chosen, a board of ${cells} cells`;
  if (pieces.length && sizes.size === 1) {
    const [size] = sizes;
    if (cells % size === 0 && cells / size <= pieces.length && cells > 0) {
      text += `: ${cells / size} of them cover it`;
      if ($("search-pieces").dataset.auto === "true") $("search-pieces").value = cells / size;
    }
  }
  $("search-fits").textContent = text;
}

function wireFinder() {
  $("search-start").onclick = () => guarded(startSearch);
  $("search-cancel").onclick = () => guarded(() => finderRuns.cancel());
  $("search-restore").onclick = () => guarded(async () => restoreSearched());
  $("search-goal").onchange = () => { $("search-most").hidden = $("search-goal").value !== "most"; };
  $("search-pieces").addEventListener("input", () => { $("search-pieces").dataset.auto = "false"; });
  // the page's summary line changes with every edit of the board or of the pieces chosen
  new MutationObserver(finderHint).observe($("summary"), { childList: true, characterData: true, subtree: true });
  finderHint();
}

wireFinder();
