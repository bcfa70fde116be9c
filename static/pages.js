// Scorekeeper's scripts for pages beside the hand form: the rules search, the deal
// helper, the play checker, seating a new match, adding players and passing a link on.
// Kept out of app.js so the hand form, the page a table opens most, loads less.
// Progressive enhancement only, like app.js (loaded before this one: the play checker
// uses its CardPicker).
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
  // Questions only some games ask (the melee: Last One) follow the game choice; the
  // page lists the games each is for, and the games played with jokers.
  const among = (list, game) => (list || "").split(" ").includes(game);
  const syncGame = (game) => {
    form.querySelectorAll("[data-for-game]").forEach((el) => { el.hidden = !among(el.dataset.forGame, game); });
  };
  const jokerGames = form.querySelector("[data-joker-games]");
  form.querySelectorAll("input[name=game]").forEach((radio) => radio.addEventListener("change", () => {
    if (picker) picker.setJokers(among(jokerGames && jokerGames.dataset.jokerGames, radio.value));
    syncGame(radio.value);
  }));
});
// The card keys give way to the rest of the form: they close once a card and the card
// it leads to are in (the picker's own input events; typing does not close them), on
// Done, and when another control (but the game) is tapped or focused; a card field
// opens them again.
// Under an answer (data-closed) the page opens with them closed. Their room below the
// page stays, so nothing moves under a finger.
document.querySelectorAll("form[data-check-form] [data-picker][data-closable]").forEach((keys) => {
  const form = keys.closest("form");
  const picker = CardPicker.of(form);
  if (!picker) return;
  const open = (on) => {
    keys.hidden = !on;
    if (!on) form.querySelectorAll("[data-card-field].active").forEach((el) => el.classList.remove("active"));
    else if (picker.active) picker.active.closest("[data-card-field]").classList.add("active");
  };
  form.addEventListener("input", (event) => {
    const field = event.target;
    if (event.isTrusted || field.dataset.cards !== "one" || !field.value) return;
    window.setTimeout(() => { if (picker.active === field) open(false); }, 0);
  });
  keys.addEventListener("click", (event) => { if (event.target.closest("[data-close-keys]")) open(false); });
  const elsewhere = (event) => {
    const at = event.target;
    const set = at.closest("fieldset");
    // The game, chosen before the cards (/check), leaves the keys as they are.
    if (at.closest("[data-picker]") || (set && set.querySelector("input[name=game]"))) return;
    if (at.closest("[data-card-field]")) open(true);
    // Not on sending the form: the Check bar would move away mid-tap.
    else if (at.closest("input, select, textarea, summary, label, button") && !at.closest("[type=submit]")) open(false);
  };
  form.addEventListener("focusin", elsewhere);
  form.addEventListener("click", elsewhere);
  if (keys.dataset.closed !== undefined) open(false);
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

// ---- adding players: one after another with the keyboard left open ----
// The form is sent in the background and the list, messages and errors are swapped
// in from the answer, so the name field never loses focus (tapping "Add player" does
// not take it either) and Enter adds the next name. Without script: a plain POST.
document.querySelectorAll("form[data-add-player]").forEach((form) => {
  const name = form.querySelector("input[name=name]");
  const button = form.querySelector("button[type=submit]");
  button.addEventListener("mousedown", (event) => event.preventDefault());
  const swap = (doc) => {
    const main = document.querySelector("main");
    main.querySelectorAll(".flash").forEach((old) => old.remove());
    main.prepend(...doc.querySelectorAll("main .flash"));
    document.querySelector("[data-player-list]").replaceWith(doc.querySelector("[data-player-list]"));
    const fresh = doc.querySelector("form[data-add-player]");
    form.querySelectorAll(".field-error").forEach((old) => old.remove());
    form.querySelector(".name-colour").after(...fresh.querySelectorAll(".field-error"));
    ["aria-invalid", "aria-describedby"].forEach((attribute) => {
      const value = fresh.querySelector("input[name=name]").getAttribute(attribute);
      if (value === null) name.removeAttribute(attribute); else name.setAttribute(attribute, value);
    });
    form.querySelector("input[name=colour]").value = fresh.querySelector("input[name=colour]").value;
  };
  // Names go one after another (a second may be typed while the first is sent): the
  // field empties at once and the sends queue, so the list always ends up complete.
  let queue = Promise.resolve();
  const send = async (body, sent) => {
    let response;
    try {
      response = await fetch(form.action, { method: "POST", body });
    } catch (_) {
      if (!name.value) name.value = sent;
      form.submit(); // no network answer: the plain form says what happened
      return;
    }
    swap(new DOMParser().parseFromString(await response.text(), "text/html"));
    if (!response.ok && !name.value) name.value = sent; // refused: fix it in place
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const body = new FormData(form);
    const sent = name.value;
    name.value = "";
    name.focus();
    queue = queue.then(() => send(body, sent));
  });
});

// ---- passing a link on: Copy, and Share where the phone has a share sheet ----
// A [data-share-link] block holds the link's text field; without script the field
// can still be selected and copied by hand (and the QR code beside it needs none).
const copyText = async (input) => {
  try {
    await navigator.clipboard.writeText(input.value);
    return true;
  } catch (_) {
    input.focus();
    input.select();
    return document.execCommand("copy"); // older browsers, or clipboard refused
  }
};
document.querySelectorAll("[data-share-link]").forEach((block) => {
  const input = block.querySelector("input");
  const status = block.querySelector("[data-copy-status]");
  const copy = async () => {
    status.textContent = (await copyText(input)) ? "Copied." : "Select the link and copy it.";
  };
  const copyButton = block.querySelector("[data-copy]");
  copyButton.hidden = false;
  copyButton.addEventListener("click", copy);
  const share = block.querySelector("[data-share-url]");
  if (!navigator.share) return;
  share.hidden = false;
  share.addEventListener("click", () => {
    navigator.share({ title: document.title, url: input.value }).catch((error) => {
      if (error.name !== "AbortError") copy();
    });
  });
});
