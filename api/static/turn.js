// "Your turn": while it is the viewing seat's turn the page title starts with "● Your turn", and when the turn
// comes to it (not on page load) a browser notification says so, if the person allowed them (the button below
// the table asks; browsers only ask on a click). Reads the panel table.js swaps in: `#turn.mine` is drawn by
// _panel.html exactly when this seat is to act.
(function () {
  const root = document.getElementById("panel");
  if (!root || root.dataset.seat === "") return;  // a spectator or the referee has no turn
  const base = document.title;
  const MARK = "● Your turn · ";
  let mine = false;

  function update(initial) {
    const now = !!root.querySelector("#turn.mine");
    document.title = now ? MARK + base : base;
    if (now && !mine && !initial && window.Notification && Notification.permission === "granted") {
      const note = new Notification("Your turn", { body: base, tag: `arbiter-turn-${root.dataset.game}` });
      note.onclick = () => { window.focus(); note.close(); };
    }
    mine = now;
  }

  if (window.Notification && Notification.permission === "default") {
    const ask = document.createElement("button");
    ask.type = "button";
    ask.className = "secondary notify-turn";
    ask.textContent = "Notify me when it is my turn";
    ask.addEventListener("click", async () => {
      const answer = await Notification.requestPermission();
      ask.replaceWith(Object.assign(document.createElement("p"), {
        className: "notify-turn", textContent: answer === "granted" ? "You will be notified on your turn." : "Notifications are off." }));
    });
    const box = Object.assign(document.createElement("section"), { className: "panel notify", id: "notify" });
    box.append(ask);
    root.after(box);
  }

  root.addEventListener("arbiter:panel", () => update(false));
  update(true);
})();
