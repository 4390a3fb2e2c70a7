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

  function swap(html, keepDraft = true, keepFields = true) {
    // Keep what the person was doing across the swap: the selected cards, the focused control
    // (a card, an action button or the message box) and a half-typed message.
    const selected = new Set([...root.querySelectorAll("input[name=cards]:checked")].map(i => i.value));
    const active = document.activeElement && root.contains(document.activeElement) ? document.activeElement : null;
    const fields = keepFields ? [...root.querySelectorAll("select[name^='move.'], input[name^='move.']:not([type=checkbox])")]
      .map(el => [el.name, el.value]) : [];  // in page order: fields sharing a name (a list) keep their positions
    const box = root.querySelector("input[name=text]");
    const draft = keepDraft && box ? { value: box.value, start: box.selectionStart, end: box.selectionEnd } : null;
    let refocus = null;
    if (active && active.name === "cards") refocus = `input[name=cards][value="${CSS.escape(active.value)}"]`;
    else if (active && active.name === "text") refocus = "input[name=text]";
    else if (active && active.tagName === "BUTTON" && active.value) refocus = `button[value="${CSS.escape(active.value)}"]`;
    root.innerHTML = html;
    root.querySelectorAll("input[name=cards]").forEach(i => { if (selected.has(i.value)) i.checked = true; });
    // a game's own move fields (a target, an amount, a face card ...) keep their values when they still make sense
    const seen = {};
    for (const [name, value] of fields) {
      const index = seen[name] = (seen[name] ?? -1) + 1;
      const el = root.querySelectorAll(`[name="${CSS.escape(name)}"]`)[index];
      if (el && (el.tagName !== "SELECT" || [...el.options].some(o => o.value === value))) el.value = value;
    }
    const newBox = root.querySelector("input[name=text]");
    if (draft && newBox) { newBox.value = draft.value; newBox.setSelectionRange(draft.start, draft.end); }
    if (refocus) { const target = root.querySelector(refocus); if (target) target.focus(); }
    // a game's own script (static/games/<game>.js) hears each new panel to wire it up again
    root.dispatchEvent(new CustomEvent("arbiter:panel", { bubbles: true }));
  }

  root.addEventListener("submit", async (event) => {
    const form = event.target;
    if (form.hasAttribute("data-navigate")) return;  // a form that leads to another page (a dispute) submits as usual
    event.preventDefault();
    const data = new FormData(form);
    if (event.submitter && event.submitter.name) data.set(event.submitter.name, event.submitter.value);
    const response = await fetch(form.action, { method: "POST", body: data, credentials: "same-origin",
                                                headers: { "X-Arbiter-Partial": "1" } });
    // a message sent is no draft; the fields of a move that was accepted are spent, those of a refused one stay
    swap(await response.text(), !(response.ok && form.classList.contains("say")), !response.ok);
  });

  if (window.EventSource) {
    const source = new EventSource(root.dataset.liveUrl);
    source.onmessage = refresh;  // the pages' stream sends every event of any game unnamed
  }
})();
