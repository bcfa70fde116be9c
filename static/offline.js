// Scorekeeper offline: registers the service worker (where the page is a secure
// context), sends a new hand itself, and keeps every hand the server has not stored in a
// queue on this phone, sending them in order until they are stored. Progressive
// enhancement only: every page works without it, and without it hand forms post as they
// always did. Card text is read by CardText (static/cards.js); the live scoreboard poll
// is static/live.js; a hand's points come from the server (HandPoints, static/hand.js).
//
// A typed hand leaves the phone only into the database: no network, no answer within
// SEND_WAIT, a 5xx (after Retry-After when given) or a 408/425/429 all leave it waiting
// here, shown with its cards on the page it is on. Only the server's refusal of the hand
// itself (any other 4xx) sends the form as typed, so the server shows what is wrong.
//
// When to send never rests on navigator.onLine or the "online" event: a phone on Wi-Fi
// whose server is unreachable says it is online, and some browsers report a page the
// service worker served offline as online too, so no "online" event ever comes. A
// failed fetch is "offline"; any answer from the server (the live poll's 304 or 200,
// "scorekeeper:answered" from static/live.js) is "online" and sends what waits at once,
// and while something waits, a retry runs every few seconds whatever the browser says.
"use strict";

(() => {
  const QUEUE = "scorekeeper.queue.v1";
  // ms before the next try to send the queue after a try failed: doubling from the
  // first to the most, so a server that answers again has the hands within about 2 s.
  const RETRY_FIRST = 500;
  const RETRY_MOST = 2000;
  // ms a send waits for the server's answer: a laptop asleep answers nothing at all.
  const SEND_WAIT = 6000;
  // Answers that say "not now" rather than "not this hand": the hand waits and goes again.
  const LATER = new Set([408, 425, 429]);
  const later = (status) => status >= 500 || LATER.has(status);
  // The wait a 503 (or 429) asks for, in ms (Retry-After in seconds; a date is not sent).
  const retryAfter = (response) => {
    const seconds = Number(response.headers.get("Retry-After"));
    return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, 60) * 1000 : 0;
  };
  // fetch, given up after SEND_WAIT with no answer (then it throws, as with no network).
  const timedFetch = (url, options) => {
    const stop = new AbortController();
    const timer = window.setTimeout(() => stop.abort(), SEND_WAIT);
    return fetch(url, { ...options, signal: stop.signal }).finally(() => window.clearTimeout(timer));
  };
  // A waiting hand, sent to the match API (its body and key kept with it).
  const postHand = (item) => timedFetch(item.api, {
    method: "POST", cache: "no-store",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${item.token}`, "Idempotency-Key": item.key },
    body: JSON.stringify(item.body),
  });

  // Work that can wait until the page has loaded and the browser is idle: the page's
  // own requests (and a saved hand's scoreboard) go first.
  const afterLoad = (work) => {
    const idle = () => (window.requestIdleCallback ? window.requestIdleCallback(work, { timeout: 2000 })
      : window.setTimeout(work, 200));
    if (document.readyState === "complete") idle();
    else window.addEventListener("load", idle, { once: true });
  };

  // ---- the service worker ----
  const workerTag = document.querySelector("script[data-worker]");
  const keepForOffline = async () => {
    if (!("serviceWorker" in navigator) || !workerTag) return;
    try {
      await navigator.serviceWorker.register(workerTag.dataset.worker, { scope: "/", updateViaCache: "none" });
      const ready = await navigator.serviceWorker.ready;
      const urls = new Set(["/rules", "/deal"]);
      const fresh = [];
      const add = (href) => {
        const url = new URL(href, window.location.href);
        if (url.origin === window.location.origin) urls.add(url.pathname + url.search);
      };
      // This page, and what it uses, every time: the worker skips what it has. A page
      // whose navigation began while the worker was still installing reached the
      // network without it, yet has a controller once the worker claims it.
      add(window.location.href);
      document.querySelectorAll("link[href]").forEach((el) => add(el.href));
      document.querySelectorAll("script[src], img[src]").forEach((el) => add(el.src));
      // The next hand's form, fetched again each time so its number is current.
      document.querySelectorAll("a[href$='/hands/new']").forEach((a) => {
        add(a.href);
        fresh.push(new URL(a.href).pathname);
      });
      ready.active.postMessage({ type: "keep", urls: Array.from(urls), fresh });
    } catch (_) { /* no worker (private mode, old browser): the pages still work online */ }
  };

  // ---- the queue: hands recorded offline, kept in localStorage until stored ----
  const load = () => {
    try {
      const list = JSON.parse(window.localStorage.getItem(QUEUE) || "[]");
      return Array.isArray(list) ? list : [];
    } catch (_) {
      return [];
    }
  };
  const change = (edit) => {
    const list = load();
    edit(list);
    window.localStorage.setItem(QUEUE, JSON.stringify(list));
    renderQueue();
  };
  const newKey = () => (window.crypto && crypto.randomUUID ? crypto.randomUUID()
    : `${Date.now()}-${Math.random().toString(16).slice(2)}`);
  const forMatch = (matchId) => load().filter((item) => item.match === matchId);

  // ---- the hand form: offline (or with hands already waiting) it queues the hand ----
  const handForm = document.querySelector("form[data-offline-match]");
  const setNumber = (number) => {
    const input = handForm.querySelector("input[name=number]");
    if (!input || Number(input.value) === number) return;
    input.value = String(number);
    // The heading's and the button's number (data-hand-number, as live.js renumbers them).
    document.querySelectorAll("[data-hand-number]").forEach((part) => { part.textContent = String(number); });
    document.title = document.title.replace(/\d+/, String(number));
  };
  const fill = (fields) => {
    Object.entries(fields).forEach(([name, value]) => {
      handForm.querySelectorAll(`[name="${CSS.escape(name)}"]`).forEach((el) => {
        if (el.type === "radio" || el.type === "checkbox") el.checked = el.value === value;
        else el.value = value;
        el.dispatchEvent(new Event("input", { bubbles: true }));
        el.dispatchEvent(new Event("change", { bubbles: true }));
      });
    });
  };
  const formProblem = (text) => {
    let box = document.querySelector("[data-offline-problem]");
    if (!box) {
      box = document.createElement("p");
      box.className = "flash flash-error";
      box.setAttribute("role", "alert");
      box.dataset.offlineProblem = "";
      handForm.before(box);
    }
    box.textContent = text;
    box.scrollIntoView({ block: "center" });
  };
  // The hand as the match API takes it, and what the scoreboard shows while it waits:
  // each seat's cards, and its points only where the server scored exactly these cards
  // (HandPoints, static/hand.js); the phone never works them out.
  const entryOf = (number, replacing, key) => {
    const fields = {};
    new FormData(handForm).forEach((value, name) => {
      if (name !== "csrf_token" && name !== "idempotency_key") fields[name] = String(value);
    });
    const body = { number, out: fields.out === "none" ? null : Number(fields.out), blocked: fields.out === "none", held: {} };
    const scored = window.HandPoints ? window.HandPoints.of(handForm) : null;
    const seats = [];
    handForm.querySelectorAll(".held[data-seat]").forEach((row) => {
      const seat = row.dataset.seat;
      const text = fields[`seat-${seat}`] || "";
      body.held[seat] = text;
      const label = handForm.querySelector(`label[for="seat-${seat}"]`);
      seats.push({ seat: Number(seat), name: label ? label.textContent.trim() : `Seat ${Number(seat) + 1}`,
        cards: CardText.tokens(text).map(CardText.show).join(" "), out: fields.out === seat,
        points: scored ? window.HandPoints.figure(scored, seat) : null, note: scored ? scored.notes[seat] || "" : "" });
    });
    const size = handForm.querySelector("input[name=hand_size]");
    if (size && size.value.trim() && size.value.trim() !== size.placeholder) body.hand_size = Number(size.value);
    if (fields.agree_nine) body.agree_nine = true;
    return {
      key: key || newKey(), match: handForm.dataset.offlineMatch, number, body, fields, seats, scored: Boolean(scored),
      api: handForm.dataset.api, token: handForm.dataset.token, form: window.location.pathname,
      scoreboard: handForm.dataset.scoreboard, queuedAt: replacing ? replacing.queuedAt : Date.now(),
      error: null, nextHand: null, hold: null, trouble: null,
    };
  };
  const keyField = () => handForm.querySelector("input[name=idempotency_key]");
  // After a hand joined the queue from this page, the form is the next hand's: empty,
  // numbered after the waiting ones, with a key of its own.
  let formNumber = 0;
  const nextHandForm = () => {
    handForm.querySelectorAll("input[data-cards]").forEach((input) => { input.value = ""; });
    handForm.querySelectorAll("input[name=out], input[name=agree_nine]").forEach((box) => { box.checked = false; });
    const size = handForm.querySelector("input[name=hand_size]");
    if (size) size.value = "";
    handForm.querySelectorAll("input[data-cards], input[name=out]").forEach((el) => el.dispatchEvent(new Event("change", { bubbles: true })));
    handForm.querySelectorAll("input[data-cards]").forEach((el) => el.dispatchEvent(new Event("input", { bubbles: true })));
    if (keyField()) keyField().value = newKey();
    formNumber = Math.max(formNumber, ...forMatch(handForm.dataset.offlineMatch).map((item) => item.number + 1));
    setNumber(formNumber);
  };
  // Whether a person has begun the next hand on this form.
  const begun = () => Boolean(handForm.querySelector("input[name=out]:checked"))
    || Array.from(handForm.querySelectorAll("input[data-cards]")).some((input) => input.value.trim());
  // The scoreboard is shown only where the phone itself can serve it: a service worker
  // controls this page and keeps a copy (a network failure is then no dead end).
  const boardKept = async (scoreboard) => {
    if (!(navigator.serviceWorker && navigator.serviceWorker.controller && window.caches)) return false;
    try {
      return Boolean(await caches.match(new URL(scoreboard, window.location.href).pathname, { ignoreSearch: true }));
    } catch (_) {
      return false;
    }
  };
  // The hand waits on this phone: in the queue, shown with its cards. ``trouble`` is what
  // kept it (shown on its card); ``wait`` the ms the server asked for.
  const queueEntry = async (entry, replacing, trouble, wait, toBoard) => {
    entry.trouble = trouble;
    change((list) => {
      const at = replacing ? list.findIndex((item) => item.key === replacing.key) : -1;
      if (at >= 0) list[at] = entry; else list.push(entry);
    });
    if (replacing || (toBoard && await boardKept(entry.scoreboard))) {
      window.location.assign(entry.scoreboard);
      return;
    }
    nextHandForm();
    waitingHere = true;
    delayNext(wait);
    send();
  };
  // A hand queued behind others goes to the kept scoreboard only while the last try
  // found no network (a worker answers at once then); a silent or troubled server would
  // keep the phone waiting for a page, so it stays on this one.
  const queueFromForm = (number, replacing) => queueEntry(entryOf(number, replacing), replacing, null, 0, lastTrouble === "unreachable");
  // The service worker kept a form the server never stored (see sw.js): queue it.
  const resend = async (id) => {
    try {
      const pending = await caches.open("sk-pending");
      const kept = await pending.match(`/__pending/${id}`);
      if (!kept) return;
      const fields = await kept.json();
      fill(fields);
      setNumber(Number(fields.number));
      await pending.delete(`/__pending/${id}`);
      queueEntry(entryOf(Number(fields.number), null, fields.idempotency_key), null, fields.trouble || null, 0, false);
    } catch (_) { /* nothing kept: the form is shown as it is */ }
  };
  // A new hand, sent by this page: the form's own fields to the form's own address (its
  // idempotency key with them), so a stored hand leads to the scoreboard with the
  // server's message, as a post does; but a failure leaves the hand here, where a post
  // would show an error page (with no worker, the typed cards gone with it).
  const sendFromForm = async (number) => {
    const entry = entryOf(number, null, keyField() ? keyField().value : null);
    entry.viaForm = true; // its key went with the form's fields (see "sent already" in send)
    const buttons = Array.from(handForm.querySelectorAll("button[type=submit]"));
    buttons.forEach((b) => { b.disabled = true; });
    let response;
    try {
      response = await timedFetch(handForm.action, {
        method: "POST", body: new FormData(handForm), redirect: "manual", cache: "no-store",
        credentials: "same-origin", headers: { Accept: "text/html" },
      });
    } catch (error) {
      buttons.forEach((b) => { b.disabled = false; });
      const silent = error && error.name === "AbortError";
      lastTrouble = silent ? "silent" : "unreachable";
      await queueEntry(entry, null, silent ? "The server did not answer." : "The server could not be reached.", 0, !silent);
      return;
    }
    buttons.forEach((b) => { b.disabled = false; });
    if (response.type === "opaqueredirect" || (response.status >= 300 && response.status < 400)) {
      window.location.assign(entry.scoreboard); // stored: the scoreboard says so
    } else if (later(response.status)) {
      lastTrouble = "server";
      await queueEntry(entry, null, `The server could not store it just now (${response.status}).`, retryAfter(response), false);
    } else {
      // Not stored, and the server's page says why (the hand refused, or its question):
      // the form goes to it as typed, with the same key.
      HTMLFormElement.prototype.submit.call(handForm);
    }
  };
  let waitingHere = false; // a hand joined the queue from this form: the board follows once it is stored
  let lastTrouble = null; // what the last try met: "unreachable", "silent" or "server"
  if (handForm) {
    const matchId = handForm.dataset.offlineMatch;
    const resendId = new URLSearchParams(window.location.search).get("resend");
    if (resendId && window.caches) resend(resendId);
    const fixing = new URLSearchParams(window.location.search).get("queued");
    const waiting = forMatch(matchId);
    const replacing = fixing ? waiting.find((item) => item.key === fixing) : null;
    formNumber = Number(handForm.querySelector("input[name=number]").value);
    if (replacing) {
      fill(replacing.fields);
      formNumber = replacing.number;
    } else if (waiting.length) {
      formNumber = Math.max(formNumber, ...waiting.map((item) => item.number + 1));
    }
    setNumber(formNumber);
    // Wake the service worker while a hand is being entered: a browser stops an idle
    // worker after about 30 s, and the save would otherwise wait for it to start.
    let woken = 0;
    const wake = () => {
      const worker = navigator.serviceWorker && navigator.serviceWorker.controller;
      if (!worker || Date.now() - woken < 10000) return;
      woken = Date.now();
      worker.postMessage({ type: "wake" });
    };
    ["input", "change", "focusin", "pointerdown"].forEach((type) => handForm.addEventListener(type, wake, { passive: true }));
    handForm.addEventListener("submit", (event) => {
      event.preventDefault();
      event.stopPropagation();
      if (!replacing && !forMatch(matchId).length) {
        sendFromForm(formNumber);
        return;
      }
      // Hands wait before it (or it is one of them, fixed): it queues behind them.
      if (!handForm.querySelector("input[name=out]:checked")) {
        formProblem("Choose who went out, or that nobody could (blocked).");
        return;
      }
      queueFromForm(formNumber, replacing);
    });
    // Every hand from this form is stored: the scoreboard, unless the next hand is begun.
    window.addEventListener("scorekeeper:sent", () => {
      if (waitingHere && !forMatch(matchId).length && !begun()) window.location.assign(handForm.dataset.scoreboard);
    });
  }

  // ---- sending the queue, in order, one match's hands after another's ----
  // The hands a send would try now: in each match, those before the first one refused
  // or held (a person decides about that one, and everything behind it waits).
  const sendable = () => {
    const stuck = new Set();
    return load().filter((item) => {
      if (item.error || item.hold) stuck.add(item.match);
      return !stuck.has(item.match);
    });
  };
  let sending = false;
  let again = false; // asked to send while sending: go round once more after
  let unreachable = false; // the last try found no server: its next answer sends at once
  let retryIn = RETRY_FIRST;
  let retryTimer = null;
  let notBefore = 0; // the server asked for a pause (Retry-After): no try before this time
  // After a try that left hands it could have sent: try again soon, backing off, while
  // the page is in view (a page coming back into view tries at once).
  const retryLater = () => {
    window.clearTimeout(retryTimer);
    retryTimer = null;
    if (document.hidden || !sendable().length) return;
    retryTimer = window.setTimeout(send, Math.max(retryIn, notBefore - Date.now()));
    retryIn = Math.min(retryIn * 2, RETRY_MOST);
  };
  // A hand just joined the queue: send now, or once the pause the server asked for is over.
  const delayNext = (wait) => { notBefore = Math.max(notBefore, Date.now() + wait); };
  // The server's answer that this key was used before: the hand is stored (the key was
  // first sent with the form's fields, so the API's resend counts as another body).
  const sentAlready = async (response) => {
    if (response.status !== 422) return false;
    try {
      const answer = await response.clone().json();
      return answer.error.field === "idempotency_key";
    } catch (_) {
      return false;
    }
  };
  // What kept a hand, on its card; the list is drawn again only when that changes.
  const noteTrouble = (key, text) => {
    const kept = load().find((x) => x.key === key);
    if (!kept || kept.trouble === text) return;
    change((list) => {
      const found = list.find((x) => x.key === key);
      if (found) found.trouble = text;
    });
  };
  const send = async () => {
    if (sending) {
      again = true;
      return;
    }
    if (Date.now() < notBefore) {
      retryLater();
      return;
    }
    sending = true;
    window.clearTimeout(retryTimer);
    retryTimer = null;
    let failed = false; // a hand that could go did not: no server, or its trouble
    let stored = false;
    unreachable = false;
    const stuck = new Set(); // matches whose earlier hand is refused, held or unsent
    try {
      for (const item of load()) {
        if (item.error || item.hold || stuck.has(item.match)) { stuck.add(item.match); continue; }
        let response;
        try {
          response = await postHand(item);
        } catch (error) {
          failed = true;
          unreachable = true;
          const silent = error && error.name === "AbortError";
          lastTrouble = silent ? "silent" : "unreachable";
          noteTrouble(item.key, silent ? "The server did not answer." : "The server could not be reached.");
          return; // no server: the next try sends it (the key makes a resend safe)
        }
        // Stored; or, for a hand first sent with the form's fields, its key already used:
        // that first send reached the server after all (the key is this hand's alone).
        if (response.status === 201 || (item.viaForm && await sentAlready(response))) {
          change((list) => { const at = list.findIndex((x) => x.key === item.key); if (at >= 0) list.splice(at, 1); });
          stored = true;
          continue;
        }
        stuck.add(item.match);
        if (later(response.status)) { // the server's trouble: keep it, try later
          failed = true;
          lastTrouble = "server";
          delayNext(retryAfter(response));
          noteTrouble(item.key, `The server could not store it just now (${response.status}).`);
          continue;
        }
        let message = `The server refused this hand (${response.status}).`;
        let next = null;
        let sameAs = null; // the server's same-hand question: the hand it looks like
        try {
          const answer = await response.json();
          message = answer.error.message || message;
          next = answer.error.next_hand || null;
          if (answer.error.code === "same_as_hand") sameAs = { hand: answer.error.hand, stored: answer.error.same_hand || null };
        } catch (_) { /* not JSON: keep the plain message */ }
        change((list) => {
          const found = list.find((x) => x.key === item.key);
          if (found) { found.error = message; found.nextHand = next; found.sameAs = sameAs; }
        });
      }
    } finally {
      sending = false;
      if (!failed) retryIn = RETRY_FIRST;
      if (stored) window.dispatchEvent(new Event("scorekeeper:sent"));
      if (again) {
        again = false;
        send();
      } else if (failed) {
        retryLater();
      }
    }
  };
  // The server answered something (this page's live poll): if the last try found no
  // server, it is back, so send now rather than at the next retry.
  const answered = () => {
    if (!unreachable || sending) return;
    retryIn = RETRY_FIRST;
    send();
  };
  const sendNow = () => { // a person's tap: now, whatever pause the server asked for
    notBefore = 0;
    change((list) => list.forEach((item) => { item.error = null; }));
    send();
  };
  // After a person discards or renumbers a hand, the one queued behind it (in its
  // match) was recorded to follow a hand that is no longer there as it was: unless its
  // number still follows, it waits for a person's choice (``hold``), and so does every
  // hand behind it. Nothing is renumbered or sent on its own.
  const holdNext = (list, before, why, expected) => {
    const next = list.filter((x) => x.match === before.match && x.key !== before.key && x.number > before.number)
      .sort((a, b) => a.number - b.number)[0];
    if (next && (why.discarded || next.number !== expected)) next.hold = { why: why.text, expected };
  };
  const setItemNumber = (item, number) => {
    if (item.number === number) return;
    item.number = number;
    item.body.number = number;
    item.key = newKey(); // a different request now
    delete item.body.same_as_confirmed; // a person's answer was about the number before
  };
  // Send a refused hand as hand ``to`` (the number the server said comes next); with
  // ``confirmed``, a hand the server found the same as a recorded one, sent by a person
  // all the same: the body says so (the API's same_as_confirmed), for this number only.
  const renumber = (key, to, confirmed = false) => change((list) => {
    const item = list.find((x) => x.key === key);
    if (!item) return;
    const was = item.number;
    setItemNumber(item, to);
    item.error = null;
    item.nextHand = null;
    if (confirmed) { item.body.same_as_confirmed = true; item.sameAs = null; }
    holdNext(list, { match: item.match, number: was, key: item.key },
      { text: `hand ${was} before it was sent as hand ${to}`, discarded: false }, to + 1);
  });
  // A held hand, confirmed by a person as hand ``number``.
  const release = (key, number) => change((list) => {
    const item = list.find((x) => x.key === key);
    if (!item) return;
    setItemNumber(item, number);
    item.hold = null;
  });
  const discard = (key) => change((list) => {
    const at = list.findIndex((x) => x.key === key);
    if (at < 0) return;
    const [gone] = list.splice(at, 1);
    const expected = gone.hold ? gone.hold.expected : (gone.nextHand || gone.number);
    holdNext(list, gone, { text: `hand ${gone.number}, which was discarded`, discarded: true }, expected);
  });

  // ---- the scoreboard's list of waiting hands ----
  const element = (tag, className, text) => {
    const el = document.createElement(tag);
    if (className) el.className = className;
    if (text !== undefined) el.textContent = text;
    return el;
  };
  const button = (label, className, action) => {
    const b = element("button", className, label);
    b.type = "button";
    b.addEventListener("click", action);
    return b;
  };
  // One waiting hand: its number, its state, what kept it, each seat's cards with the
  // points the server gave for exactly these cards (none where it never scored them),
  // and what a person can do about it when it is refused or held.
  const queuedCard = (item) => {
    const state = item.error ? "refused" : (item.hold ? "held" : "waiting");
    const card = element("div", `queued-hand is-${state}`);
    card.dataset.queuedHand = String(item.number);
    const head = element("p", "queued-head");
    head.append(element("strong", "", `Hand ${item.number}`), " ", element("span", `badge ${state}`,
      { refused: "not accepted", held: "waiting for your choice", waiting: "waiting to sync" }[state]));
    const seats = element("ul", "queued-seats");
    item.seats.forEach((seat) => {
      const line = element("li");
      line.append(element("span", "queued-name", seat.name));
      // The server's figure, and its note where a rule decided the points.
      const scored = typeof seat.points === "number";
      const figure = seat.out && !seat.points ? "went out"
        : (scored ? `${seat.points} ${seat.note ? "points" : "card points"}` : "");
      if (figure) line.append(" ", element("strong", "queued-points", figure));
      if (scored && seat.note && figure !== "went out") line.append(" ", element("span", "small muted", `(${seat.note})`));
      if (seat.cards) line.append(" ", element("span", "small muted", seat.cards));
      seats.append(line);
    });
    card.append(head, seats);
    if (!item.scored) card.append(element("p", "small muted queued-unscored", "Points shown once the server has scored these cards."));
    if (state === "waiting" && item.trouble) card.append(element("p", "small muted queued-trouble", item.trouble));
    if (state !== "waiting") card.append(...choices(item, state));
    return card;
  };
  const choices = (item, state) => {
    const why = state === "refused" ? `The server said: ${item.error}`
      : `It was recorded after ${item.hold.why}. Nothing is sent until you choose.`;
    if (state === "refused" && item.sameAs) return [element("p", "field-error queued-error", why), ...sameChoices(item)];
    const actions = element("p", "queued-actions row");
    const to = state === "refused" ? item.nextHand : item.hold.expected;
    if (state === "held") {
      actions.append(button(`Send as hand ${to}`, "primary-action", () => { release(item.key, to); send(); }));
    } else if (to && to !== item.number) {
      actions.append(button(`Send as hand ${to}`, "primary-action", () => { renumber(item.key, to); send(); }));
    }
    const fix = element("a", "button secondary", "Fix the cards");
    fix.href = `${item.form}?queued=${encodeURIComponent(item.key)}`;
    actions.append(fix, button("Discard", "danger", () => {
      if (window.confirm(`Discard hand ${item.number}? Its cards are only on this phone.`)) discard(item.key);
    }));
    return [element("p", `field-error queued-${state === "refused" ? "error" : "hold"}`, why), actions];
  };

  // The server's same-hand question on a waiting hand: discarding it comes first and
  // biggest; sending it anyway first shows both hands (``comparing``), then asks for a
  // second tap. Nothing here compares cards: the server said they are the same.
  const comparing = new Set(); // keys of the hands shown beside the one they look like
  const shownCards = (text) => CardText.tokens(text || "").map(CardText.show).join(" ") || "no cards";
  const bothHands = (item) => {
    const { hand, stored } = item.sameAs;
    const table = element("table", "same-hands");
    const head = element("tr");
    head.append(element("th", "", "Player"), element("th", "", `Hand ${hand}, recorded`),
      element("th", "", `Yours, as hand ${item.nextHand || item.number}`));
    table.append(head);
    item.seats.forEach((seat, i) => {
      const at = seat.seat === undefined ? i : seat.seat;
      const row = element("tr");
      const recorded = !stored ? "?" : (stored.out === at ? "went out" : shownCards(stored.cards[at]));
      row.append(element("th", "", seat.name), element("td", "", recorded),
        element("td", "", seat.out ? "went out" : (seat.cards || "no cards")));
      table.append(row);
    });
    return table;
  };
  const sameChoices = (item) => {
    const to = item.nextHand;
    const label = document.querySelector("[data-offline-queue]").dataset.discardLabel; // the server's words
    const discardMine = button(label, "primary-action", () => discard(item.key));
    if (!comparing.has(item.key)) {
      const actions = element("p", "queued-actions row");
      if (to) actions.append(button("It's another hand — compare them", "secondary", () => { comparing.add(item.key); renderQueue(); }));
      return [discardMine, actions];
    }
    const actions = element("p", "queued-actions row");
    actions.append(button(`Send it as hand ${to}`, "secondary", () => { comparing.delete(item.key); renumber(item.key, to, true); send(); }),
      button("Back", "secondary", () => { comparing.delete(item.key); renderQueue(); }));
    return [bothHands(item), discardMine, actions];
  };

  // The board counts the waiting hands at once: its next hand number moves on, and the
  // totals say they are from before them. Totals come only from the server (the one
  // scorer): they replace these once the hands are synced and the board refreshes.
  const markBoard = (waiting) => {
    const board = document.getElementById("board");
    const span = board && board.querySelector("[data-next-hand]");
    if (!span) return;
    const stored = Number(span.dataset.nextHand);
    const next = Math.max(stored, ...waiting.map((x) => x.number + 1));
    span.textContent = `hand ${next}`;
    board.querySelectorAll("a[href$='/hands/new']").forEach((a) => { a.textContent = a.textContent.replace(/\d+/, String(next)); });
    // Who deals, plays first, is dealt how many: the server's, once the hands are in;
    // until then the tiles claim none of it (the next-hand line says so once).
    board.querySelectorAll("[data-next-hand-fact]").forEach((badge) => { badge.hidden = waiting.length > 0; });
    const line = board.querySelector("[data-next-line]");
    if (line && line.dataset.stored === undefined) line.dataset.stored = line.innerHTML;
    let note = board.querySelector("[data-before-waiting]");
    if (!waiting.length) {
      if (line) line.innerHTML = line.dataset.stored;
      if (note) note.remove();
      return;
    }
    const numbers = waiting.map((x) => x.number).join(", ");
    const some = waiting.length > 1 ? `hands ${numbers}` : `hand ${numbers}`;
    if (line) {
      line.replaceChildren(element("strong", "", `Hand ${next}`),
        `: who deals and plays first are worked out once ${some} ${waiting.length > 1 ? "are" : "is"} synced.`);
    }
    if (!note) {
      note = element("p", "waiting-note");
      note.dataset.beforeWaiting = "";
      note.setAttribute("role", "status");
      const standings = board.querySelector(".standings");
      if (standings) standings.before(note); else board.append(note);
    }
    note.textContent = `Totals before ${some}, waiting to sync (see the top): they count once the server has ${waiting.length > 1 ? "them" : "it"}.`;
  };

  // The list is rebuilt only when what it shows changed: a board swapped in by the live
  // poll or another tab's write of the same queue leaves the buttons under a finger alone
  // (a tap that began on a replaced button would be lost).
  let shown = null;
  let shownIn = null;
  function renderQueue() {
    const box = document.querySelector("[data-offline-queue]");
    if (!box) return;
    const waiting = forMatch(box.dataset.offlineQueue).sort((a, b) => a.number - b.number);
    markBoard(waiting);
    const showing = JSON.stringify([waiting, [...comparing], Boolean(document.getElementById("board"))]);
    if (showing === shown && box === shownIn) return;
    shown = showing;
    shownIn = box;
    box.hidden = !waiting.length;
    box.replaceChildren();
    if (!waiting.length) return;
    const board = document.getElementById("board");
    box.append(element("h2", "", "Waiting to reach the server"),
      element("p", "help", `Kept on this phone until the server has stored them, and sent in order as soon as it answers; nothing is dropped.${board ? " The totals below are from before them until then." : ""}`));
    waiting.forEach((item) => box.append(queuedCard(item)));
    box.append(button("Sync now", "secondary sync-now", sendNow));
  }

  renderQueue();
  // The live board was swapped in: the next hand's form changed, keep it current.
  window.addEventListener("scorekeeper:board", () => { renderQueue(); keepForOffline(); });
  window.addEventListener("storage", (event) => { if (event.key === QUEUE) renderQueue(); });
  // Any sign of a network sends what waits; none of them is needed (see the top).
  window.addEventListener("scorekeeper:answered", answered);
  window.addEventListener("online", () => { if (sendable().length) send(); });
  document.addEventListener("visibilitychange", () => { if (!document.hidden && sendable().length) send(); });
  if (sendable().length) send(); // this page loaded: perhaps from the server, perhaps not
  afterLoad(keepForOffline);
})();
