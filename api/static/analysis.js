// The replay page's computer analysis and its link to a study (issue 27; docs/analysis.md "On the replay page").
//
// The control (#analysis, drawn by the server only for the seats this viewer may analyse) posts {seat, samples} to the
// page's own route (api/pages/analysis.py: the API's job, as this browser's identity), then polls the job until it is
// done. Its lines (exactly the API's) become: an evaluation graph (inline SVG, the best value at each of the seat's
// decisions; a point steps the viewer to that version), a mark on each analysed decision in the move list (?! ? ??),
// and, at the version shown, the table of candidate moves (value, 95% interval, samples; the move played highlighted,
// the best named). The link "Try another move here" (#study-here) follows the version shown and the seat chosen. The
// viewer (static/replay.js) tells this script when it shows a version (replay:shown) and draws lines (replay:lines).
(function () {
  const bar = document.getElementById("replay");
  if (!bar) return;
  const box = document.getElementById("analysis");
  const studyHere = document.getElementById("study-here");
  const SIGN = { inaccuracy: "?!", mistake: "?", blunder: "??" };
  const POLL_MS = 600;
  const esc = (s) => String(s == null ? "" : s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
  const latest = Number(bar.dataset.latest);
  const version = () => Number(bar.dataset.shown || bar.dataset.version);
  let result = null; // {seat, unit, lines, byVersion}
  // players by name, never by seat number: the page gives the names and the move fields that name a seat (a target)
  const names = box && box.dataset.names ? JSON.parse(box.dataset.names) : [];
  const seatFields = new Set(box && box.dataset.seatFields ? JSON.parse(box.dataset.seatFields) : []);
  const nameOf = (seat) => (names[seat] != null ? String(names[seat]) : `seat ${seat}`); // for textContent
  const who = (seat) => esc(nameOf(seat)); // for innerHTML

  // -- the study link: the version shown, the seat chosen (where this viewer may study that seat) ---------------------
  const studySeats = studyHere ? studyHere.dataset.seats.split(" ").map(Number) : [];
  const seatSelect = document.getElementById("analysis-seat");
  function studyUrl(v, seat) {
    const url = new URL(studyHere.href);
    url.searchParams.set("version", String(v));
    url.searchParams.set("seat", String(seat));
    return url.pathname + url.search;
  }
  function followStudy() {
    if (!studyHere) return;
    const chosen = seatSelect ? Number(seatSelect.value) : NaN;
    const seat = studySeats.includes(chosen) ? chosen : Number(new URL(studyHere.href).searchParams.get("seat"));
    studyHere.href = studyUrl(version(), seat);
    const label = document.getElementById("study-here-seat");
    if (label && seatSelect && studySeats.includes(chosen)) label.textContent = `(as ${seatSelect.selectedOptions[0].textContent})`;
  }
  if (seatSelect) seatSelect.addEventListener("change", followStudy);

  // -- words -----------------------------------------------------------------------------------------------------------
  function moveText(move) { // a move in a few words, as `arbiter analyse` prints it; its cards drawn as on the board
    const parts = [];
    for (const [k, v] of Object.entries(move)) {
      if (k === "type" || k === "seat") continue;
      if (Array.isArray(v)) parts.push(k === "cards" && window.ArbiterBoard ? v.map((c) => ArbiterBoard.card(c)).join("") : v.map(esc).join(" "));
      else if (v && typeof v === "object") parts.push(`${esc(k)} ${Object.values(v).map(esc).join(" ")}`);
      else if (typeof v === "number" && seatFields.has(k)) parts.push(`${esc(k)} ${who(v)}`);
      else if (typeof v === "number") parts.push(`${esc(k)} ${v}`);
      else parts.push(esc(v));
    }
    return [esc(String(move.type).replace(/_/g, " ")), ...parts].join(" ");
  }
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  const num = (x) => (x == null ? "—" : Number(x).toFixed(1));
  const unitWords = (unit) => (unit === "win" ? "win chance (points, 0–100)" : "expected score (the game's unit)");

  // -- the move list's marks -------------------------------------------------------------------------------------------
  function markLine(li) {
    if (!result || li.classList.contains("kind-refusal")) return;
    const line = result.byVersion.get(Number(li.dataset.version));
    if (!line || li.querySelector(".analysis-mark")) return;
    const tag = document.createElement("span");
    tag.className = `analysis-mark ${line.mark ? `mark-${line.mark}` : "mark-none"}`;
    tag.textContent = line.mark ? SIGN[line.mark] : "✓";
    tag.title = line.mark ? `${line.mark}: ${num(line.loss)} below the best move (at least ${num(line.loss_low)}, 95% sure)` : `analysed: ${num(line.loss)} below the best move`;
    tag.setAttribute("aria-label", line.mark ? line.mark : "analysed, no mark");
    const goto = li.querySelector("a.goto");
    (goto || li).after(tag);
  }
  function markAll() {
    document.querySelectorAll("#moves .analysis-mark").forEach((m) => m.remove());
    if (result) document.querySelectorAll("#moves li.move.decision").forEach(markLine);
  }
  bar.addEventListener("replay:lines", (e) => { if (result) e.detail.forEach(markLine); });

  // -- the graph -------------------------------------------------------------------------------------------------------
  const H = 170, PAD = { left: 34, right: 10, top: 10, bottom: 22 };
  function drawGraph() {
    const graph = document.getElementById("analysis-graph");
    graph.hidden = false;
    const W = Math.max(300, Math.round(graph.clientWidth) || 640); // drawn at the width it has: round dots, legible text
    const lines = result.lines.filter((l) => l.version != null);
    if (!lines.length) { graph.hidden = false; graph.innerHTML = '<p class="muted">No decision of this seat had more than one move to choose from.</p>'; return; }
    let lo = 0, hi = 100;
    if (result.unit !== "win") {
      const values = lines.flatMap((l) => [l.eval, l.played_value]);
      lo = Math.min(...values); hi = Math.max(...values);
      if (hi - lo < 1) { lo -= 0.5; hi += 0.5; }
      const pad = (hi - lo) * 0.08; lo -= pad; hi += pad;
    }
    const x = (v) => PAD.left + ((v - 1) / Math.max(1, latest - 1)) * (W - PAD.left - PAD.right);
    const y = (value) => PAD.top + (1 - (value - lo) / (hi - lo)) * (H - PAD.top - PAD.bottom);
    const path = lines.map((l, i) => `${i ? "L" : "M"}${x(l.version).toFixed(1)},${y(l.eval).toFixed(1)}`).join("");
    const area = `${path}L${x(lines[lines.length - 1].version).toFixed(1)},${y(lo).toFixed(1)}L${x(lines[0].version).toFixed(1)},${y(lo).toFixed(1)}Z`;
    const middle = result.unit === "win" ? `<line class="mid" x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(50)}" y2="${y(50)}"/>` : "";
    const points = lines.map((l) => {
      const words = `version ${l.version}: best ${num(l.eval)}, played ${num(l.played_value)}${l.mark ? `, ${l.mark}` : ""}`;
      return `<g class="point${l.mark ? ` mark-${l.mark}` : ""}" data-version="${l.version}" tabindex="0" role="button" aria-label="${esc(words)}">` +
        `<title>${esc(words)}</title><circle class="hit" cx="${x(l.version)}" cy="${y(l.eval)}" r="11"/>` +
        `<circle class="dot" cx="${x(l.version)}" cy="${y(l.eval)}" r="${l.mark ? 5 : 3.5}"/></g>`;
    }).join("");
    graph.innerHTML =
      `<svg viewBox="0 0 ${W} ${H}" role="group" aria-label="evaluation over the game: ${esc(unitWords(result.unit))}" id="analysis-svg">` +
      `<rect class="frame" x="${PAD.left}" y="${PAD.top}" width="${W - PAD.left - PAD.right}" height="${H - PAD.top - PAD.bottom}"/>` +
      `${middle}<path class="area" d="${area}"/><path class="line" d="${path}"/>` +
      `<line class="cursor" id="analysis-cursor" y1="${PAD.top}" y2="${H - PAD.bottom}" x1="0" x2="0"/>` +
      `<text class="axis" x="${PAD.left - 4}" y="${PAD.top + 8}" text-anchor="end">${num(hi).replace(/\.0$/, "")}</text>` +
      `<text class="axis" x="${PAD.left - 4}" y="${H - PAD.bottom}" text-anchor="end">${num(lo).replace(/\.0$/, "")}</text>` +
      `<text class="axis" x="${PAD.left}" y="${H - 6}">version 1</text>` +
      `<text class="axis" x="${W - PAD.right}" y="${H - 6}" text-anchor="end">${latest}</text>${points}</svg>` +
      `<p class="legend muted">${esc(unitWords(result.unit))}: the best move's value at each of ${who(result.seat)}'s decisions; ` +
      `<span class="key mark-inaccuracy">?! inaccuracy</span> <span class="key mark-mistake">? mistake</span> <span class="key mark-blunder">?? blunder</span>. Click a point to go there.</p>`;
    graph.hidden = false;
    graph.__x = x;
    const go = (g) => window.arbiterReplay && window.arbiterReplay.go(Number(g.dataset.version));
    graph.querySelectorAll("g.point").forEach((g) => {
      g.addEventListener("click", () => go(g));
      g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); go(g); } });
    });
  }
  function moveCursor(v) {
    const graph = document.getElementById("analysis-graph");
    const cursor = document.getElementById("analysis-cursor");
    if (!cursor || !graph.__x) return;
    cursor.setAttribute("x1", graph.__x(v)); cursor.setAttribute("x2", graph.__x(v));
    graph.querySelectorAll("g.point").forEach((g) => g.classList.toggle("here", Number(g.dataset.version) === v));
  }

  // -- the candidates at the version shown -----------------------------------------------------------------------------
  function drawDetail(v) {
    const detail = document.getElementById("analysis-detail");
    if (!result) return;
    const line = result.byVersion.get(v);
    if (!line) {
      const next = result.lines.find((l) => l.version > v);
      detail.innerHTML = `<p class="muted" id="analysis-none">Version ${v} is not one of ${who(result.seat)}'s analysed decisions` +
        (next ? `; the next is <a href="#v${next.version}" class="analysis-go" data-version="${next.version}">version ${next.version}</a>.` : ".") + "</p>";
    } else {
      const rows = line.moves.map((m) => {
        const played = same(m.move, line.played), best = same(m.move, line.best);
        const interval = m.low == null || m.high == null ? "—" : `${num(m.low)} – ${num(m.high)}`;
        return `<tr class="${played ? "played" : ""}${best ? " best" : ""}"><td class="move-cell">${moveText(m.move)}` +
          `${played ? ' <span class="tag">played</span>' : ""}${best ? ' <span class="tag best-tag">best</span>' : ""}</td>` +
          `<td class="num">${num(m.value)}</td><td class="num">${interval}</td><td class="num">${m.samples}</td></tr>`;
      }).join("");
      const before = studyHere && studySeats.includes(result.seat) && v > 1
        ? ` · <a id="study-instead" href="${esc(studyUrl(v - 1, result.seat))}">Try another move instead (a study from version ${v - 1})</a>` : "";
      detail.innerHTML =
        `<p id="analysis-verdict"><strong>Decision ${line.decision + 1}</strong> of ${who(line.seat)}, version ${v}: ` +
        (line.mark ? `<span class="analysis-mark mark-${line.mark}">${SIGN[line.mark]}</span> ${line.mark}, ` : "") +
        `${num(line.loss)} below the best${line.mark && line.loss_low != null ? ` (at least ${num(line.loss_low)}, 95% sure)` : ""}. Best: <span class="best-move">${moveText(line.best)}</span>${before}</p>` +
        `<div class="table-scroll"><table class="analysis-table" id="analysis-table"><caption class="muted">${esc(unitWords(line.unit))}, 95% interval, samples; best first</caption>` +
        `<thead><tr><th scope="col">move</th><th scope="col">value</th><th scope="col">95% interval</th><th scope="col">samples</th></tr></thead><tbody>${rows}</tbody></table></div>`;
    }
    detail.querySelectorAll("a.analysis-go").forEach((a) => a.addEventListener("click", (e) => {
      if (!window.arbiterReplay) return;
      e.preventDefault(); window.arbiterReplay.go(Number(a.dataset.version));
    }));
  }

  let drawnWidth = 0;
  window.addEventListener("resize", () => {
    const graph = document.getElementById("analysis-graph");
    if (!result || !graph || Math.abs(graph.clientWidth - drawnWidth) < 40) return;
    drawnWidth = graph.clientWidth; drawGraph(); moveCursor(version());
  });
  bar.addEventListener("replay:shown", (e) => { followStudy(); if (result) { moveCursor(e.detail.version); drawDetail(e.detail.version); } });
  followStudy();
  if (!box) return;

  // -- the job ---------------------------------------------------------------------------------------------------------
  const form = document.getElementById("analysis-form");
  const status = document.getElementById("analysis-status");
  const progress = document.getElementById("analysis-progress");
  const button = document.getElementById("analysis-start");
  const say = (text, failed = false) => { status.textContent = text; status.classList.toggle("error", failed); status.classList.toggle("muted", !failed); };
  async function answer(response) {
    let doc = null;
    try { doc = await response.json(); } catch (err) { doc = null; }
    if (!response.ok) throw new Error((doc && doc.detail) || `the server answered ${response.status}`);
    return doc;
  }
  function done(job) {
    const lines = job.lines || [];
    result = { seat: job.seat, unit: lines.length ? lines[0].unit : "win", lines, byVersion: new Map(lines.map((l) => [l.version, l])) };
    const counts = ["inaccuracy", "mistake", "blunder"].map((m) => [m, lines.filter((l) => l.mark === m).length]);
    say(`${nameOf(job.seat)}: ${lines.length} decision${lines.length === 1 ? "" : "s"} analysed (${job.samples} samples a move at most) — ` +
      counts.map(([m, n]) => `${n} ${m === "inaccuracy" ? (n === 1 ? "inaccuracy" : "inaccuracies") : m + (n === 1 ? "" : "s")}`).join(", ") + ".");
    const score = document.getElementById("analysis-accuracy");
    if (score) { score.hidden = job.accuracy == null; score.querySelector("strong").textContent = job.accuracy == null ? "" : `${num(job.accuracy)}%`; }
    box.dataset.job = job.id;
    box.dataset.state = "done";
    drawGraph();
    markAll();
    moveCursor(version());
    drawDetail(version());
  }
  const cancel = document.getElementById("analysis-cancel");
  let cancelUrl = null;
  function duration(seconds) {
    if (seconds === null || seconds === undefined) return "";
    if (seconds < 60) return `about ${Math.max(1, Math.round(seconds))} s`;
    if (seconds < 3600) return `about ${Math.round(seconds / 60)} min`;
    return `about ${(seconds / 3600).toFixed(1)} h`;
  }
  async function poll(url) {
    cancelUrl = `${url}/cancel`;
    for (;;) {
      const job = await answer(await fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } }));
      const { done: d, total } = job.progress;
      const left = duration(job.queue && job.queue.estimate_seconds);
      if (total) { progress.max = total; progress.value = d; }
      box.dataset.state = job.status;
      if (job.status === "done") return done(job);
      if (job.status === "failed") throw new Error(job.error || "the analysis failed");
      if (job.status === "cancelled") { say(`The analysis of ${nameOf(job.seat)} was cancelled.`); return; }
      cancel.hidden = false;
      if (job.status === "queued") {
        say(`Waiting for a free worker: place ${job.queue.position} in the queue${left ? `, done in ${left}` : ""}…`);
      } else {
        say((total ? `Analysing ${nameOf(job.seat)}: ${d} of ${total} decisions` : `Analysing ${nameOf(job.seat)}: reading the game`) +
          (left ? `, ${left} left…` : "…"));
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
  cancel.addEventListener("click", async () => {
    if (!cancelUrl) return;
    cancel.disabled = true;
    try {
      await answer(await fetch(cancelUrl, { method: "POST", credentials: "same-origin", headers: { Accept: "application/json" } }));
    } catch (err) {
      say(String(err.message || err), true);
    } finally {
      cancel.disabled = false;
    }
  });
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const body = { seat: Number(form.seat.value), samples: Number(form.samples.value) };
    button.disabled = true;
    progress.hidden = false; progress.removeAttribute("value");
    box.dataset.state = "running";
    say(`Asking for the analysis of ${nameOf(body.seat)}…`);
    try {
      const job = await answer(await fetch(box.dataset.start, {
        method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", Accept: "application/json" }, body: JSON.stringify(body) }));
      await poll(job.url);
    } catch (err) {
      box.dataset.state = "failed";
      say(String(err.message || err), true);
    } finally {
      button.disabled = false;
      progress.hidden = true;
      cancel.hidden = true;
    }
  });
})();
