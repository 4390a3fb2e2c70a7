// The replay viewer (issue 27): one page load, then every step in the browser.
//
// The page comes with the board at its version drawn by the server (?version=N; every link also works without this
// script, one page a version). This script loads the viewer's positions once (GET <data-positions>: the first view
// and each version's difference, projections.positions, as the server's replay gives this viewer), then ←/→,
// Home/End, the slider, the buttons and the move list's links step in place: the view at a version is the nearest
// checkpoint (a copy kept every CHECKPOINT versions) patched forward, drawn by static/replay_board.js; the address
// becomes ?version=N (history.replaceState), the permalink and the dispute form follow. The move list is compact: the
// engine's steps after a move are folded under it (its +N button), the current entry's group is opened.
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

  // -- the move list: fold the engine's steps under the move that caused them -------------------------------------
  const rows = list ? [...list.querySelectorAll("li.move")] : [];
  const byVersion = new Map(), atVersion = new Map();
  for (const li of rows) {
    const v = li.dataset.version;
    if (!atVersion.has(v)) atVersion.set(v, []);
    atVersion.get(v).push(li);
    if (!li.classList.contains("kind-refusal") && !byVersion.has(v)) byVersion.set(v, li);
  }
  let marked = [];
  function setOpen(head, open) {
    const button = head && head.querySelector("button.fold");
    if (!button) return;
    button.setAttribute("aria-expanded", String(open));
    list.querySelectorAll(`li.folded[data-under="${head.dataset.version}"]`).forEach((li) => li.classList.toggle("open", open));
  }
  if (list) {
    list.classList.add("compact");
    list.querySelectorAll("button.fold").forEach((b) => {
      b.hidden = false;
      b.addEventListener("click", () => setOpen(b.closest("li"), b.getAttribute("aria-expanded") !== "true"));
    });
  }
  function mark(v) {
    if (!list) return;
    const before = marked.length ? marked : list.querySelectorAll("li.current, li.at-current");
    before.forEach((li) => { li.classList.remove("current", "at-current"); li.removeAttribute("aria-current"); });
    marked = atVersion.get(String(v)) || [];
    marked.forEach((li) => {
      if (li.classList.contains("kind-refusal")) li.classList.add("at-current");
      else { li.classList.add("current"); li.setAttribute("aria-current", "step"); }
    });
    const here = byVersion.get(String(v));
    if (here && here.dataset.under) setOpen(byVersion.get(here.dataset.under), true);
    if (box && here) box.scrollTop += here.getBoundingClientRect().top - box.getBoundingClientRect().top - (box.clientHeight - here.offsetHeight) / 2;
  }
  mark(current);

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
  function talkUpTo(v) {
    if (!list) return [];
    return [...list.querySelectorAll("li.kind-talk")].filter((li) => Number(li.dataset.version) <= v).slice(-8).map((li) => {
      const who = li.querySelector(".who"), what = li.querySelector(".details");
      return `<li><strong>${ArbiterBoard.esc(who ? who.textContent.trim() : "")}</strong>: ${ArbiterBoard.esc(what ? what.textContent.trim().replace(/^“|”$/g, "") : "")}</li>`;
    });
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
    const entry = byVersion.get(String(v));
    if (event) {
      if (entry) {
        const line = entry.cloneNode(true);
        line.querySelectorAll("button.fold, .disputed-note").forEach((x) => x.remove());
        event.innerHTML = `Event ${v}: `;
        line.querySelectorAll(".v").forEach((x) => x.remove());
        event.append(...line.childNodes);
        event.hidden = false;
      } else event.hidden = true;
    }
    document.querySelectorAll("p.refusal").forEach((p) => p.remove());
    document.querySelectorAll('input[name="version"][type="hidden"]').forEach((input) => { input.value = String(v); });
    const heading = document.getElementById("dispute-title");
    if (heading) heading.textContent = `Dispute the move at version ${v}`;
    clearTimeout(addressLater); // the address follows once the steps pause (browsers throttle many replaceState calls)
    addressLater = setTimeout(() => history.replaceState(null, "", linkTo(current)), 80);
    // the list's highlight and scroll after the board is painted: a long game's list is the page's heaviest part
    cancelAnimationFrame(markLater);
    markLater = requestAnimationFrame(() => setTimeout(() => mark(current), 0));
    bar.dataset.shown = String(v); // the bench and the tests wait for this: the board shows version v
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
      const a = e.target.closest("a.goto");
      if (!a || !positions || e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
      e.preventDefault();
      go(Number(a.closest("li").dataset.version));
    });
  }

  if (bar.dataset.positions && window.fetch && window.ArbiterBoard) {
    fetch(bar.dataset.positions, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(`positions: ${r.status}`))))
      .then((doc) => { load(doc); bar.dataset.ready = "true"; })
      .catch((err) => { bar.dataset.ready = "failed"; console.warn("replay: stepping page by page", err); });
  }
  window.arbiterReplay = { go, viewAt: (v) => positions && clone(viewAt(v)), render: (v) => ArbiterBoard.render(viewAt(v), { ...ctx, talk: talkUpTo(v) }) };
})();
