// queens serve: the page. It keeps the board (n and the queens) and asks
// the server for everything else: attack counts, completions, counts, the
// steps of the search, the gallery and the exports. Rows and columns count
// from 0 here and in the API; the words on the page count from 1.
"use strict";

const $ = (id) => document.getElementById(id);

const state = {
  n: 8,
  queens: [],        // [row, col] in the order placed
  added: new Set(),  // "r,c" of queens the last solve added
  attacks: null,     // [row][col] from the server: -1 queen, k attackers
  conflicts: [],
  focus: [0, 0],
  seq: 0,            // the latest attacks request; older answers are dropped
  trace: null,       // {steps, i, stopped, timer}
  gallery: null,     // {classes, shown}
};

const key = (r, c) => r + "," + c;
const plural = (k, word) => k.toLocaleString("en") + " " + (k === 1 ? word : word.endsWith("s") ? word + "es" : word + "s");
const sq1 = (r, c) => (r + 1) + ":" + (c + 1); // 1-based, as the CLI writes squares

// api calls the server; a failed request throws an Error with its message.
async function api(path, body, signal) {
  const opts = { signal };
  if (body !== undefined) {
    opts.method = "POST";
    opts.headers = { "Content-Type": "application/json" };
    opts.body = JSON.stringify(body);
  }
  // An exported site (queens serve --export) has no server: static.js
  // answers with the engines compiled to WebAssembly.
  const res = await (window.queensFetch || fetch)(path, opts);
  if (!res.ok) {
    let msg = res.status + " " + res.statusText;
    try { msg = (await res.json()).error || msg; } catch (e) { /* not JSON */ }
    throw new Error(msg);
  }
  return res;
}

function say(id, text, bad) {
  const el = $(id);
  el.textContent = text;
  el.classList.toggle("bad", !!bad);
}

// ---- the board ----

function buildBoard() {
  const b = $("board");
  b.style.setProperty("--n", state.n);
  b.classList.toggle("big", state.n > 16);
  b.setAttribute("aria-label", "chess board, " + state.n + " by " + state.n + ": arrow keys move, Space or Enter places or removes a queen");
  b.replaceChildren();
  $("board-wrap").style.setProperty("--n", state.n);
  for (const [id, dir] of [["col-labels", "column"], ["row-labels", "row"]]) {
    const box = $(id);
    box.replaceChildren();
    for (let i = 1; i <= state.n; i++) {
      const l = document.createElement("span");
      l.textContent = state.n <= 16 || i === 1 || i % 5 === 0 ? String(i) : "";
      l.title = dir + " " + i;
      box.appendChild(l);
    }
  }
  for (let r = 0; r < state.n; r++) {
    for (let c = 0; c < state.n; c++) {
      const d = document.createElement("div");
      d.className = "sq" + ((r + c) % 2 ? " dark" : "");
      d.setAttribute("role", "button");
      d.dataset.row = r;
      d.dataset.col = c;
      d.tabIndex = -1;
      b.appendChild(d);
    }
  }
  state.focus = [0, 0];
  cell(0, 0).tabIndex = 0;
}

const cell = (r, c) => $("board").children[r * state.n + c];

function hasQueen(r, c) {
  return state.queens.some(([qr, qc]) => qr === r && qc === c);
}

function toggle(r, c) {
  if (state.trace) return;
  if (hasQueen(r, c)) {
    state.queens = state.queens.filter(([qr, qc]) => qr !== r || qc !== c);
  } else {
    state.queens.push([r, c]);
  }
  state.added.clear();
  boardChanged();
}

function boardChanged() {
  // An answer still on its way would be about the board before.
  if (solveAbort) solveAbort.abort();
  if (countAbort) countAbort.abort();
  say("solve-result", "");
  say("count-result", "");
  say("export-result", "");
  $("export-link").hidden = true;
  refreshAttacks();
}

async function refreshAttacks() {
  const seq = ++state.seq;
  const q = state.queens.map(([r, c]) => r + ":" + c).join(",");
  try {
    const res = await api("/api/attacks?n=" + state.n + "&q=" + q);
    const data = await res.json();
    if (seq !== state.seq) return;
    state.attacks = data.attacks;
    state.conflicts = data.conflicts;
    render();
  } catch (e) {
    say("status", e.message, true);
  }
}

function conflictText(cf) {
  return "the queens at " + sq1(cf.a.row, cf.a.col) + " and " + sq1(cf.b.row, cf.b.col) + " share a " + cf.line;
}

