// Live table: swap the panel on every event from the server, and send moves without reloading.
(function () {
  const root = document.getElementById("panel");
  if (!root) return;
  let busy = false;

  async function refresh() {
    if (busy) return;
    busy = true;
    try {
      const response = await fetch(root.dataset.panelUrl, { credentials: "same-origin" });
      if (response.ok) swap(await response.text());
    } finally { busy = false; }
  }

  function swap(html) {
    const selected = new Set([...root.querySelectorAll("input[name=cards]:checked")].map(i => i.value));
    const focused = document.activeElement && document.activeElement.value;
    root.innerHTML = html;
    root.querySelectorAll("input[name=cards]").forEach(i => { if (selected.has(i.value)) i.checked = true; });
    if (focused) { const again = root.querySelector(`button[value="${focused}"]`); if (again) again.focus(); }
  }

  root.addEventListener("submit", async (event) => {
    const form = event.target;
    event.preventDefault();
    const data = new FormData(form);
    if (event.submitter && event.submitter.name) data.set(event.submitter.name, event.submitter.value);
    const response = await fetch(form.action, { method: "POST", body: data, credentials: "same-origin",
                                                headers: { "X-Arbiter-Partial": "1" } });
    swap(await response.text());
  });

  if (window.EventSource) {
    const source = new EventSource(root.dataset.liveUrl);
    source.onmessage = refresh;
    ["created", "dealt", "drew", "attacked", "threw_in", "beat", "passed", "conceded", "claimed", "pile_discarded",
     "reshuffled", "eliminated", "took", "laid_out_discarded", "showed", "said", "won", "drawn", "battle_started",
     "seed_revealed", "dispute_filed", "dispute_ruled", "rewound"].forEach(kind => source.addEventListener(kind, refresh));
  }
})();
