// Lobby: after a refused creation, put back what was entered in the fields the server could not refill
// (each game's own options, drawn by its partial): values by field name, in order for repeated names.
(function () {
  const data = document.getElementById("submitted");
  const form = document.querySelector("form.create");
  if (!data || !form) return;
  const submitted = JSON.parse(data.textContent);
  for (const [name, values] of Object.entries(submitted)) {
    const fields = [...form.elements].filter((el) => el.name === name);
    fields.forEach((el, i) => {
      if (el.type === "checkbox" || el.type === "radio") el.checked = values.includes(el.value);
      else if (el.tagName === "SELECT" && el.multiple) [...el.options].forEach((o) => { o.selected = values.includes(o.value); });
      else if (i < values.length) el.value = values[i];
    });
  }
})();
