// Scorekeeper's one small script: progressive enhancement only. Every page works
// without it; each feature below attaches to elements that ask for it by data-*.
"use strict";

// Disable a form's submit buttons once it is sent, so a double tap sends it once.
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || form.dataset.allowResubmit !== undefined) return;
  window.setTimeout(() => {
    form.querySelectorAll("button[type=submit], input[type=submit]").forEach((b) => { b.disabled = true; });
  }, 0);
});
