// Scorekeeper's hand entry: each seat's cards as chips as they are typed or tapped, and
// the points the server gives them. Loaded after the page (data-after-load on the
// form's cards, app.js); CardText is static/cards.js, CardPicker static/app.js.
"use strict";

// Hand entry: a live preview of the hand as the server scores it (the card picker,
// app.js, fills the fields). Each change asks the open scorer (POST /api/v1/score,
// data-score) with the match's sheet; the cards show at once, their points when the
// server answers. Nothing here adds a card's points or applies a rule: where the server
// has not scored exactly these cards (no answer yet, or none at all) the cards are
// shown without points.
// HandPoints.of(form) gives the last answer for the cards now in the form, else null
// (offline.js keeps it with a hand that has to wait).
const HandPoints = (() => {
  const answers = new WeakMap(); // form -> { asked: the request's text, points, notes, breakdown }
  // The score request for the form as it stands, or null (nobody said who went out).
  const request = (form) => {
    const out = form.querySelector("input[name=out]:checked");
    if (!out || !form.dataset.sheet) return null;
    const rows = Array.from(form.querySelectorAll(".held[data-seat]"));
    const remaining = {};
    rows.forEach((row) => {
      if (row.dataset.seat !== out.value) remaining[row.dataset.seat] = row.querySelector("input[data-cards]").value;
    });
    const seats = rows.map((row) => row.dataset.seat);
    if (out.value !== "none" && !seats.includes(out.value)) seats.push(out.value);
    return JSON.stringify({ sheet: JSON.parse(form.dataset.sheet), seats,
      ...(out.value === "none" ? { blocked: true } : { out: out.value }), remaining });
  };
  const of = (form) => {
    const asked = request(form);
    const answer = answers.get(form);
    return asked && answer && answer.asked === asked ? answer : null;
  };
  const pending = new WeakMap(); // form -> the request in flight (an AbortController)
  // Ask the server about the form as it stands; ``done`` runs when the answer is kept.
  const ask = (form, done) => {
    const asked = request(form);
    if (pending.has(form)) pending.get(form).abort();
    if (!asked || of(form)) { done(); return; }
    const stop = new AbortController();
    pending.set(form, stop);
    const timer = window.setTimeout(() => stop.abort(), 5000);
    fetch(form.dataset.score, { method: "POST", body: asked, signal: stop.signal, cache: "no-store",
      headers: { "Content-Type": "application/json", Accept: "application/json" } })
      .then((response) => (response.ok ? response.json() : null))
      .then((answer) => {
        if (answer) {
          answers.set(form, { asked, points: answer.points, notes: answer.notes, cardPoints: answer.card_points,
            breakdown: answer.breakdown });
        }
        done();
      })
      .catch(() => { /* no answer: the cards stay shown without points */ })
      .finally(() => { window.clearTimeout(timer); if (pending.get(form) === stop) pending.delete(form); });
  };
  // A seat's one figure: its points where the server noted a rule deciding them (the
  // lone card, going out), else what its cards count.
  const figure = (answer, seat) => (answer.notes[seat] ? answer.points[seat] : answer.cardPoints[seat]);
  return { of, ask, figure };
})();
window.HandPoints = HandPoints;

