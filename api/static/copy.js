// Copy buttons (the links page, the tournament's game links): a button's data-copy text goes to the clipboard; the
// button says so. One listener on the document, so buttons a page draws again (the tournament's live room) copy too.
(function () {
  document.addEventListener("click", async (event) => {
    const button = event.target.closest && event.target.closest("button[data-copy]");
    if (!button) return;
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
})();
