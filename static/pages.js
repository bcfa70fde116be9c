// Scorekeeper's scripts for pages away from the table: the rules search, the deal
// helper, the play checker and seating a new match. Progressive enhancement only,
// like app.js (loaded before this one: the play checker uses its CardPicker).
"use strict";

// ---- rules reference and deal helper ----
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
// A game chosen that is not played at the table size picked drops that size first,
// so the answer asks again instead of refusing.
document.querySelectorAll("form[data-autosubmit]").forEach((form) => {
  form.addEventListener("change", (event) => {
    const game = event.target.closest("input[data-most]");
    const size = form.querySelector("input[name=players]:checked");
    if (game && size && (Number(size.value) > Number(game.dataset.most)
        || Number(size.value) < Number(game.dataset.least))) size.checked = false;
    form.requestSubmit();
  });
});

// ---- play checker ----
// The seats offered follow the players choice (those past it are hidden, not sent),
// and the picker's joker key follows the game choice.
document.querySelectorAll("form[data-check-form]").forEach((form) => {
  const players = form.querySelector("select[name=players]");
  const syncSeats = () => {
    if (!players) return;
    const n = Number(players.value);
    form.querySelectorAll("[data-seat-n]").forEach((el) => {
      const off = Number(el.dataset.seatN) > n;
      el.hidden = off;
      if (el.tagName === "OPTION") el.disabled = off;
      el.querySelectorAll("input").forEach((input) => { input.disabled = off; });
    });
  };
  if (players) players.addEventListener("change", syncSeats);
  syncSeats();
  const picker = CardPicker.of(form);
  // Questions only one game asks (the melee: Last One) follow the game choice.
  const syncGame = (game) => {
    form.querySelectorAll("[data-for-game]").forEach((el) => { el.hidden = el.dataset.forGame !== game; });
  };
  form.querySelectorAll("input[name=game]").forEach((radio) => radio.addEventListener("change", () => {
    if (picker) picker.setJokers(radio.value === "last-one");
    syncGame(radio.value);
  }));
});
// The answer, after Check: the page opens at it (#answer); focus it for screen readers
// without moving the page again.
document.querySelectorAll("[data-check-answer]").forEach((box) => box.focus({ preventScroll: true }));

// ---- new match: seating by tapping ----
// The form's seat selects still carry the seating (and are the page without script);
// here each tap on a player gives them the next seat number, a second tap unseats them
// and closes the gap. Typing a new player's name seats them next too. Seats stop at
// the game's maximum. The first-dealer choice names who sits in each seat.
document.querySelectorAll("form[data-seating]").forEach((form) => {
  const taps = form.querySelector("[data-seat-taps]");
  if (!taps) return;
  const max = Number(taps.dataset.max) || 99;
  const buttons = Array.from(taps.querySelectorAll("[data-seat-for]"));
  const selectOf = (button) => document.getElementById(button.dataset.seatFor);
  const newRows = Array.from(form.querySelectorAll(".new-player"));
  const seats = () => [
    ...buttons.map((b) => ({ select: selectOf(b), name: b.querySelector(".who").textContent.trim(), button: b })),
    ...newRows.map((row) => ({ select: row.querySelector("select"), name: row.querySelector("input").value.trim(), row })),
  ].filter((s) => s.select);
  const seated = () => seats().filter((s) => s.select.value).sort((a, b) => a.select.value - b.select.value);
  const dealer = form.querySelector("select[name=first_dealer]");

  const show = () => {
    const order = seated();
    buttons.forEach((b) => {
      const n = selectOf(b).value;
      b.setAttribute("aria-pressed", String(Boolean(n)));
      b.querySelector("[data-seat-no]").textContent = n;
      b.disabled = !n && order.length >= max;
    });
    if (dealer) {
      Array.from(dealer.options).forEach((option) => {
        const who = order[Number(option.value) - 1];
        option.textContent = who ? `Seat ${option.value}: ${who.name}` : `The player in seat ${option.value}`;
      });
    }
  };
  const seat = (select) => { select.value = String(seated().length + 1); };
  const unseat = (select) => {
    const gone = Number(select.value);
    select.value = "";
    seated().forEach((s) => { if (Number(s.select.value) > gone) s.select.value = String(Number(s.select.value) - 1); });
  };

  buttons.forEach((b) => b.addEventListener("click", () => {
    const select = selectOf(b);
    if (select.value) unseat(select);
    else if (seated().length < max) seat(select);
    show();
  }));
  newRows.forEach((row) => {
    const input = row.querySelector("input");
    const select = row.querySelector("select");
    select.hidden = true;
    input.addEventListener("input", () => {
      if (input.value.trim() && !select.value && seated().length < max) seat(select);
      else if (!input.value.trim() && select.value) unseat(select);
      show();
    });
  });
  form.classList.add("js-seating");
  taps.hidden = false;
  form.querySelectorAll("[data-seat-help]").forEach((p) => { p.hidden = true; });
  form.querySelectorAll("[data-seat-help-js]").forEach((p) => { p.hidden = false; });
  show();
});

// ---- new match: one new-player row at a time, and the house rules' one line ----
// Without script every new-player row shows; here only those typed in and the next
// empty one, so the seats and "Start" stay on the first screen.
document.querySelectorAll("form[data-seating]").forEach((form) => {
  const rows = Array.from(form.querySelectorAll(".new-player"));
  const filled = (row) => row.querySelector("input").value.trim() !== "";
  const reveal = () => {
    let offered = false;
    rows.forEach((row) => {
      const show = filled(row) || !offered;
      if (!filled(row) && show) offered = true;
      row.hidden = !show;
    });
  };
  rows.forEach((row) => row.querySelector("input").addEventListener("input", reveal));
  reveal();
});
// The summary line of the folded house rules says which differ from the usual rule.
document.querySelectorAll("details.house-rules").forEach((details) => {
  const line = details.querySelector("[data-rules-differ]");
  const options = Array.from(details.querySelectorAll("[data-usual]"));
  const describe = () => {
    const differ = options.filter((option) => {
      const input = option.querySelector("select, input[type=number]");
      return input && input.value !== option.dataset.usual;
    }).map((option) => option.querySelector("label").textContent.trim());
    line.textContent = differ.length ? `${differ.join("; ")} changed` : "standard rules";
  };
  details.addEventListener("change", describe);
  details.addEventListener("input", describe);
});
