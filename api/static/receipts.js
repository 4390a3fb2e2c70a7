// A seat's receipts: every answer to this seat's moves carries one (a <template data-receipt> in the panel), and a
// kept refusal's answer the log's promise to publish it ({attempt, promise}); they are kept in this browser
// (localStorage, per game and seat), listed, and offered as a download that `arbiter verify GAME --receipt FILE`
// checks against the store and the published log.
(function () {
  "use strict";
  const panel = document.getElementById("panel");
  const box = document.getElementById("receipts");
  if (!panel || !box) return;
  const key = "arbiter-receipts-" + panel.dataset.game + "-" + box.dataset.seat;
  let url = null;

  function load() {
    try {
      const list = JSON.parse(localStorage.getItem(key));
      return Array.isArray(list) ? list : [];
    } catch (e) {
      return [];
    }
  }

  function render(list) {
    box.hidden = list.length === 0;
    if (!list.length) return;
    const moves = list.filter((r) => typeof r.version === "number");
    box.querySelector(".receipt-count").textContent = String(list.length);
    if (moves.length) {
      const last = moves.reduce((a, b) => (b.version > a.version ? b : a));
      box.querySelector(".receipt-version").textContent = String(last.version);
      box.querySelector(".receipt-head").textContent = last.head;
    }
    if (url) URL.revokeObjectURL(url);
    url = URL.createObjectURL(new Blob([JSON.stringify(list, null, 1) + "\n"], { type: "application/json" }));
    const link = box.querySelector(".receipt-download");
    link.href = url;
    link.download = "receipts-" + panel.dataset.game + "-seat" + box.dataset.seat + ".json";
  }

  function collect() {
    const list = load();
    let added = false;
    panel.querySelectorAll("template[data-receipt]").forEach((el) => {
      let receipt = null;
      try {
        receipt = JSON.parse(el.dataset.receipt);
      } catch (e) {
        return;
      }
      el.removeAttribute("data-receipt");
      const id = (r) => r.signature || r.promise;
      if (receipt && id(receipt) && !list.some((r) => id(r) === id(receipt))) {
        list.push(receipt);
        added = true;
      }
    });
    if (added) {
      try {
        localStorage.setItem(key, JSON.stringify(list));
      } catch (e) { /* storage full or disabled: the list still shows this session's receipts */ }
    }
    render(list);
  }

  new MutationObserver(collect).observe(panel, { childList: true, subtree: true });
  collect();
})();
