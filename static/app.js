// Scorekeeper's small script for every page: progressive enhancement only. Every page
// works without it; each feature below attaches to elements that ask for it by data-*.
// What only pages away from the table use (rules search, deal helper, play checker,
// seating) is in pages.js, which those pages load after this one.
"use strict";

// Disable a form's submit buttons once it is sent, so a double tap sends it once.
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || form.dataset.allowResubmit !== undefined) return;
  window.setTimeout(() => {
    form.querySelectorAll("button[type=submit], input[type=submit]").forEach((b) => { b.disabled = true; });
  }, 0);
});

// ---- rules card ----
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

// ---- matches at the table: confirmations ----
// Forms marked data-confirm ask first (delete a hand, replace a link, leave). Listening
// on the document in the capture phase runs before every other submit listener (the
// double-submit guard above too, so "Cancel" leaves the button usable), and covers
// forms a live refresh swapped in after this script ran. A yes is sent as confirm=yes;
// without this script the server asks on a page of its own (scorekeeper/web/confirm.py).
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || form.dataset.confirm === undefined) return;
  if (!window.confirm(form.dataset.confirm)) {
    event.preventDefault();
    event.stopImmediatePropagation();
    return;
  }
  if (!form.querySelector("input[name=confirm]")) {
    const yes = document.createElement("input");
    Object.assign(yes, { type: "hidden", name: "confirm", value: "yes" });
    form.append(yes);
  }
}, true);
document.querySelectorAll("[data-select-on-focus]").forEach((input) => {
  input.addEventListener("focus", () => input.select());
});

// The live scoreboard (#board[data-live]) is kept current by static/live.js; card
// text is read by CardText (static/cards.js, loaded before this script).

