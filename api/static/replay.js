// Replay viewer: arrow keys and the slider move between versions (deep links keep ?version=N).
(function () {
  const bar = document.getElementById("replay");
  if (!bar) return;
  const latest = Number(bar.dataset.latest);
  const go = (v) => { const url = new URL(window.location); url.searchParams.set("version", Math.max(1, Math.min(latest, v))); window.location = url; };
  const current = Number(bar.dataset.version);
  document.addEventListener("keydown", (e) => {
    if (e.target.closest("input[type=text], input:not([type]), textarea")) return;
    if (e.key === "ArrowLeft") { e.preventDefault(); go(current - 1); }
    if (e.key === "ArrowRight") { e.preventDefault(); go(current + 1); }
    if (e.key === "Home") { e.preventDefault(); go(1); }
    if (e.key === "End") { e.preventDefault(); go(latest); }
  });
  const slider = document.getElementById("slider");
  if (slider) slider.addEventListener("change", () => go(Number(slider.value)));
})();
