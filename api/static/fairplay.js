// The fair-play report's progress (api/pages/desk.py fairplay_progress): poll the job about once a second, show how
// many decisions are judged, and reload the page once the report is done (the page then shows it). Busy servers
// answer 429 with Retry-After: wait that long. Without script the page refreshes itself (its <noscript> meta).
(function () {
  var box = document.getElementById("fairplay-job");
  if (!box) return;
  var url = box.getAttribute("data-url");
  var bar = document.getElementById("fairplay-progress");
  var count = document.getElementById("fairplay-count");
  var state = document.getElementById("fairplay-state");

  function show(job) {
    var p = job.progress || {};
    box.setAttribute("data-status", job.status);
    if (p.total) {
      bar.max = p.total;
      bar.value = p.done;
      count.textContent = p.done + " of " + p.total + " decisions judged";
    }
  }

  function poll() {
    fetch(url, {credentials: "same-origin", headers: {"Accept": "application/json"}}).then(function (r) {
      var wait = 1000;
      if (r.status === 429) wait = 1000 * (parseInt(r.headers.get("Retry-After"), 10) || 10);
      return r.json().then(function (job) {
        var was = box.getAttribute("data-status");
        if (job.status === "done" || job.status === "failed" || job.status === "empty" || (was === "busy" && r.ok)) {
          window.location.reload();
          return;
        }
        if (r.status === 429 || !r.ok) {
          state.textContent = job.error || "The server is busy: waiting.";
          if (!r.ok && r.status !== 429) return;  // refused: nothing more to wait for
        } else {
          show(job);
        }
        setTimeout(poll, wait);
      });
    }).catch(function () { setTimeout(poll, 3000); });
  }

  setTimeout(poll, 1000);
})();