// render draws the board being edited, or the current step of a trace.
function render() {
  if (state.trace) return renderStep();
  const n = state.n, m = state.attacks;
  if (!m || m.length !== n) return;
  const bad = new Set();
  for (const cf of state.conflicts) { bad.add(key(cf.a.row, cf.a.col)); bad.add(key(cf.b.row, cf.b.col)); }
  let free = 0;
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const d = cell(r, c), k = m[r][c];
      d.classList.remove("try", "reject", "deadend", "emptied");
      d.classList.toggle("queen", k === -1);
      d.classList.toggle("conflict", bad.has(key(r, c)));
      // After a solve, the queens that were there before are the given
      // ones (blue); the solver's are black, as in every picture.
      d.classList.toggle("placed", k === -1 && state.added.size > 0 && !state.added.has(key(r, c)));
      d.classList.toggle("attacked", k > 0);
      d.classList.toggle("free", k === 0);
      d.dataset.attacks = k;
      d.textContent = k >= 0 ? String(k) : "";
      if (k === 0) free++;
      let label = sq1(r, c) + ": ";
      label += k === -1 ? (bad.has(key(r, c)) ? "queen, attacked by another queen" : "queen")
        : k === 0 ? "free" : "attacked by " + k + (k === 1 ? " queen" : " queens");
      d.setAttribute("aria-label", label);
      d.setAttribute("aria-pressed", k === -1 ? "true" : "false");
    }
  }
  const nq = state.queens.length;
  if (nq === 0 && (n === 2 || n === 3)) {
    say("status", "n = " + n + " has no solution: " + n + " queens never fit on a " + n + " by " + n +
      " board without attacking each other. Step through the search below to see why.");
  } else if (state.conflicts.length > 0) {
    say("status", state.conflicts.length + (state.conflicts.length === 1 ? " conflict: " : " conflicts: ") +
      state.conflicts.map(conflictText).join("; ") + ".", true);
  } else if (nq === n) {
    say("status", "Solved: " + n + " queens, none attacks another.");
  } else {
    say("status", nq + (nq === 1 ? " queen" : " queens") + ", no conflict; " + free + " free " + (free === 1 ? "square." : "squares."));
  }
}

function moveFocus(r, c) {
  const n = state.n;
  r = Math.max(0, Math.min(n - 1, r));
  c = Math.max(0, Math.min(n - 1, c));
  const [or, oc] = state.focus;
  cell(or, oc).tabIndex = -1;
  state.focus = [r, c];
  const d = cell(r, c);
  d.tabIndex = 0;
  d.focus();
}

function onBoardKey(ev) {
  if (traceKey(ev)) return;
  const [r, c] = state.focus;
  switch (ev.key) {
    case "ArrowUp": moveFocus(r - 1, c); break;
    case "ArrowDown": moveFocus(r + 1, c); break;
    case "ArrowLeft": moveFocus(r, c - 1); break;
    case "ArrowRight": moveFocus(r, c + 1); break;
    case "Home": moveFocus(r, 0); break;
    case "End": moveFocus(r, state.n - 1); break;
    case " ": case "Enter": toggle(r, c); break;
    default: return;
  }
  ev.preventDefault();
}

function onBoardClick(ev) {
  const d = ev.target.closest(".sq");
  if (!d) return;
  const r = +d.dataset.row, c = +d.dataset.col;
  moveFocus(r, c);
  toggle(r, c);
}

function setSize(n) {
  n = Math.max(1, Math.min(32, Math.round(+n) || 8));
  $("n").value = n;
  stopTrace();
  state.n = n;
  state.queens = [];
  state.added.clear();
  state.attacks = null;
  state.gallery = null;
  $("gallery").replaceChildren();
  $("gallery-more").hidden = true;
  say("gallery-summary", "");
  buildBoard();
  boardChanged();
}

// ready says why the current queens cannot go to an engine, or "".
function notReady() {
  if (state.conflicts.length > 0) return "The queens attack each other (" + conflictText(state.conflicts[0]) + "): remove one first.";
  return "";
}

const body = () => ({ n: state.n, queens: state.queens.map(([r, c]) => [r, c]) });

// ---- solve and count ----

let solveAbort = null;

