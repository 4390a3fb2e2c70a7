// The fair-play report's progress (api/pages/desk.py fairplay_progress): poll the job twice a second, show how
// many decisions are judged, and reload the page once the report is done (the page then shows it). A page answered
// "busy" (429) reloads after its Retry-After; a failed job is said, with a link that asks again. Without script the
// page refreshes itself (its <noscript> meta).
(function () {
  var box = document.getElementById("fairplay-job");
  if (!box) return;
  var url = box.getAttribute("data-url");
  var bar = document.getElementById("fairplay-progress");
  var count = document.getElementById("fairplay-count");
  var state = document.getElementById("fairplay-state");

  if (box.getAttribute("data-status") === "busy") {
    setTimeout(function () { window.location.reload(); }, 1000 * (parseInt(box.getAttribute("data-retry"), 10) || 10));
    return;
  }

  function stop(message) {
    box.setAttribute("data-status", "failed");
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
        if (job.status !== "running") return window.location.reload();  // done, or unknown to this server process
        var p = job.progress || {};
        if (p.total) {
          bar.max = p.total;
          bar.value = p.done;
          count.textContent = p.done + " of " + p.total + " decisions judged";
        }
        setTimeout(poll, 500);
      });
    }).catch(function () { setTimeout(poll, 3000); });
  }

  setTimeout(poll, 250);
})();
