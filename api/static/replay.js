// Replay viewer: arrow keys (←/→, Home/End) and the slider move between versions (each a page of its own,
// ?version=N, so every step is a link that works without this script); the move list keeps the current
// entry in sight.
(function () {
  const bar = document.getElementById("replay");
  if (!bar) return;
  const latest = Number(bar.dataset.latest);
  const current = Number(bar.dataset.version);
  const go = (v) => {
    v = Math.max(1, Math.min(latest, v));
    if (v === current) return;
    const url = new URL(window.location);
    url.searchParams.set("version", v);
    url.hash = "";
    window.location = url;
  };
  document.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    if (e.target.closest("input:not([type=range]), textarea, select, [contenteditable]")) return;
    const step = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 1, End: latest }[e.key];
    if (step === undefined) return;
    e.preventDefault();
    go(step);
  });
  const slider = document.getElementById("slider");
  if (slider) slider.addEventListener("change", () => go(Number(slider.value)));
  // the current entry in the middle of the list's own scroll box (the page itself does not jump)
  const box = document.getElementById("move-scroll");
  const here = box && box.querySelector(".move.current");
  if (box && here) {
    box.scrollTop += here.getBoundingClientRect().top - box.getBoundingClientRect().top - (box.clientHeight - here.offsetHeight) / 2;
  }
})();