// ---- card picker: a tap keyboard for any input[data-cards] (hand entry, play checker) ----
// One [data-picker] block (rank keys, suit keys, a joker key where the game has
// jokers, a back key) serves every input[data-cards] in its form. It sits under the
// field it fills, or, marked data-dock, stays docked at the bottom of the screen like
// a phone keyboard (the page keeps room for it, so it never covers the save button).
// Tapping a field or its label makes it the picker's target without opening the
// phone's keyboard where the picker offers "Type instead" (data-type-key); focusing
// the field moves the picker too. Tap a rank, then a suit; "Next player" (data-next-seat)
// moves on to the next field still empty. data-cards="one" holds a single card: a tap
// replaces it, then the picker moves on to the empty field named by data-next
// (data-next-joker after a joker). Otherwise taps append. The picker only writes the
// same text a person would type and fires "input", so the server stays the judge.
// Fields marked data-picker-skip get the picker only when asked; when every field is
// filled, it starts at the picker's data-again field (or the first). The keys are one
// tab stop (roving tabindex): arrow keys, Home and End move between them.
const CardPicker = (() => {
  const controllers = new Map();
  const holder = (input) => input.closest("[data-card-field]") || input.parentElement;
  const shown = (input) => input.getClientRects().length > 0 && !holder(input).classList.contains("is-out");

  // Arrow keys inside the keys grid; the key that last had focus is the one tab stop.
  const rove = (grid) => {
    const keys = () => Array.from(grid.querySelectorAll(".cp-key")).filter((k) => !k.hidden);
    const mark = (key) => keys().forEach((k) => { k.tabIndex = k === key ? 0 : -1; });
    const below = (from, down) => {
      const a = from.getBoundingClientRect();
      const x = a.left + a.width / 2;
      const rows = keys().filter((k) => {
        const b = k.getBoundingClientRect();
        return down ? b.top >= a.bottom - 1 : b.bottom <= a.top + 1;
      });
      if (!rows.length) return null;
      const edge = (k) => k.getBoundingClientRect().top;
      const row = down ? Math.min(...rows.map(edge)) : Math.max(...rows.map(edge));
      const near = rows.filter((k) => edge(k) === row);
      const dx = (k) => { const b = k.getBoundingClientRect(); return Math.abs(b.left + b.width / 2 - x); };
      return near.reduce((best, k) => (dx(k) < dx(best) ? k : best));
    };
    grid.addEventListener("keydown", (event) => {
      const all = keys();
      const at = all.indexOf(document.activeElement);
      if (at < 0) return;
      const to = {
        ArrowRight: () => all[Math.min(at + 1, all.length - 1)],
        ArrowLeft: () => all[Math.max(at - 1, 0)],
        ArrowDown: () => below(all[at], true),
        ArrowUp: () => below(all[at], false),
        Home: () => all[0],
        End: () => all[all.length - 1],
      }[event.key];
      const key = to && to();
      if (!to) return;
      event.preventDefault();
      if (key) { mark(key); key.focus(); }
    });
    grid.addEventListener("focusin", (event) => { if (event.target.classList.contains("cp-key")) mark(event.target); });
    mark(keys()[0]);
    return () => { if (!keys().some((k) => k.tabIndex === 0)) mark(keys()[0]); };
  };

  // A docked picker: fixed to the bottom, with its height kept free under the page;
  // ``resized`` runs when its height changes (the line of points came or went).
  const dock = (picker, resized) => {
    picker.classList.add("is-docked");
    document.body.classList.add("has-dock");
    // Keys closed (the play checker) keep their room: the page must not shrink mid-tap.
    const room = () => {
      if (picker.offsetHeight) document.documentElement.style.setProperty("--dock", `${picker.offsetHeight}px`);
    };
    room();
    if (window.ResizeObserver) new ResizeObserver(() => { room(); resized(); }).observe(picker);
  };

  const attach = (picker) => {
    const form = picker.closest("form");
    const targets = form ? Array.from(form.querySelectorAll("input[data-cards]")) : [];
    if (!targets.length) return;
    const name = picker.querySelector("[data-picker-name]");
    const joker = picker.querySelector("[data-joker]");
    const typeKey = picker.querySelector("[data-type-key]");
    const nextKey = picker.querySelector("[data-next-seat]");
    const nextLabel = nextKey ? nextKey.textContent : "";
    // data-finish: the last seat's Next key sends the form (its value, if any, is the
    // key's label then: "Save hand 3" when editing; else the button's words).
    const submit = form && picker.dataset.finish !== undefined
      ? form.querySelector(".form-action button[type=submit]") : null;
    const docked = picker.dataset.dock !== undefined;
    let active = null;
    let pendingRank = null;
    let typing = false;

    const setPending = (rank) => {
      pendingRank = rank;
      picker.querySelectorAll("[data-rank]").forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.rank === rank)));
    };
    // Where the picker offers typing, the fields do not raise the phone keyboard
    // until "Type instead" is pressed.
    const setTyping = (on) => {
      typing = on;
      targets.forEach((t) => { if (on) t.removeAttribute("inputmode"); else t.setAttribute("inputmode", "none"); });
      if (typeKey) typeKey.setAttribute("aria-pressed", String(on));
    };
    const reveal = (input) => {
      const box = holder(input).getBoundingClientRect();
      const bottom = window.innerHeight - (docked ? picker.offsetHeight : 0);
      if (box.top < 0 || box.bottom > bottom) holder(input).scrollIntoView({ block: "nearest" });
    };
    // "still": the first target, as the page opens, is chosen without scrolling to it
    // (a page that opens at an answer stays there).
    const activate = (input, still) => {
      if (!input) return;
      targets.forEach((t) => holder(t).classList.toggle("active", t === input));
      active = input;
      if (!docked) holder(input).after(picker);
      const label = form.querySelector(`label[for="${input.id}"]`);
      if (name) name.textContent = label ? label.textContent.trim() : "";
      if (joker) joker.hidden = picker.dataset.jokers === "0" || input.dataset.noJoker !== undefined;
      if (fixTabStop) fixTabStop();
      setPending(null);
      showNext();
      if (docked && !still) reveal(input);
    };
    // The field being filled stays above the keys while its cards and points grow.
    const write = (value) => {
      active.value = value;
      active.dispatchEvent(new Event("input", { bubbles: true }));
      if (docked) reveal(active);
    };
    // On the last seat that needs cards, "Next player" becomes "Record hand": the
    // picker sends the form, so finishing a hand needs no scroll to its button.
    const finishing = () => Boolean(submit) && targets.filter(shown).every((t) => t === active || t.value.trim());
    const finishLabel = submit ? (picker.dataset.finish || submit.textContent.trim().replace(/\s+\d+$/, "")) : "";
    const showNext = () => {
      if (!nextKey) return;
      const finish = finishing();
      nextKey.textContent = finish ? finishLabel : nextLabel;
      nextKey.classList.toggle("finish", finish);
      picker.classList.toggle("is-finishing", finish); // shows what is sent (data-picker-sum)
    };
    // The next field that still needs cards after the active one (round the table),
    // else simply the next one.
    const nextSeat = () => {
      const open = targets.filter(shown);
      if (!open.length) return;
      const at = open.indexOf(active);
      const order = [...open.slice(at + 1), ...open.slice(0, at + 1)];
      activate(order.find((t) => t !== active && !t.value.trim()) || order[0]);
    };
    const put = (text) => {
      if (!active) return;
      if (active.dataset.cards !== "one") {
        write([...CardText.tokens(active.value), text].join(" "));
        return;
      }
      write(text);
      const next = document.getElementById((text === "JK" ? active.dataset.nextJoker : active.dataset.next) || "");
      if (next && !next.value.trim() && shown(next)) activate(next);
    };
    const back = () => {
      if (!active) return;
      write(active.dataset.cards === "one" ? "" : CardText.tokens(active.value).slice(0, -1).join(" "));
      setPending(null);
    };

    targets.forEach((input) => {
      input.addEventListener("input", showNext);
      input.addEventListener("focus", () => { if (active !== input) activate(input); });
      holder(input).addEventListener("click", (event) => {
        if (event.target.closest("label")) event.preventDefault(); // no keyboard
        if (!event.target.closest(".preview")) activate(input);
      });
    });
    picker.addEventListener("click", (event) => {
      const key = event.target.closest("button");
      if (!key) return;
      if (key.dataset.rank) setPending(pendingRank === key.dataset.rank ? null : key.dataset.rank);
      else if (key.dataset.suit && pendingRank) { put(pendingRank + key.dataset.suit); setPending(null); }
      else if (key.dataset.joker !== undefined) { put("JK"); setPending(null); }
      else if (key.dataset.undo !== undefined) back();
      else if (key.dataset.nextSeat !== undefined) {
        if (finishing()) form.requestSubmit(submit);
        else nextSeat();
      }
      else if (key.dataset.typeKey !== undefined) {
        setTyping(!typing);
        if (typing && active) active.focus();
      }
    });
    const grid = picker.querySelector("[data-picker-keys]");
    const fixTabStop = grid ? rove(grid) : null;
    if (typeKey) setTyping(false);
    picker.hidden = false;
    if (docked) dock(picker, () => { if (active && !picker.hidden) reveal(active); });
    const empty = targets.find((t) => !t.value.trim() && t.dataset.pickerSkip === undefined && shown(t));
    activate(empty || document.getElementById(picker.dataset.again || "") || targets.find(shown) || targets[0], true);
    controllers.set(form, {
      activate,
      get active() { return active; },
      // The game changed (play checker): show the joker key only where it has jokers.
      setJokers(on) { picker.dataset.jokers = on ? "1" : "0"; activate(active); },
      // Who went out changed: the seats that need cards changed with it.
      refresh: showNext,
    });
  };
  document.querySelectorAll("[data-picker]").forEach(attach);
  return { of: (form) => controllers.get(form) || null };
})();