async function solve() {
  const why = notReady();
  if (why) return say("solve-result", why, true);
  const engine = $("engine").value;
  say("solve-result", "Solving with " + engine + "...");
  const ctl = new AbortController();
  solveAbort = ctl;
  $("solve").disabled = true;
  $("solve-cancel").hidden = false;
  try {
    const data = await (await api("/api/solve", { ...body(), engine }, ctl.signal)).json();
    const ms = data.ms.toFixed(2) + " ms";
    if (data.solution === null) {
      say("solve-result", "No completion: these queens cannot be completed to a solution (" + data.engine + ", " + ms + ").");
      return;
    }
    const before = new Set(state.queens.map(([r, c]) => key(r, c)));
    state.queens = data.solution.map((c, r) => [r, c]);
    state.added = new Set(state.queens.filter(([r, c]) => !before.has(key(r, c))).map(([r, c]) => key(r, c)));
    await refreshAttacks();
    say("solve-result", "Solution found by " + data.engine + " in " + ms + ": " + state.added.size +
      (state.added.size === 1 ? " queen" : " queens") + " added (in black; the queens you gave are blue).");
  } catch (e) {
    if (e.name === "AbortError") say("solve-result", "Solve cancelled.");
    else say("solve-result", e.message, true);
  } finally {
    solveAbort = null;
    $("solve").disabled = false;
    $("solve-cancel").hidden = true;
  }
}

let countAbort = null;

// The limits of the server, checked here first so that the page asks
// nothing it would refuse.
const countMaxEmpty = 17;

async function count() {
  const why = notReady();
  if (why) return say("count-result", why, true);
  const empty = state.n - state.queens.length;
  if (empty > countMaxEmpty) {
    return say("count-result", empty + " empty rows are too many to count here (at most " + countMaxEmpty +
      "): place more queens, or use queens backtrack --count.", true);
  }
  const ctl = new AbortController();
  countAbort = ctl;
  const prog = $("count-progress");
  prog.value = 0;
  prog.hidden = false;
  $("count-cancel").hidden = false;
  $("count").disabled = true;
  say("count-result", "Counting...");
  try {
    const res = await api("/api/count", body(), ctl.signal);
    const reader = res.body.getReader();
    const dec = new TextDecoder();
    let buf = "", last = null;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += dec.decode(value, { stream: true });
      let i;
      while ((i = buf.indexOf("\n")) >= 0) {
        const line = JSON.parse(buf.slice(0, i));
        buf = buf.slice(i + 1);
        if (line.parts !== undefined) {
          prog.max = Math.max(1, line.parts);
          prog.value = line.done;
          say("count-result", "Counting... " + line.done + " of " + line.parts + " parts done");
        } else {
          last = line;
        }
      }
    }
    if (!last) throw new Error("the count ended without an answer");
    if (last.error) throw new Error(last.error);
    let text = last.total.toLocaleString("en") + (last.total === 1 ? " solution" : " solutions");
    if (state.queens.length > 0) text += " complete these queens";
    if (last.unique !== undefined) {
      text += " (" + last.unique.toLocaleString("en") + " unique up to rotations and reflections, " +
        last.rotations.toLocaleString("en") + " up to rotations only)";
    }
    say("count-result", text + " in " + last.ms.toFixed(1) + " ms.");
  } catch (e) {
    if (e.name === "AbortError") say("count-result", "Count cancelled.");
    else say("count-result", e.message, true);
  } finally {
    countAbort = null;
    prog.hidden = true;
    $("count-cancel").hidden = true;
    $("count").disabled = false;
  }
}

// ---- trace ----

const traceChunk = 2000;     // steps fetched at a time
const traceMaxSteps = 1000000; // the server skips at most this many
const traceSearchChunks = 25; // chunks "next ..." fetches per click

// loadMore fetches the next steps of the trace; it says whether it got any.
async function loadMore() {
  const t = state.trace;
  if (!t || !t.stopped || t.loading || t.steps.length >= traceMaxSteps) return false;
  t.loading = true;
  try {
    const data = await (await api("/api/trace", { ...t.start, from: t.steps.length, maxSteps: traceChunk })).json();
    if (state.trace !== t) return false;
    for (const st of data.steps) t.steps.push(st);
    t.stopped = data.stopped;
    return data.steps.length > 0;
  } catch (e) {
    say("trace-text", e.message, true);
    return false;
  } finally {
    t.loading = false;
  }
}

// forward shows the next step, fetching more when needed; false at the end.
async function forward() {
  const t = state.trace;
  if (!t) return false;
  if (t.i + 1 >= t.steps.length && !(await loadMore())) {
    if (state.trace === t) renderStep();
    return false;
  }
  if (state.trace !== t) return false;
  go(t.i + 1);
  return true;
}

