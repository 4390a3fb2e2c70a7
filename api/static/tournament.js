// The tournament page: the print button prints the pairings and standings (the print style hides the rest); while
// games are being played the page reads itself again every 20 seconds (tables, clocks, disputes at a glance),
// unless the director is typing, has a game's links open, or the tab is hidden.
(function () {
  const button = document.getElementById("print");
  if (button) button.addEventListener("click", () => window.print());
  const t = document.getElementById("tournament");
  if (!t || t.dataset.status !== "playing") return;
  setInterval(() => {
    const busy = document.hidden || document.querySelector("details[open]")
      || (document.activeElement && ["INPUT", "TEXTAREA", "SELECT"].includes(document.activeElement.tagName));
    if (!busy) window.location.reload();
  }, 20000);
})();
