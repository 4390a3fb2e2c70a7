// The referee's desk (api/templates/desk.html): the time left of each seat to act runs down between reloads.
// The server wrote each `data-left-ms` when it drew the page; the page only takes off the time passed since then.
(function () {
  const drawn = Date.now();
  const fmt = (ms) => {
    if (ms < 0) return "out of time";
    const s = Math.floor(ms / 1000);
    const mm = `${Math.floor(s % 3600 / 60)}`, ss = String(s % 60).padStart(2, "0");
    return s >= 3600 ? `${Math.floor(s / 3600)}:${mm.padStart(2, "0")}:${ss} left` : `${Math.floor(s / 60)}:${ss} left`;
  };
  function tick() {
    document.querySelectorAll(".desk .left[data-left-ms]").forEach((el) => {
      const left = Number(el.dataset.leftMs) - (Date.now() - drawn);
      el.textContent = fmt(left);
      el.classList.toggle("over", left < 0);
    });
  }
  setInterval(tick, 500);
})();
