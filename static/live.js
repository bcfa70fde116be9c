// Live pages at the table: when another phone records a hand, this one learns of it
// within a few seconds. A tiny poll of the match's version (answered 304 while nothing
// changed; when something did, the summary and the board as the server renders it now)
// serves two pages:
// - the scoreboard (#board[data-live-url]): the board, and every part marked
//   data-live-swap (the match's buttons, "Delete hand N"), swapped in place from the
//   poll's answer (never the whole page fetched again);
// - an open hand form (form[data-live-url]): when its hand number is taken, it says
//   so at once: the first choice drops this form for the hand already recorded, the
//   second renumbers it as the next hand (it is then sent like any other).
// Progressive enhancement: without it the page is as fresh as its last load (and the
// server still refuses a taken number). Events: listens for "scorekeeper:sent"
// (offline.js stored queued hands: ask now); dispatches "scorekeeper:answered" when
// the server answered a poll (offline.js sends what waits) and "scorekeeper:board"
// after a swap (the next hand's form changed).
"use strict";

(() => {
  const hhmm = (d) => `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;

  // Ask ``url`` every ``every`` ms (backing off while the network is away); ``seen``
  // gets the match's live summary whenever it changed, ``shown`` the connection state.
  // ``since``: the ETag of the version the page shows, if it says (then a change
  // brings the board with it).
  const watch = (url, every, seen, shown, since) => {
    let etag = since ? `"${since}"` : null;
    let wait = every;
    let timer = null;
    let asking = false; // one poll at a time (a wake-up during a poll waits for it)
    const poll = async () => {
      if (asking) return;
      window.clearTimeout(timer);
      if (document.hidden) return; // resumes when the page is shown again
      asking = true;
      let online = true;
      try {
        const response = await fetch(url, { cache: "no-store", headers: etag ? { "If-None-Match": etag } : {} });
        if (response.status === 200) {
          await seen(await response.json());
          etag = response.headers.get("ETag");
        } else if (response.status !== 304) {
          throw new Error(`poll answered ${response.status}`);
        }
        wait = every;
        window.dispatchEvent(new Event("scorekeeper:answered"));
      } catch (_) {
        online = false;
        wait = Math.min(wait * 2, 120000);
      } finally {
        asking = false;
      }
      shown(online);
      timer = window.setTimeout(poll, wait);
    };
    const start = () => (window.requestIdleCallback ? window.requestIdleCallback(poll, { timeout: 2000 })
      : window.setTimeout(poll, 200));
    document.addEventListener("visibilitychange", () => { if (!document.hidden) poll(); });
    window.addEventListener("online", () => { wait = every; poll(); });
    window.addEventListener("offline", () => shown(false));
    window.addEventListener("scorekeeper:sent", () => poll());
    if (document.readyState === "complete") start();
    else window.addEventListener("load", start, { once: true });
  };

  // ---- the scoreboard ----
  const board = document.getElementById("board");
  if (board && board.dataset.liveUrl) {
    const status = document.querySelector("[data-live-status]");
    let updated = board.dataset.rendered ? new Date(board.dataset.rendered) : new Date();
    let offline = !navigator.onLine;
    const show = () => {
      if (!status) return;
      status.hidden = false;
      status.classList.toggle("is-offline", offline);
      const ago = Math.max(0, Math.round((Date.now() - updated) / 1000));
      status.textContent = offline ? `offline — last updated ${hhmm(updated)}`
        : `live · updated ${ago < 60 ? `${ago} s` : `${Math.floor(ago / 60)} min`} ago`;
    };
    // The board and the parts that name a hand, as the server rendered them now.
    const swap = (html) => {
      const page = new DOMParser().parseFromString(html, "text/html");
      const fresh = page.getElementById("board");
      if (!fresh) return;
      board.innerHTML = fresh.innerHTML;
      board.dataset.version = fresh.dataset.version;
      document.querySelectorAll("[data-live-swap]").forEach((part) => {
        const next = page.getElementById(part.id);
        if (next) part.replaceWith(document.importNode(next, true));
        else part.hidden = true;
      });
      window.dispatchEvent(new Event("scorekeeper:board"));
    };
    watch(board.dataset.liveUrl, Number(board.dataset.live) || 3000, (live) => {
      if (String(live.version) !== board.dataset.version && live.board) swap(live.board);
    }, (online) => {
      offline = !online;
      if (online) updated = new Date();
      show();
    }, board.dataset.liveEtag);
    window.setInterval(show, 1000);
    show();
  }

  // ---- an open hand form: its number taken by another phone ----
  const form = document.querySelector("form[data-live-url]");
  const numberInput = form && form.querySelector("input[name=number]");
  if (form && numberInput) {
    let taken = null; // the live summary that took this form's number, once it has
    const notice = document.createElement("div");
    notice.className = "flash flash-error live-taken";
    notice.setAttribute("role", "alert");
    notice.hidden = true;
    form.before(notice);
    const say = () => {
      const number = Number(numberInput.value);
      notice.replaceChildren();
      notice.className = "flash flash-error live-taken";
      notice.setAttribute("role", "alert");
      const text = document.createElement("p");
      const board = document.createElement("a");
      board.href = form.dataset.scoreboard || "../";
      if (taken.next_hand === null) {
        text.textContent = "The match finished on another phone: nothing more can be recorded.";
        board.textContent = "See the final score";
        notice.append(text, board);
      } else {
        // Most often the other phone recorded this very hand: the first and biggest
        // choice looks at it and drops this form; numbering it as the next hand is
        // the second, and only renumbers the form (sending stays the person's tap).
        text.textContent = `Hand ${number} was just recorded on another phone, most often the `
          + "hand on this form. The first button shows it on the scoreboard and drops this form's copy.";
        board.textContent = form.dataset.discardLabel || `See hand ${number}`;
        board.className = "button primary-action";
        board.dataset.discardMine = "";
        const again = document.createElement("button");
        again.type = "button";
        again.className = "secondary";
        again.textContent = `It's another hand — make it hand ${taken.next_hand}`;
        again.addEventListener("click", () => renumber(taken.next_hand));
        const actions = document.createElement("p");
        actions.className = "row";
        actions.append(again);
        notice.append(text, board, actions);
      }
      notice.hidden = false;
    };
    // The form becomes hand ``next``: its number, its heading and its buttons say so,
    // and nothing is sent until the person taps "Record hand" again.
    const renumber = (next) => {
      numberInput.value = String(next);
      document.querySelectorAll("[data-hand-number]").forEach((part) => { part.textContent = String(next); });
      taken = null;
      notice.replaceChildren();
      const said = document.createElement("p");
      said.textContent = `This form is now hand ${next}. Nothing was sent: record it when it is ready.`;
      notice.append(said);
      notice.className = "flash live-renumbered";
      notice.setAttribute("role", "status");
    };
    // Sent with a taken number, the server would refuse it: say so first, before it goes.
    form.addEventListener("submit", (event) => {
      if (!taken) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      say();
      notice.scrollIntoView({ block: "nearest" });
    }, true);
    watch(form.dataset.liveUrl, Number(form.dataset.live) || 3000, (live) => {
      const number = Number(numberInput.value);
      taken = live.next_hand === null || live.next_hand > number ? live : null;
      if (taken) {
        // Brought into view when it first appears (the phone may be scrolled down to
        // the keys), not again at every poll while it stands.
        const appearing = notice.hidden || !notice.classList.contains("live-taken");
        say();
        if (appearing) notice.scrollIntoView({ block: "nearest" });
      } else if (notice.classList.contains("live-taken")) notice.hidden = true;
    }, () => {});
  }
})();