document.querySelectorAll("form[data-hand-form]").forEach((form) => {
  const copies = (card) => (card.suit ? Number(form.dataset.copies) : Number(form.dataset.jokers));
  const rows = Array.from(form.querySelectorAll(".held"));
  const picker = CardPicker.of(form);

  const inputOf = (row) => row.querySelector("input[data-cards]");
  const warning = form.querySelector("[data-duplicates]");
  const nameOf = (row) => row.querySelector("label").textContent.trim();
  // A card entered more often than the deck holds it, named at once in words (as the
  // server will word it), not only outlined.
  const tellDuplicates = (parsed, seen) => {
    if (!warning) return;
    const lines = [];
    seen.forEach((n, text) => {
      const card = CardText.parse(text);
      const allowed = copies(card);
      if (n <= allowed) return;
      const where = rows.filter((_, i) => parsed[i].some((p) => p.card && p.card.text === text)).map(nameOf);
      const times = allowed === 1 ? "once" : allowed === 0 ? "not at all" : `${allowed} times`;
      lines.push(`${CardText.pretty(card)} is entered ${n} times (${where.join(" and ")}); the deck holds it ${times}.`);
    });
    warning.textContent = lines.join(" ");
    warning.hidden = !lines.length;
  };
  // What "Record hand" sends, in one line above the keys: each seat's points as the
  // server scored them ("–" until it has), who went out.
  const summary = form.querySelector("[data-picker-sum]");
  const summarize = (scored) => {
    if (!summary) return;
    // No-break spaces: a seat and its points never part at the end of a line.
    summary.textContent = rows.map((row) => {
      const seat = row.dataset.seat;
      if (row.classList.contains("is-out")) {
        const points = scored ? scored.points[seat] : 0;
        return `${nameOf(row)}\u00a0went\u00a0out${points ? `\u00a0${points}` : ""}`;
      }
      const typed = inputOf(row).value.trim();
      return `${nameOf(row)}\u00a0${scored && typed ? HandPoints.figure(scored, seat) : "–"}`;
    }).join(" · ");
  };
  // Each seat's cards as chips (a tap takes one out), with the server's points for each
  // card and the seat, when it has scored exactly these cards.
  const show = () => {
    const scored = HandPoints.of(form);
    const seen = new Map();
    const parsed = rows.map((row) => CardText.tokens(inputOf(row).value).map((t) => ({ t, card: CardText.parse(t) })));
    parsed.flat().forEach(({ card }) => { if (card) seen.set(card.text, (seen.get(card.text) || 0) + 1); });
    tellDuplicates(parsed, seen);
    rows.forEach((row, i) => {
      const seat = row.dataset.seat;
      const box = row.querySelector(".preview");
      const each = scored && scored.breakdown[seat] ? scored.breakdown[seat] : [];
      box.replaceChildren();
      parsed[i].forEach(({ t, card }, at) => {
        if (!card) {
          const bad = document.createElement("span");
          bad.className = "bad-token";
          bad.textContent = `“${t}”?`;
          box.append(bad);
          return;
        }
        const chip = document.createElement("button");
        chip.type = "button";
        chip.className = "pc " + (card.suit ? (card.suit === "H" || card.suit === "D" ? "red" : "black") : "joker");
        if (seen.get(card.text) > copies(card)) chip.classList.add("dup");
        chip.setAttribute("aria-label", `remove ${CardText.pretty(card)}`);
        chip.textContent = CardText.pretty(card);
        if (scored && each[at]) {
          const pts = document.createElement("span");
          pts.className = "pts";
          pts.textContent = String(each[at].points);
          chip.append(pts);
        }
        chip.addEventListener("click", () => {
          const left = CardText.tokens(inputOf(row).value).filter((_, k) => k !== at);
          inputOf(row).value = left.join(" ");
          changed();
        });
        box.append(chip);
      });
      if (parsed[i].length) {
        const sum = document.createElement("span");
        sum.className = "hand-total";
        sum.textContent = scored ? (scored.notes[seat] || `${scored.cardPoints[seat]} points`) : "";
        box.append(sum);
      }
    });
    summarize(scored);
  };
  let soon = null;
  const changed = () => {
    show();
    window.clearTimeout(soon);
    soon = window.setTimeout(() => HandPoints.ask(form, show), 120);
  };
  const markOut = () => {
    const out = form.querySelector("input[name=out]:checked");
    rows.forEach((row) => row.classList.toggle("is-out", !!out && row.dataset.seat === out.value));
    changed();
    if (picker) picker.refresh();
    if (picker && picker.active && picker.active.closest(".held").classList.contains("is-out")) {
      const open = rows.filter((r) => !r.classList.contains("is-out"));
      const next = open.find((r) => !inputOf(r).value.trim()) || open[0];
      if (next) picker.activate(inputOf(next));
    }
  };

  rows.forEach((row) => inputOf(row).addEventListener("input", changed));
  form.querySelectorAll("input[name=out]").forEach((radio) => radio.addEventListener("change", markOut));
  markOut();
});
