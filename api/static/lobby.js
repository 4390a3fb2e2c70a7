// The creation forms (the lobby's and the tournaments'): only the picked game's options are shown (and sent), and
// in the lobby a row for each seat the picked game can have;
// after a refused creation, what was entered is put back in the fields the server could not refill (each game's
// own options, drawn by its partial): values by field name, in order for repeated names.
(function () {
  const form = document.querySelector("form.create");
  if (!form) return;
  const data = document.getElementById("submitted");
  if (data) {
    const submitted = JSON.parse(data.textContent);
    for (const [name, values] of Object.entries(submitted)) {
      const fields = [...form.elements].filter((el) => el.name === name);
      fields.forEach((el, i) => {
        if (el.type === "checkbox" || el.type === "radio") el.checked = values.includes(el.value);
        else if (el.tagName === "SELECT" && el.multiple) [...el.options].forEach((o) => { o.selected = values.includes(o.value); });
        else if (i < values.length) el.value = values[i];
      });
    }
  }
  const game = form.querySelector("select[name=game]");
  const sets = [...form.querySelectorAll("fieldset.options[data-game]")];
  if (!game || !sets.length) return;
  const show = () => sets.forEach((set) => {
    const mine = set.dataset.game === game.value;
    set.hidden = !mine;
    set.disabled = !mine;
  });
  // a row for each seat the picked game can have (its spec's range): the fewest required, the rest hidden and unsent
  const rows = [...form.querySelectorAll(".player-row[data-seat]")];
  const seats = () => {
    const picked = game.selectedOptions[0];
    if (!picked || !picked.dataset.max) return;
    const min = Number(picked.dataset.min), max = Number(picked.dataset.max);
    rows.forEach((row) => {
      const i = Number(row.dataset.seat);
      row.hidden = i >= max;
      row.querySelectorAll("input").forEach((input) => { input.disabled = i >= max; });
      const name = row.querySelector("input[name=name]");
      if (name) { name.required = i < min; name.placeholder = i < min ? "name" : "empty seat"; }
    });
  };
  game.addEventListener("change", () => { show(); seats(); });
  show();
  seats();
})();
