// The replay viewer (issue 27): one page load, then every step in the browser.
//
// The page comes with the board at its version drawn by the server (?version=N; every link also works without this
// script, one page a version). This script loads the viewer's positions once (GET <data-positions>: the first view
// and each version's difference, projections.positions, as the server's replay gives this viewer), then ←/→,
// Home/End, the slider, the buttons and the move list's links step in place: the view at a version is the nearest
// checkpoint (a copy kept every CHECKPOINT versions) patched forward, drawn by static/replay_board.js; the address
// becomes ?version=N (history.replaceState), the permalink and the dispute form follow. The move list is compact: the
// engine's steps after a move are folded under it (its +N button), the current entry's group is opened. A long game's
// list is drawn in part (api/pages/move_window.py): every line is loaded once with the positions (GET <data-moves>),
// and only the blocks of lines near the list's scroll are in the page, so a step's frame does not lay out thousands
// of lines. The refusals met at a version, said above the board, follow the version shown.
(function () {
  const bar = document.getElementById("replay");
  if (!bar) return;
  const CHECKPOINT = 64;
  const latest = Number(bar.dataset.latest);
  let current = Number(bar.dataset.version);
  const board = document.getElementById("board");
  const list = document.getElementById("moves");
  const box = document.getElementById("move-scroll");
  const slider = document.getElementById("slider");
  let positions = null; // {first, latest, checkpoints: [view...], diffs}
  let shown = null; // {version, view}: the last view built (patched forward for the next step)
  let addressLater = null, markLater = 0;

  // -- the move list: fold the engine's steps under the move that caused them; a long list drawn in part ----------
  // A long game's list comes in blocks of BLOCK lines, those near the version shown drawn by the server and the rest
  // gaps (li.block-gap); once every line is loaded (GET <data-moves>: [version, kind, under, html], the server's own
  // markup) the blocks near the list's scroll are drawn and those far from it dropped, so the page holds a few
  // hundred lines whatever the game's length.
  const BLOCK = list ? Number(list.dataset.block) || 50 : 50;
  const windowed = !!list && list.hasAttribute("data-windowed");
  let moves = null; // {lines, refused, talk}
  const blocks = []; // per block: {els: [li...]} drawn, or {gap: li}
  const opened = new Set(); // the versions whose folded group is open
  let settleLater = 0, settledAt = null; // the list's scroll when its blocks were last settled
  if (list) {
    let i = 0;
    for (const child of [...list.children]) {
      if (child.classList.contains("block-gap")) { const k = Number(child.dataset.block); blocks[k] = { gap: child, els: null }; i = (k + 1) * BLOCK; }
      else if (child.classList.contains("move")) { const k = Math.floor(i / BLOCK); (blocks[k] = blocks[k] || { gap: null, els: [] }).els.push(child); i += 1; }
    }
  }
  const at = (v) => (list ? list.querySelectorAll(`li.move[data-version="${v}"]`) : []);
  const entryAt = (v) => [...at(v)].find((li) => !li.classList.contains("kind-refusal"));
  function prepare(els) { // a block's lines as the script shows them: the fold buttons, the open groups, the marks
    for (const li of els) {
      const button = li.querySelector("button.fold");
      if (button) { button.hidden = false; button.setAttribute("aria-expanded", String(opened.has(li.dataset.version))); }
      if (li.dataset.under) li.classList.toggle("open", opened.has(li.dataset.under));
      const here = Number(li.dataset.version) === current;
      li.classList.toggle("current", here && !li.classList.contains("kind-refusal"));
      li.classList.toggle("at-current", here && li.classList.contains("kind-refusal"));
      if (here && !li.classList.contains("kind-refusal")) li.setAttribute("aria-current", "step"); else li.removeAttribute("aria-current");
    }
    bar.dispatchEvent(new CustomEvent("replay:lines", { detail: els })); // lines drawn: static/analysis.js marks them
  }
  function setOpen(version, open) {
    if (open) opened.add(String(version)); else opened.delete(String(version));
    const head = entryAt(version), button = head && head.querySelector("button.fold");
    if (button) button.setAttribute("aria-expanded", String(open));
    list.querySelectorAll(`li.folded[data-under="${version}"]`).forEach((li) => li.classList.toggle("open", open));
  }
  let lineOf = new Map(); // version -> the index of its first line (its entry, else its first refusal)
  function indexLines() {
    lineOf = new Map();
    moves.lines.forEach((line, i) => {
      const had = lineOf.get(line[0]);
      if (had === undefined || (moves.lines[had][1] === "refusal" && line[1] !== "refusal")) lineOf.set(line[0], i);
    });
  }
  const lineIndex = (v) => (lineOf.has(v) ? lineOf.get(v) : -1);
  function draw(k) { // block k's lines in place of its gap
    const b = blocks[k];
    if (!b || b.els || !moves) return false;
    const tpl = document.createElement("template");
    tpl.innerHTML = moves.lines.slice(k * BLOCK, (k + 1) * BLOCK).map((line) => line[3]).join("");
    b.els = [...tpl.content.children];
    prepare(b.els);
    b.gap.replaceWith(tpl.content);
    b.gap = null;
    settledAt = null;
    return true;
  }
  function drop(k, height) { // block k's lines out of the page, a gap of their height (measured before) in their place
    const b = blocks[k];
    if (!b || !b.els) return;
    const gap = document.createElement("li");
    gap.className = "block-gap";
    gap.dataset.block = String(k);
    gap.style.height = `${height}px`;
    b.els[0].before(gap);
    b.els.forEach((li) => li.remove());
    b.els = null;
    b.gap = gap;
  }
  function tops() { // each block's top on the screen (a block whose lines are all folded: the next one's), and the end
    const out = blocks.map((b) => {
      if (b.gap) return b.gap.getBoundingClientRect().top;
      const first = b.els.find((li) => li.offsetParent !== null);
      return first ? first.getBoundingClientRect().top : null;
    });
    out.push(list.getBoundingClientRect().bottom);
    for (let k = out.length - 2; k >= 0; k--) if (out[k] === null) out[k] = out[k + 1];
    return out;
  }
  function settle() { // draw the blocks within half a screen of the list's view, drop those two blocks further
    settleLater = 0;
    if (!windowed || !moves || !box) return;
    if (settledAt !== null && Math.abs(box.scrollTop - settledAt) < box.clientHeight / 4) return; // nothing new in sight
    const sight = box.getBoundingClientRect(), margin = sight.height / 2;
    const top = tops(), near = []; // every read before any change: one layout
    blocks.forEach((b, k) => { if (top[k + 1] > top[k] && top[k + 1] >= sight.top - margin && top[k] <= sight.bottom + margin) near.push(k); });
    settledAt = box.scrollTop;
    if (!near.length) return;
    const low = near[0] - 2, high = near[near.length - 1] + 2;
    blocks.forEach((b, k) => { if (b.els && (k < low || k > high)) drop(k, top[k + 1] - top[k]); });
    let drawn = false;
    near.forEach((k) => { drawn = draw(k) || drawn; });
    if (drawn) settleSoon(); // drawn blocks may be shorter than their gaps: more may be in sight
  }
  const settleSoon = () => { if (!settleLater) settleLater = requestAnimationFrame(settle); };
  function reveal(v) { // draw the blocks holding version v's lines
    const i = lineIndex(v);
    if (i < 0) return;
    for (let j = i; j < moves.lines.length && moves.lines[j][0] === v; j++) draw(Math.floor(j / BLOCK));
    for (let j = i - 1; j >= 0 && moves.lines[j][0] === v; j--) draw(Math.floor(j / BLOCK)); // refusals before it
  }
  if (list) {
    list.classList.add("compact");
    prepare([...list.querySelectorAll("li.move")]);
    list.querySelectorAll("li.current").forEach((li) => { if (li.dataset.under) setOpen(li.dataset.under, true); });
    if (box) box.addEventListener("scroll", settleSoon, { passive: true });
  }
  function mark(v) {
    if (!list) return;
    reveal(v);
    list.querySelectorAll("li.current, li.at-current").forEach((li) => { li.classList.remove("current", "at-current"); li.removeAttribute("aria-current"); });
    at(v).forEach((li) => {
      if (li.classList.contains("kind-refusal")) li.classList.add("at-current");
      else { li.classList.add("current"); li.setAttribute("aria-current", "step"); }
    });
    const here = entryAt(v);
    if (here && here.dataset.under) setOpen(here.dataset.under, true);
    if (box && here) box.scrollTop += here.getBoundingClientRect().top - box.getBoundingClientRect().top - (box.clientHeight - here.offsetHeight) / 2;
    settleSoon();
  }
  mark(current);
  function landOnAnchor() { // a link to #vN (or #vN-attemptK) whose line is in a block not drawn: draw it, go there
    const m = /^#v(\d+)/.exec(window.location.hash);
    if (!m || !moves) return;
    reveal(Number(m[1]));
    const target = document.getElementById(window.location.hash.slice(1));
    if (target && box) { box.scrollTop += target.getBoundingClientRect().top - box.getBoundingClientRect().top - box.clientHeight / 3; settleSoon(); }
  }
  window.addEventListener("hashchange", landOnAnchor);

  // -- the positions ------------------------------------------------------------------------------------------------
  const clone = (x) => (x === null || typeof x !== "object" ? x : typeof structuredClone === "function" ? structuredClone(x) : JSON.parse(JSON.stringify(x)));
  function patch(view, ops) {
    for (const op of ops) {
      const path = op[0];
      if (!path.length) { view = clone(op[1]); continue; }
      let parent = view;
      for (let i = 0; i < path.length - 1; i++) parent = parent[path[i]];
      const key = path[path.length - 1];
      if (op.length === 1) { if (Array.isArray(parent)) parent.splice(key, 1); else delete parent[key]; } else parent[key] = clone(op[1]);
    }
    return view;
  }
  function load(doc) {
    const checkpoints = [];
    let view = doc.view;
    checkpoints.push(clone(view));
    doc.diffs.forEach((ops, i) => {
      view = patch(view, ops);
      if ((i + 1) % CHECKPOINT === 0) checkpoints.push(clone(view));
    });
    positions = { first: doc.first, latest: doc.latest, checkpoints, diffs: doc.diffs };
    shown = null;
  }
  function viewAt(v) {
    const i = v - positions.first;
    if (!shown || shown.version > v || v - shown.version > CHECKPOINT) {
      const c = Math.floor(i / CHECKPOINT);
      shown = { version: positions.first + c * CHECKPOINT, view: clone(positions.checkpoints[c]) };
    }
    while (shown.version < v) {
      shown.view = patch(shown.view, positions.diffs[shown.version - positions.first]);
      shown.version += 1;
    }
    shown.view.version = v;
    return shown.view;
  }

  // -- drawing a version --------------------------------------------------------------------------------------------
  const ctx = { rulesUrl: bar.dataset.rules, disputesUrl: bar.dataset.disputes };
  function talkUpTo(v) { // the last eight lines of talk said up to version v
    return moves ? moves.talk.filter((t) => t[0] <= v).slice(-8).map((t) => t[1]) : [];
  }
  function linkTo(v) {
    const url = new URL(window.location);
    url.searchParams.set("version", v);
    url.hash = "";
    return url;
  }
  function show(v) {
    const view = viewAt(v);
    board.innerHTML = ArbiterBoard.render(view, { ...ctx, talk: talkUpTo(v) });
    current = v;
    bar.dataset.version = String(v);
    document.getElementById("version").textContent = String(v);
    document.title = document.title.replace(/v\d+/, `v${v}`);
    if (slider) slider.value = String(v);
    const hrefs = { first: 1, prev: Math.max(1, v - 1), next: Math.min(latest, v + 1), last: latest };
    for (const [id, to] of Object.entries(hrefs)) { const a = document.getElementById(id); if (a) a.href = linkTo(to).pathname + linkTo(to).search; }
    const permalink = document.getElementById("permalink");
    if (permalink) {
      const url = new URL(permalink.href);
      url.searchParams.set("version", v);
      url.hash = `v${v}`;
      permalink.href = url.toString();
      permalink.textContent = `Permalink to version ${v}`;
    }
    const event = document.getElementById("event");
    const i = lineIndex(v);
    if (event) {
      if (i >= 0 && moves.lines[i][1] !== "refusal") {
        const tpl = document.createElement("template");
        tpl.innerHTML = moves.lines[i][3];
        const line = tpl.content.firstElementChild;
        line.querySelectorAll("button.fold, .disputed-note, .v").forEach((x) => x.remove());
        event.innerHTML = `Event ${v}: `;
        event.append(...line.childNodes);
        event.hidden = false;
      } else event.hidden = true;
      document.querySelectorAll("p.refusal").forEach((p) => p.remove()); // the refusals met at this version follow it
      if (moves.refused[v]) event.insertAdjacentHTML("afterend", moves.refused[v]);
    }
    document.querySelectorAll('input[name="version"][type="hidden"]').forEach((input) => { input.value = String(v); });
    const heading = document.getElementById("dispute-title");
    if (heading) heading.textContent = `Dispute the move at version ${v}`;
    clearTimeout(addressLater); // the address follows once the steps pause (browsers throttle many replaceState calls)
    addressLater = setTimeout(() => history.replaceState(null, "", linkTo(current)), 80);
    // the list's highlight and scroll after the board is painted: a long game's list is the page's heaviest part
    cancelAnimationFrame(markLater);
    markLater = requestAnimationFrame(() => setTimeout(() => mark(current), 0));
    bar.dataset.shown = String(v); // the bench and the tests wait for this: the board shows version v
    bar.dispatchEvent(new CustomEvent("replay:shown", { detail: { version: v } })); // static/analysis.js follows
  }
  function go(v) {
    v = Math.max(1, Math.min(latest, v));
    if (v === current && positions) return;
    if (!positions || v > positions.latest) { window.location = linkTo(v); return; } // not loaded yet: a page a step
    show(v);
  }

  document.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    if (e.target.closest("input:not([type=range]), textarea, select, [contenteditable]")) return;
    const step = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 1, End: latest }[e.key];
    if (step === undefined) return;
    e.preventDefault();
    go(step);
  });
  if (slider) slider.addEventListener("input", () => { if (positions) go(Number(slider.value)); });
  if (slider) slider.addEventListener("change", () => go(Number(slider.value)));
  const steps = { first: () => 1, prev: () => current - 1, next: () => current + 1, last: () => latest };
  for (const [id, to] of Object.entries(steps)) {
    const a = document.getElementById(id);
    if (a) a.addEventListener("click", (e) => { if (!positions) return; e.preventDefault(); go(to()); });
  }
  if (list) {
    list.addEventListener("click", (e) => {
      const fold = e.target.closest("button.fold");
      if (fold) { setOpen(fold.dataset.fold, fold.getAttribute("aria-expanded") !== "true"); settledAt = null; settleSoon(); return; }
      const a = e.target.closest("a.goto");
      if (!a || !positions || e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
      e.preventDefault();
      go(Number(a.closest("li").dataset.version));
    });
  }

  const getJson = (url) => fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
    .then((r) => (r.ok ? r.json() : Promise.reject(new Error(`${url}: ${r.status}`))));
  if (bar.dataset.positions && bar.dataset.moves && window.fetch && window.ArbiterBoard) {
    Promise.all([getJson(bar.dataset.positions), getJson(bar.dataset.moves)])
      .then(([doc, lines]) => { load(doc); moves = lines; indexLines(); settle(); landOnAnchor(); bar.dataset.ready = "true"; })
      .catch((err) => { bar.dataset.ready = "failed"; console.warn("replay: stepping page by page", err); });
  }
  window.arbiterReplay = { go, lines: () => moves && moves.lines, viewAt: (v) => positions && clone(viewAt(v)), render: (v) => ArbiterBoard.render(viewAt(v), { ...ctx, talk: talkUpTo(v) }) };
})();