// serial runs the trace actions one after the other, in the order of the
// clicks, though some wait for the server.
let traceQueue = Promise.resolve();
function serial(fn) {
  traceQueue = traceQueue.then(() => (state.trace ? fn() : undefined)).catch((e) => say("trace-text", e.message, true));
}

const traceButtons = ["trace-back", "trace-play", "trace-forward", "trace-next-solution", "trace-next-backtrack", "trace-stop"];

// The board limit of the two slowest algorithms, as the server has it.
const strategyMaxN = { cells: 10, generate: 10, scan: 8 };

async function startTrace() {
  const why = notReady();
  if (why) return say("trace-text", why, true);
  const start = { ...body(), order: $("trace-order").value, narrate: $("trace-narrate").value, strategy: $("trace-strategy").value };
  if (start.n > (strategyMaxN[start.strategy] || 32)) {
    return say("trace-text", "That algorithm takes boards up to n = " + strategyMaxN[start.strategy] + ": its work grows too fast beyond.", true);
  }
  stopTrace();
  say("trace-text", "Running the search...");
  try {
    const data = await (await api("/api/trace", { ...start, maxSteps: traceChunk })).json();
    if (data.steps.length === 0) {
      say("trace-text", "Nothing to do: every row already has a queen.");
      return;
    }
    state.trace = { steps: data.steps, i: 0, stopped: data.stopped, timer: null, start, loading: false };
    for (const id of traceButtons) $(id).disabled = false;
    $("trace-start").disabled = true;
    $("board").classList.add("tracing");
    renderStep();
  } catch (e) {
    say("trace-text", e.message, true);
  }
}

function stopTrace() {
  const t = state.trace;
  if (!t) return;
  pause();
  state.trace = null;
  for (const id of traceButtons) $(id).disabled = true;
  $("trace-start").disabled = false;
  $("board").classList.remove("tracing");
  say("trace-counter", "");
  say("trace-text", "");
  $("trace-stack-box").hidden = true;
  render();
}

function renderStep() {
  const t = state.trace, st = t.steps[t.i], n = state.n;
  const qs = st.queens;
  const rows = new Array(n).fill(false), cols = new Array(n).fill(false);
  const d1 = new Array(2 * n).fill(false), d2 = new Array(2 * n).fill(false);
  qs.forEach((c, r) => { if (c >= 0) { rows[r] = cols[c] = d1[r - c + n] = d2[r + c] = true; } });
  const start = new Set(t.start.queens.map(([r, c]) => key(r, c)));
  // The attack counts of the step's board: the queens on each line.
  const nc = new Array(n).fill(0), nd1 = new Array(2 * n).fill(0), nd2 = new Array(2 * n).fill(0), nr = new Array(n).fill(0);
  qs.forEach((c, r) => { if (c >= 0) { nr[r]++; nc[c]++; nd1[r - c + n]++; nd2[r + c]++; } });
  const fail = st.kind === "fail" && st.by ? new Set([key(st.row, st.col), key(st.by.row, st.by.col)]) : new Set();
  const dead = new Set((st.dead || []).map(([r, c]) => key(r, c)));
  // Generate-and-test places queens without looking: it knows no attacked square.
  const untested = t.start.strategy === "generate";
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const d = cell(r, c), queen = qs[r] === c;
      const k = queen ? -1 : nr[r] + nc[c] + nd1[r - c + n] + nd2[r + c];
      d.classList.toggle("queen", queen);
      d.classList.remove("free");
      d.classList.toggle("conflict", fail.has(key(r, c)));
      d.classList.toggle("placed", queen && start.has(key(r, c)));
      d.classList.toggle("attacked", k > 0 && !untested);
      d.classList.toggle("try", st.kind === "place" && st.row === r && st.col === c);
      d.classList.toggle("reject", st.kind === "reject" && st.row === r && st.col === c);
      d.classList.toggle("deadend", dead.has(key(r, c)));
      d.classList.toggle("emptied", st.kind === "backtrack" && st.row === r && st.col === c);
      d.textContent = k >= 0 && !untested ? String(k) : "";
      d.dataset.attacks = k;
    }
  }
  const at = t.i + 1 === t.steps.length && !t.stopped ? "the last step: the search is over"
    : st.kind === "solution" ? "a solution" : "the search goes on";
  say("trace-counter", "Step " + (t.i + 1) + " of the search (" + at + ")");
  say("trace-text", st.text);
  renderStack(st);
  $("trace-play").textContent = t.timer ? "Pause" : "Play";
  say("status", "Tracing: the board shows the search. Stop returns to your queens.");
}

