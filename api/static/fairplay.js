// The fair-play report's progress (api/pages/desk.py fairplay_progress): poll the job twice a second, show its place
// in the queue, its estimate, its stage (1: the screen, in percent; 2: the full test, decisions judged), and reload the page once the report is done (the page then shows it). A page answered
// "busy" (429) reloads after its Retry-After; a failed job is said, with a link that asks again, and its bar is taken
// away (it says "stopped", no longer "reading the games"). Without script the
// page refreshes itself (its <noscript> meta).
(function () {
  var box = document.getElementById("fairplay-job");
  if (!box) return;
  var url = box.getAttribute("data-url");
  var bar = document.getElementById("fairplay-progress");
  var count = document.getElementById("fairplay-count");
  var state = document.getElementById("fairplay-state");
  var queue = document.getElementById("fairplay-queue");
  var stage = document.getElementById("fairplay-stage");

  if (box.getAttribute("data-status") === "busy") {
    setTimeout(function () { window.location.reload(); }, 1000 * (parseInt(box.getAttribute("data-retry"), 10) || 10));
    return;
  }

  function stop(message) {
    // the job is over: its bar must not keep reading "reading the games" (or a count) as if it still ran
    box.setAttribute("data-status", "failed");
    bar.hidden = true;
    bar.removeAttribute("value");
    count.textContent = "stopped: nothing more is being judged.";
    state.textContent = message + " ";
    var again = document.createElement("a");
    again.href = window.location.pathname;
    again.textContent = "Try again";
    state.appendChild(again);
  }

  function poll() {
    fetch(url, {credentials: "same-origin", headers: {"Accept": "application/json"}}).then(function (r) {
      return r.json().then(function (job) {
        if (!r.ok) return stop(job.error || "The report's progress could not be read.");
        if (job.status === "failed") return stop("The report could not be made: " + job.error + ".");
        if (job.status === "cancelled") return stop("The report was cancelled.");
        if (job.status !== "running" && job.status !== "queued") return window.location.reload();  // done, or unknown
        var p = job.progress || {};
        var q = job.queue || {};
        var parts = [];
        if (q.position) parts.push("place " + q.position + " in the queue");
        if (q.estimate_seconds !== null && q.estimate_seconds !== undefined) parts.push("done in about " + Math.round(q.estimate_seconds) + " s");
        queue.textContent = parts.join(", ");
        if (job.status === "queued") count.textContent = "waiting for a free worker";
        if (stage) stage.textContent = job.stage === "full" ? "Stage 2 of 2, the full test of the referred:" : "Stage 1 of 2, the screen:";
        if (job.status === "running" && p.total) {
          bar.max = p.total;
          bar.value = p.done;
          count.textContent = job.stage === "full"
            ? p.done + " of " + p.total + (p.total === 1 ? " decision" : " decisions") + " judged"
            : Math.round(100 * p.done / p.total) + "% screened";
        }
        setTimeout(poll, 500);
      });
    }).catch(function () { setTimeout(poll, 3000); });
  }

  setTimeout(poll, 250);
})();
