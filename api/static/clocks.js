// Clocks: run each running seat's clock on between server updates (view.clock, docs/clocks.md).
// The server says its own time when it drew the panel; the page only adds the time passed since then.
(function () {
  const fmt = (ms) => { const s = Math.max(0, Math.floor(ms / 1000)); return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`; };

  function tick() {
    document.querySelectorAll("#clocks").forEach((box) => {
      if (box.hasAttribute("data-frozen") || !box.dataset.serverTime) return;
      if (box.querySelector(".clock-list.waiting")) return;  // waiting for the game's first move: nothing runs
      if (!box.dataset.seenAt) box.dataset.seenAt = String(Date.now());  // when this panel arrived
      const serverNow = Date.parse(box.dataset.serverTime) + (Date.now() - Number(box.dataset.seenAt));
      box.querySelectorAll(".clock.running").forEach((li) => {
        const running = Math.max(0, serverNow - Date.parse(li.dataset.since));
        const used = Number(li.dataset.used) + running;
        li.querySelector(".used").textContent = fmt(used);
        const left = li.querySelector(".left");
        if (left && li.dataset.gameLimit) left.textContent = `${fmt(Number(li.dataset.gameLimit) - used)} left`;
        const over = (li.dataset.gameLimit && used > Number(li.dataset.gameLimit)) ||
                     (li.dataset.moveLimit && running > Number(li.dataset.moveLimit));
        li.classList.toggle("over", Boolean(over));
      });
    });
  }
  tick();
  setInterval(tick, 250);
})();
