// The tournament page: the print button prints the pairings and standings (the print style hides the rest).
(function () {
  const button = document.getElementById("print");
  if (button) button.addEventListener("click", () => window.print());
})();
