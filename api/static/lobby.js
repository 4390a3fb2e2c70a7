// The creation forms (the lobby's and the tournaments'): only the picked game's options are shown (and sent);
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
  game.addEventListener("change", show);
  show();
})();
