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

// ---- matches at the table: confirmations, live scoreboard, card picker (issue #3) ----
// Forms marked data-confirm ask first (delete a hand, replace a link). Listening on
// the form itself runs before the double-submit guard above, so "Cancel" leaves the
// button usable.
document.querySelectorAll("form[data-confirm]").forEach((form) => {
  form.addEventListener("submit", (event) => {
    if (!window.confirm(form.dataset.confirm)) {
      event.preventDefault();
      event.stopPropagation();
    }
  });
});
document.querySelectorAll("[data-select-on-focus]").forEach((input) => {
  input.addEventListener("focus", () => input.select());
});

// A spectator's scoreboard (#board[data-live]) re-fetches its own page every few
// seconds and swaps in the new board; without JavaScript it is a normal page.
document.querySelectorAll("#board[data-live]").forEach((board) => {
  const every = Number(board.dataset.live) || 10000;
  const refresh = async () => {
    if (document.hidden) return;
    try {
      const response = await fetch(window.location.href, { cache: "no-store" });
      if (!response.ok) return;
      const page = new DOMParser().parseFromString(await response.text(), "text/html");
      const fresh = page.getElementById("board");
      if (fresh && fresh.innerHTML !== board.innerHTML) board.innerHTML = fresh.innerHTML;
    } catch (_) { /* offline for a moment: try again next time */ }
  };
  window.setInterval(refresh, every);
  document.addEventListener("visibilitychange", refresh);
});

// Hand entry: a tap-to-enter card picker and a live preview of each card's points.
// The picker only writes into the same text inputs the typed form uses, so the
// server sees the same thing either way and stays the judge of what is valid.
const CardText = (() => {
  const SUITS = { c: "C", d: "D", h: "H", s: "S", "♣": "C", "♦": "D", "♥": "H", "♠": "S",
    "♧": "C", "♢": "D", "♡": "H", "♤": "S" };
  const RANKS = { a: "A", t: "10", j: "J", q: "Q", k: "K" };
  for (let n = 2; n <= 10; n += 1) RANKS[String(n)] = String(n);
  const JOKERS = new Set(["jk", "joker", "jkr", "🃏", "*"]);
  const SYMBOL = { C: "♣", D: "♦", H: "♥", S: "♠" };
  // One token to {rank, suit, text} (text is canonical, e.g. "10H"), or null.
  const parse = (token) => {
    const low = token.trim().toLowerCase();
    if (JOKERS.has(low)) return { rank: "JK", suit: null, text: "JK" };
    const chars = Array.from(low);
    if (chars.length < 2) return null;
    const tries = [[chars.slice(0, -1).join(""), chars[chars.length - 1]], [chars.slice(1).join(""), chars[0]]];
    for (const [r, s] of tries) {
      if (RANKS[r] && SUITS[s]) return { rank: RANKS[r], suit: SUITS[s], text: RANKS[r] + SUITS[s] };
    }
    return null;
  };
  const tokens = (text) => text.split(/[\s,;]+/).filter(Boolean);
  const pretty = (card) => (card.suit ? card.rank + SYMBOL[card.suit] : "Joker");
  return { parse, tokens, pretty };
})();

document.querySelectorAll("form[data-hand-form]").forEach((form) => {
  const points = JSON.parse(form.dataset.points || "{}");
  const lastOne = form.dataset.game === "last-one";
  const copies = (card) => (card.suit ? Number(form.dataset.copies) : Number(form.dataset.jokers));
  const rows = Array.from(form.querySelectorAll(".held"));
  const picker = form.querySelector("[data-picker]");
  let active = null;
  let pendingRank = null;

  const inputOf = (row) => row.querySelector("input[data-cards]");
  const preview = () => {
    const seen = new Map();
    const parsed = rows.map((row) => CardText.tokens(inputOf(row).value).map((t) => ({ t, card: CardText.parse(t) })));
    parsed.flat().forEach(({ card }) => { if (card) seen.set(card.text, (seen.get(card.text) || 0) + 1); });
    rows.forEach((row, i) => {
      const box = row.querySelector(".preview");
      box.replaceChildren();
      let total = 0;
      parsed[i].forEach(({ t, card }, at) => {
        if (!card) {
          const bad = document.createElement("span");
          bad.className = "bad-token";
          bad.textContent = `“${t}”?`;
          box.append(bad);
          return;
        }
        const value = points[card.rank];
        total += value || 0;
        const chip = document.createElement("button");
        chip.type = "button";
        chip.className = "pc " + (card.suit ? (card.suit === "H" || card.suit === "D" ? "red" : "black") : "joker");
        if (seen.get(card.text) > copies(card) || value === undefined) chip.classList.add("dup");
        chip.setAttribute("aria-label", `remove ${CardText.pretty(card)}`);
        chip.innerHTML = `${CardText.pretty(card)}<span class="pts">${value === undefined ? "no" : value}</span>`;
        chip.addEventListener("click", () => {
          const left = CardText.tokens(inputOf(row).value).filter((_, k) => k !== at);
          inputOf(row).value = left.join(" ");
          preview();
        });
        box.append(chip);
      });
      if (parsed[i].length) {
        const sum = document.createElement("span");
        sum.className = "hand-total";
        const one = lastOne && parsed[i].length === 1;
        sum.textContent = one ? "1 card: scores 0" : `${total} points`;
        box.append(sum);
      }
    });
  };

  const activate = (row) => {
    if (!picker || !row) return;
    rows.forEach((r) => r.classList.toggle("active", r === row));
    active = row;
    row.after(picker);
    picker.querySelector("[data-picker-name]").textContent = row.querySelector("label").textContent.trim();
  };
  const append = (text) => {
    if (!active) return;
    const input = inputOf(active);
    input.value = [...CardText.tokens(input.value), text].join(" ");
    preview();
  };
  const setPending = (rank) => {
    pendingRank = rank;
    picker.querySelectorAll("[data-rank]").forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.rank === rank)));
  };
  const markOut = () => {
    const out = form.querySelector("input[name=out]:checked");
    rows.forEach((row) => row.classList.toggle("is-out", !!out && row.dataset.seat === out.value));
    if (active && active.classList.contains("is-out")) activate(rows.find((r) => !r.classList.contains("is-out")));
  };

  rows.forEach((row) => {
    inputOf(row).addEventListener("input", preview);
    inputOf(row).addEventListener("focus", () => activate(row));
    row.addEventListener("click", (event) => { if (event.target === row || event.target.tagName === "LABEL") activate(row); });
  });
  form.querySelectorAll("input[name=out]").forEach((radio) => radio.addEventListener("change", markOut));
  if (picker) {
    picker.hidden = false;
    picker.addEventListener("click", (event) => {
      const key = event.target.closest("button");
      if (!key) return;
      if (key.dataset.rank) setPending(pendingRank === key.dataset.rank ? null : key.dataset.rank);
      else if (key.dataset.suit && pendingRank) { append(pendingRank + key.dataset.suit); setPending(null); }
      else if (key.dataset.joker !== undefined) { append("JK"); setPending(null); }
      else if (key.dataset.undo !== undefined && active) {
        const input = inputOf(active);
        input.value = CardText.tokens(input.value).slice(0, -1).join(" ");
        preview();
      }
    });
    markOut();
    activate(rows.find((r) => !r.classList.contains("is-out")) || rows[0]);
  }
  preview();
});
