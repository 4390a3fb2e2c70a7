// Copy buttons (the links page): a button's data-copy text goes to the clipboard; the button says so.
(function () {
  for (const button of document.querySelectorAll("button[data-copy]")) {
    button.addEventListener("click", async () => {
      const text = button.dataset.copy;
      try {
        await navigator.clipboard.writeText(text);
        button.textContent = "Copied";
      } catch (e) {  // no clipboard (an insecure origin): select the link so the phone's own copy works
        const link = button.previousElementSibling;
        if (link) window.getSelection().selectAllChildren(link);
        button.textContent = "Selected: copy it";
      }
      setTimeout(() => { button.textContent = "Copy"; }, 2500);
    });
  }
})();
