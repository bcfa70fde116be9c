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

// ---- rules reference, rules card, deal helper (issue #5) ----
// Rules search: hide the [data-search] sections and contents entries that don't hold
// every typed word. The form still submits for the server-side search.
document.querySelectorAll("form[data-rules-search]").forEach((form) => {
  const input = form.querySelector("input[type=search]");
  const status = form.nextElementSibling;
  const items = Array.from(document.querySelectorAll("[data-search]"));
  const empty = document.querySelector("[data-search-empty]");
  if (!input || !items.length) return;
  const filter = () => {
    const words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
    let shown = 0;
    items.forEach((el) => {
      const hit = words.every((w) => el.dataset.search.includes(w));
      el.hidden = !hit;
      if (hit && el.tagName === "SECTION") shown += 1;
    });
    const sections = items.filter((el) => el.tagName === "SECTION").length;
    const visibleEntries = items.filter((el) => !el.hidden).length;
    if (empty) empty.hidden = visibleEntries > 0;
    if (status && status.hasAttribute("data-search-status")) {
      status.textContent = words.length && sections ? `${shown} of ${sections} sections match` : "";
    }
  };
  input.addEventListener("input", () => {
    document.querySelectorAll("[data-search-results]").forEach((el) => { el.hidden = true; });
    filter();
  });
});

// Forms marked data-autosubmit answer as soon as a choice changes (the deal helper).
document.querySelectorAll("form[data-autosubmit]").forEach((form) => {
  form.addEventListener("change", () => form.requestSubmit());
});

// Rules card: a Print button, and Share through the phone's share sheet when it has one.
document.querySelectorAll("[data-print]").forEach((button) => {
  button.hidden = false;
  button.addEventListener("click", () => window.print());
});
document.querySelectorAll("a[data-share]").forEach((link) => {
  link.addEventListener("click", (event) => {
    if (!navigator.share) return;
    event.preventDefault();
    navigator.share({ title: document.title, url: link.href }).catch(() => {});
  });
});
