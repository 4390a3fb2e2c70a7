// Live table: swap the panel on every event from the server, and send moves without reloading.
(function () {
  const root = document.getElementById("panel");
  if (!root) return;
  let busy = false;
  let again = false;

  async function refresh() {
    // An event that comes while the panel is being fetched may be newer than what that fetch returns:
    // note it and fetch once more afterwards (dropping it left the table stale until the next event).
    if (busy) { again = true; return; }
    busy = true;
    try {
      do {
        again = false;
        const response = await fetch(root.dataset.panelUrl, { credentials: "same-origin" });
        if (response.ok) swap(await response.text());
      } while (again);
    } finally { busy = false; }
  }

  // A card box by identity, not by value: its value and which of the boxes of that value it is ("9C#1": the
  // second 9♣). Two equal cards (two packs) are two boxes; ticking one must never tick the other.
  function cardKeys() {
    const count = {};
    return [...root.querySelectorAll("input[name=cards]")].map(i => [i, `${i.value}#${count[i.value] = (count[i.value] ?? -1) + 1}`]);
  }

  function swap(html, keepDraft = true, keepFields = true) {
    // Keep what the person was doing across the swap: the selected cards, the focused control
    // (a card, an action button or the message box) and a half-typed message.
    const boxes = cardKeys();
    const selected = new Set(boxes.filter(([i]) => i.checked).map(([, key]) => key));
    const active = document.activeElement && root.contains(document.activeElement) ? document.activeElement : null;
    const fields = keepFields ? [...root.querySelectorAll("select[name^='move.'], input[name^='move.']:not([type=checkbox]):not([type=radio])")]
      .map(el => [el.name, el.value]) : [];  // in page order: fields sharing a name (a list) keep their positions
    const chosen = keepFields ? [...root.querySelectorAll("input[name^='move.'][type=radio]:checked")].map(el => [el.name, el.value]) : [];
    const box = root.querySelector("input[name=text]");
    const draft = keepDraft && box ? { value: box.value, start: box.selectionStart, end: box.selectionEnd } : null;
    let refocus = null;
    let refocusCard = null;
    if (active && active.name === "cards") refocusCard = (boxes.find(([i]) => i === active) || [])[1];
    else if (active && active.name === "text") refocus = "input[name=text]";
    else if (active && active.tagName === "BUTTON" && active.value) refocus = `button[value="${CSS.escape(active.value)}"]`;
    root.innerHTML = html;
    for (const [i, key] of cardKeys()) {
      if (selected.has(key)) i.checked = true;
      if (key === refocusCard) refocus = i;
    }
    // a game's own move fields (a target, an amount, a face card ...) keep their values when they still make sense
    const seen = {};
    for (const [name, value] of fields) {
      const index = seen[name] = (seen[name] ?? -1) + 1;
      const el = root.querySelectorAll(`[name="${CSS.escape(name)}"]`)[index];
      if (el && (el.tagName !== "SELECT" || [...el.options].some(o => o.value === value))) el.value = value;
    }
    for (const [name, value] of chosen) {  // a card chosen for a field (a meld's face) stays chosen while it is there
      const el = root.querySelector(`input[type=radio][name="${CSS.escape(name)}"][value="${CSS.escape(value)}"]`);
      if (el) el.checked = true;
    }
    const newBox = root.querySelector("input[name=text]");
    if (draft && newBox) { newBox.value = draft.value; newBox.setSelectionRange(draft.start, draft.end); }
    if (refocus) { const target = typeof refocus === "string" ? root.querySelector(refocus) : refocus; if (target) target.focus(); }
    // a game's own script (static/games/<game>.js) hears each new panel to wire it up again
    root.dispatchEvent(new CustomEvent("arbiter:panel", { bubbles: true }));
  }

  root.addEventListener("submit", async (event) => {
    const form = event.target;
    if (form.hasAttribute("data-navigate")) return;  // a form that leads to another page (a dispute) submits as usual
    event.preventDefault();
    const data = new FormData(form);
    if (event.submitter && event.submitter.name) data.set(event.submitter.name, event.submitter.value);
    // a refusal comes back as 200 with its status in X-Arbiter-Status (a 4xx would be logged in the console)
    const response = await fetch(form.action, { method: "POST", body: data, credentials: "same-origin",
                                                headers: { "X-Arbiter-Partial": "1", "X-Arbiter-Refusal-In-Header": "1" } });
    const ok = response.ok && (response.headers.get("X-Arbiter-Status") || "200") === "200";
    // a message sent is no draft; the fields of a move that was accepted are spent, those of a refused one stay
    swap(await response.text(), !(ok && form.classList.contains("say")), !ok);
    // a study's board (api/pages/studies.py): a move or a comment names the node it reached; the address follows
    const where = ok && response.headers.get("X-Arbiter-Location");
    if (where && where !== location.pathname) history.pushState(null, "", where);
  });
  if (root.dataset.study) window.addEventListener("popstate", () => location.reload());  // back: the node before

  // The live stream. EventSource reconnects by itself when the server ends a stream (its time is up, a restart)
  // and sends Last-Event-ID, so nothing is missed; while it is away the page says so, and once it is back the
  // panel is fetched again (whatever happened meanwhile shows even if the resumed stream has nothing new).
  // A stream the browser gave up on (an error answer) is opened again after the last version seen, backing off.
  if (window.EventSource && root.dataset.liveUrl) {  // a study's board has no live stream
    const state = document.createElement("p");
    state.id = "live-state";
    state.className = "live-state";
    state.setAttribute("role", "status");
    state.hidden = true;
    root.before(state);
    let seen = root.dataset.version || "0";
    let lost = false;
    let wait = 1000;
    let pending = null;  // the "Reconnecting…" notice waits a moment: a stream whose time is up is back within a second

    function show(text) { state.textContent = text; state.hidden = !text; document.body.classList.toggle("offline", !!text); }

    function connect() {
      const url = new URL(root.dataset.liveUrl, location.href);
      url.searchParams.set("after", seen);
      const source = new EventSource(url);
      source.onmessage = (event) => {  // the pages' stream sends every event of any game unnamed
        if (event.lastEventId) seen = event.lastEventId;
        refresh();
      };
      source.onopen = () => {
        wait = 1000;
        clearTimeout(pending);
        pending = null;
        if (lost) { lost = false; show(""); refresh(); }
      };
      source.onerror = () => {
        lost = true;
        if (pending === null && state.hidden) pending = setTimeout(() => { pending = null; if (lost) show("Reconnecting…"); }, 2000);
        if (source.readyState === EventSource.CLOSED) {  // refused, not retried by the browser: try again later
          setTimeout(connect, wait);
          wait = Math.min(wait * 2, 30000);
        }
      };
    }
    connect();
  }
})();