// The hand form's live preview (the server's points) is static/hand.js, and "Keep
// screen on" is static/wake.js: both come after the page has loaded (data-after-load).

// ---- plain HTTP: the line that says what this address lacks ----
document.querySelectorAll("[data-plain-http]").forEach((line) => { line.hidden = window.isSecureContext !== false; });

// ---- offline support (static/offline.js), never in the way of a first visit ----
// A page the service worker serves gets offline.js at once (from this phone, no
// network). A page it does not serve yet (the first visit, or a browser without
// service workers) gets it once the page has loaded and the browser is idle: the
// worker it registers, and the copies that worker keeps for offline use, then come
// after the page instead of competing with it.
// A page may name more scripts to come the same way (data-after-load on any element:
// the hand form's live.js, which has nothing to do until the page is in use).
(() => {
  const tag = document.querySelector("script[data-offline]");
  if (!tag) return;
  const later = Array.from(document.querySelectorAll("[data-after-load]"), (el) => el.dataset.afterLoad);
  const load = () => {
    [tag.dataset.offline, ...later].forEach((src) => {
      const script = document.createElement("script");
      script.src = src;
      document.head.append(script);
    });
  };
  const idle = () => (window.requestIdleCallback ? window.requestIdleCallback(load, { timeout: 2000 })
    : window.setTimeout(load, 200));
  // A new hand's form gets it at its load event, not when idle: it is what sends the
  // hand (a post before it ran goes as a plain post, and with no worker a failed post
  // loses the typed cards).
  const now = document.querySelector("form[data-offline-match]") ? load : idle;
  if (navigator.serviceWorker && navigator.serviceWorker.controller) load();
  else if (document.readyState === "complete") now();
  else window.addEventListener("load", now, { once: true });
})();