// renderStack lists the search's stack beside the board: the recursive
// calls, outermost first, each with its line and the square it is on, or
// the explicit stack of the iterative search, each level with the next
// square it will try.
function renderStack(st) {
  const box = $("trace-stack-box"), list = $("trace-stack");
  const columns = state.trace.start.order === "columns";
  const line = ([r, c]) => columns ? "column " + (c + 1) : "row " + (r + 1);
  const explicit = st.stackKind === "explicit", cells = state.trace.start.strategy === "cells";
  box.hidden = false;
  $("trace-stack-title").textContent = st.stack.length === 0 ? "The stack is empty."
    : explicit ? "The explicit stack (top last): each level's next square to try. The square being tried is a local variable."
    : "The call stack (innermost last): each call and the square it is on.";
  list.replaceChildren(...st.stack.map(([r, c], i) => {
    const li = document.createElement("li");
    const n = state.n, done = explicit && (columns ? r >= n : c >= n);
    li.textContent = cells ? "queen " + (i + 1) + " at " + sq1(r, c)
      : explicit ? line([r, c]) + ": next " + (done ? "done" : sq1(r, c))
      : line([r, c]) + " at " + sq1(r, c);
    li.classList.toggle("top", i === st.stack.length - 1);
    return li;
  }));
}

// traceKey steps the search with the keys: the arrows back and forward,
// Space plays and pauses. It reports whether it took the key.
function traceKey(ev) {
  if (!state.trace || ev.altKey || ev.ctrlKey || ev.metaKey) return false;
  switch (ev.key) {
    case "ArrowLeft": case "ArrowUp": pause(); serial(() => go(state.trace.i - 1)); break;
    case "ArrowRight": case "ArrowDown": pause(); serial(forward); break;
    case " ": playPause(); break;
    default: return false;
  }
  ev.preventDefault();
  return true;
}

function go(i) {
  const t = state.trace;
  if (!t) return;
  t.i = Math.max(0, Math.min(t.steps.length - 1, i));
  renderStep();
}

async function nextKind(kind) {
  const t = state.trace;
  if (!t) return;
  let i = t.i + 1;
  for (let chunks = 0; ; ) {
    for (; i < t.steps.length; i++) {
      if (t.steps[i].kind === kind) return go(i);
    }
    if (!t.stopped) {
      say("trace-text", "No further " + kind + ": the search ends at step " + t.steps.length + ".");
      return;
    }
    if (chunks++ >= traceSearchChunks || !(await loadMore()) || state.trace !== t) {
      if (state.trace === t) say("trace-text", "No " + kind + " up to step " + t.steps.length + "; press again to search on.");
      return;
    }
  }
}

function pause() {
  const t = state.trace;
  if (t && t.timer) { clearInterval(t.timer); t.timer = null; }
}

function playPause() {
  const t = state.trace;
  if (!t) return;
  if (t.timer) { pause(); renderStep(); return; }
  const tick = async () => {
    if (t.busy) return;
    t.busy = true;
    try {
      if (t.i + 1 >= t.steps.length && !(await loadMore())) {
        pause();
        if (state.trace === t) renderStep();
        return;
      }
      // Paused or stopped while the steps were on their way: stay.
      if (t.timer && state.trace === t) go(t.i + 1);
    } finally {
      t.busy = false;
    }
  };
  t.timer = setInterval(tick, 1000 / +$("trace-speed").value);
  renderStep();
}

// ---- gallery ----

const galleryPage = 40;

async function showGallery() {
  const n = state.n;
  if (n > 12) return say("gallery-summary", "The gallery shows boards up to n = 12 (n = " + n + " has too many solutions).", true);
  say("gallery-summary", "Finding every solution...");
  try {
    const data = await (await api("/api/gallery?n=" + n)).json();
    if (n !== state.n) return;
    state.gallery = { classes: data.classes, shown: 0 };
    $("gallery").replaceChildren();
    say("gallery-summary", plural(data.total, "solution") + " in " + plural(data.classes.length, "class") +
      " under rotations and reflections (" + data.rotationClasses + " under rotations only).");
    moreGallery();
  } catch (e) {
    say("gallery-summary", e.message, true);
  }
}

function miniBoard(sol) {
  const n = sol.length, cv = document.createElement("canvas");
  cv.width = cv.height = n;
  const g = cv.getContext("2d");
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      g.fillStyle = sol[r] === c ? "#111" : (r + c) % 2 ? "#b58863" : "#f0d9b5";
      g.fillRect(c, r, 1, 1);
    }
  }
  return cv;
}

