// The tournament page (api/templates/tournament.html, _tournament_room.html): the room's filters switch rows without
// a reload; each running clock runs on from the server's time; while games are played the page reads itself again
// every few seconds and puts in place its live parts (counts, tables, clocks, standings), keeping the filter, the
// open rounds and the scroll; not while the director types or has a game's links open, or the tab is hidden.
// The print buttons print this round's pairings or the standings (the print style hides the rest).
(function () {
  const LIVE = ["tournament", "room", "standings", "crosstable", "earlier"];
  const EVERY_MS = 5000;
  const fmt = (ms) => { const s = Math.max(0, Math.floor(ms / 1000)); return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`; };
  let show = new URLSearchParams(location.search).get("show") || "all";

  function applyFilter() {
    const room = document.getElementById("room");
    if (!room) return;
    let shown = 0;
    room.querySelectorAll("tr.game").forEach((tr) => {
      const pass = (tr.dataset.kinds || "").split(" ").includes(show);
      tr.hidden = !pass;
      shown += pass ? 1 : 0;
    });
    room.querySelectorAll(".room-filter .filter").forEach((a) => {
      const current = a.dataset.show === show;
      a.classList.toggle("current", current);
      if (current) a.setAttribute("aria-current", "true"); else a.removeAttribute("aria-current");
    });
    const empty = document.getElementById("room-empty");
    if (empty) empty.hidden = shown > 0 || show === "all";
  }

  function tick() {
    const room = document.getElementById("room");
    if (!room || !room.dataset.serverTime) return;
    if (!room.dataset.seenAt) room.dataset.seenAt = String(Date.now());
    const now = Date.parse(room.dataset.serverTime) + (Date.now() - Number(room.dataset.seenAt));
    document.querySelectorAll(".glance-clock.running").forEach((c) => {
      if (!c.dataset.since) return;
      const used = Number(c.dataset.used) + Math.max(0, now - Date.parse(c.dataset.since));
      const time = c.querySelector(".time");
      if (time) time.textContent = c.dataset.gameLimit ? `${fmt(Number(c.dataset.gameLimit) - used)} left` : `${fmt(used)} used`;
    });
  }

  function busy() {
    const active = document.activeElement;
    return document.hidden || document.querySelector("details.links[open]")
      || (active && ["INPUT", "TEXTAREA", "SELECT"].includes(active.tagName));
  }

  async function refresh() {
    const t = document.getElementById("tournament");
    if (!t || t.dataset.status !== "playing" || busy()) return;
    let doc;
    try {
      const answer = await fetch(location.href, { headers: { Accept: "text/html" }, cache: "no-store" });
      if (!answer.ok) return;
      doc = new DOMParser().parseFromString(await answer.text(), "text/html");
    } catch (e) { return; }
    if (busy()) return;
    const open = [...document.querySelectorAll("main details[open]")].map((d) => d.dataset.round || d.className);
    const same = LIVE.every((id) => !document.getElementById(id) === !doc.getElementById(id));
    if (same) LIVE.forEach((id) => { const old = document.getElementById(id); if (old) old.replaceWith(document.adoptNode(doc.getElementById(id))); });
    else document.querySelector("main").replaceChildren(...[...doc.querySelector("main").childNodes].map((n) => document.adoptNode(n)));
    document.querySelectorAll("main details").forEach((d) => { if (open.includes(d.dataset.round || d.className)) d.open = true; });
    wire();
    document.dispatchEvent(new CustomEvent("arbiter:tournament"));
  }

  function printOnly(which) {
    document.body.classList.add(`print-${which}`);
    window.print();
  }

  function wire() {
    applyFilter();
    tick();
    const pairings = document.getElementById("print-pairings");
    if (pairings) pairings.addEventListener("click", () => printOnly("pairings"));
    const standings = document.getElementById("print-standings");
    if (standings) standings.addEventListener("click", () => printOnly("standings"));
  }

  document.addEventListener("click", (e) => {
    const a = e.target.closest && e.target.closest(".room-filter a[data-show]");
    if (!a) return;
    e.preventDefault();
    show = a.dataset.show;
    const url = new URL(location.href);
    url.searchParams.set("show", show);
    history.replaceState(null, "", url);
    applyFilter();
  });
  window.addEventListener("afterprint", () => document.body.classList.remove("print-pairings", "print-standings"));
  wire();
  setInterval(tick, 250);
  setInterval(refresh, EVERY_MS);
})();
