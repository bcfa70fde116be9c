// The live scoreboard: when another phone records a hand, this board catches up. A
// tiny poll of the match's version (answered 304 while nothing changed, a few hundred
// bytes when something did), and only then the board itself, swapped in place.
// Progressive enhancement: without it the board is as fresh as its last load.
// Events: listens for "scorekeeper:sent" (offline.js stored queued hands: ask now);
// dispatches "scorekeeper:board" after a swap (the next hand's form changed).
"use strict";

(() => {
  const board = document.getElementById("board");
  if (!board || !board.dataset.liveUrl) return;
  const status = document.querySelector("[data-live-status]");
  const every = Number(board.dataset.live) || 10000;
  const hhmm = (d) => `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
  let etag = null;
  let updated = board.dataset.rendered ? new Date(board.dataset.rendered) : new Date();
  let offline = !navigator.onLine;
  let wait = every;
  let timer = null;

  const show = () => {
    if (!status) return;
    status.hidden = false;
    status.classList.toggle("is-offline", offline);
    const ago = Math.max(0, Math.round((Date.now() - updated) / 1000));
    status.textContent = offline ? `offline — last updated ${hhmm(updated)}`
      : `live · updated ${ago < 60 ? `${ago} s` : `${Math.floor(ago / 60)} min`} ago`;
  };
  const swapBoard = async () => {
    const response = await fetch(window.location.href, { cache: "no-store", headers: { Accept: "text/html" } });
    if (!response.ok) return;
    const page = new DOMParser().parseFromString(await response.text(), "text/html");
    const fresh = page.getElementById("board");
    if (!fresh) return;
    board.innerHTML = fresh.innerHTML;
    board.dataset.version = fresh.dataset.version;
    window.dispatchEvent(new Event("scorekeeper:board"));
  };
  let asking = false; // one poll at a time (a wake-up during a poll waits for it)
  const poll = async () => {
    if (asking) return;
    window.clearTimeout(timer);
    if (document.hidden) return; // resumes when the page is shown again
    asking = true;
    try {
      const response = await fetch(board.dataset.liveUrl, { cache: "no-store", headers: etag ? { "If-None-Match": etag } : {} });
      if (response.status === 200) {
        const live = await response.json();
        if (String(live.version) !== board.dataset.version) await swapBoard();
        etag = response.headers.get("ETag");
      } else if (response.status !== 304) {
        throw new Error(`poll answered ${response.status}`);
      }
      offline = false;
      updated = new Date();
      wait = every;
    } catch (_) {
      offline = true;
      wait = Math.min(wait * 2, 120000); // back off while the network is away
    } finally {
      asking = false;
    }
    show();
    timer = window.setTimeout(poll, wait);
  };
  const start = () => (window.requestIdleCallback ? window.requestIdleCallback(poll, { timeout: 2000 })
    : window.setTimeout(poll, 200));
  document.addEventListener("visibilitychange", () => { if (!document.hidden) poll(); });
  window.addEventListener("online", () => { wait = every; poll(); });
  window.addEventListener("offline", () => { offline = true; show(); });
  window.addEventListener("scorekeeper:sent", () => poll());
  window.setInterval(show, 1000);
  show();
  if (document.readyState === "complete") start();
  else window.addEventListener("load", start, { once: true });
})();