function moreGallery() {
  const gal = state.gallery, box = $("gallery");
  const end = Math.min(gal.classes.length, gal.shown + galleryPage);
  for (let k = gal.shown; k < end; k++) {
    const cls = gal.classes[k];
    const div = document.createElement("div");
    div.className = "class";
    const h = document.createElement("h3");
    h.textContent = "Class " + (k + 1) + ": " + cls.length + " images";
    const imgs = document.createElement("div");
    imgs.className = "images";
    for (const sol of cls) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "solution";
      b.setAttribute("aria-label", "put solution " + sol.map((c) => c + 1).join(" ") + " on the board");
      b.appendChild(miniBoard(sol));
      b.addEventListener("click", () => {
        stopTrace();
        state.queens = sol.map((c, r) => [r, c]);
        state.added.clear();
        boardChanged();
        $("board").scrollIntoView({ block: "nearest" });
      });
      imgs.appendChild(b);
    }
    div.append(h, imgs);
    box.appendChild(div);
  }
  gal.shown = end;
  $("gallery-more").hidden = end >= gal.classes.length;
}

// ---- export ----

let exportURL = null;

async function doExport() {
  const format = $("export-format").value;
  const link = $("export-link");
  link.hidden = true;
  const rows = new Set(state.queens.map(([r]) => r));
  if (rows.size < state.queens.length) return say("export-result", "A row holds two queens: remove one of them first.", true);
  if (format === "fen" && state.n !== 8) return say("export-result", "FEN is a chess board: n = 8 only.", true);
  if (format === "dimacs" && notReady()) return say("export-result", notReady(), true);
  try {
    // The picture shows what the board does: the attack counts if they
    // are on, the queens you gave in blue once a solver added others.
    const placed = state.added.size > 0 ? state.queens.filter(([r, c]) => !state.added.has(key(r, c))) : [];
    const res = await api("/api/export?format=" + format, { ...body(), numbers: $("show-numbers").checked, placed });
    const blob = await res.blob();
    if (exportURL) URL.revokeObjectURL(exportURL);
    exportURL = URL.createObjectURL(blob);
    const ext = { svg: "svg", png: "png", fen: "fen", dimacs: "cnf" }[format];
    link.href = exportURL;
    link.download = "queens-" + state.n + "." + ext;
    link.textContent = "Download " + link.download;
    link.hidden = false;
    say("export-result", link.download + ": " + blob.size + " bytes.");
  } catch (e) {
    say("export-result", e.message, true);
  }
}

// ---- wiring ----

function init() {
  $("board").addEventListener("click", onBoardClick);
  $("board").addEventListener("keydown", onBoardKey);
  $("n").addEventListener("change", () => setSize($("n").value));
  $("show-numbers").addEventListener("change", () => $("board").classList.toggle("hide-numbers", !$("show-numbers").checked));
  $("clear").addEventListener("click", () => { stopTrace(); state.queens = []; state.added.clear(); boardChanged(); });
  $("solve").addEventListener("click", solve);
  $("count").addEventListener("click", count);
  $("solve-cancel").addEventListener("click", () => { if (solveAbort) solveAbort.abort(); });
  $("count-cancel").addEventListener("click", () => { if (countAbort) countAbort.abort(); });
  $("trace-start").addEventListener("click", startTrace);
  $("trace-stop").addEventListener("click", stopTrace);
  $("trace-back").addEventListener("click", () => { pause(); serial(() => go(state.trace.i - 1)); });
  $("trace-forward").addEventListener("click", () => { pause(); serial(forward); });
  $("trace-play").addEventListener("click", playPause);
  $("trace-next-solution").addEventListener("click", () => { pause(); serial(() => nextKind("solution")); });
  $("trace-next-backtrack").addEventListener("click", () => { pause(); serial(() => nextKind("backtrack")); });
  $("trace-speed").addEventListener("input", () => { const t = state.trace; if (t && t.timer) { pause(); playPause(); } });
  $("gallery-show").addEventListener("click", showGallery);
  $("gallery-more").addEventListener("click", moreGallery);
  $("export").addEventListener("click", doExport);
  // The keys step the search wherever the focus is, but in a form
  // control or on a button (Space presses it) or the board (its own
  // handler asks traceKey first).
  document.addEventListener("keydown", (ev) => {
    if (ev.target.closest && ev.target.closest("input, select, textarea, button, a, #board")) return;
    traceKey(ev);
  });
  setSize(8);
}

init();
