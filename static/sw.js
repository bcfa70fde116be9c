// Scorekeeper's service worker: the app shell and the pages this phone has
// opened, so they open with no network. Served from /sw.js so its scope is the whole
// app; the server fills in VERSION (a digest of the static files), so a change to any
// of them makes a new worker, found on the next visit, which drops the old caches.
"use strict";

const VERSION = "__VERSION__";
const SHELL = `sk-shell-${VERSION}`; // CSS, scripts, icons, manifest: by their exact URL
const PAGES = `sk-pages-${VERSION}`; // rules, deal helper, scoreboards, hand forms
const PENDING = "sk-pending"; // hand forms posted when the server was unreachable
const START = ["/rules", "/deal"]; // open offline even before the phone visits them
const MAX_PAGES = 60;
// The static files a page uses: linked, or named for app.js to load (data-offline,
// data-after-load).
const ASSET = /(?:href|src|data-offline|data-after-load)="(\/static\/[^"?#]+(?:\?[^"#]*)?)"/g;
const RULES_PAGE = /href="(\/rules\/[a-z-]+)"/g;

const isStatic = (url) => url.pathname.startsWith("/static/");
// Never from a cache: the API, the live poll, the worker itself.
const isLiveOnly = (url) => url.pathname.startsWith("/api/") || url.pathname.endsWith("/live")
  || url.pathname === "/sw.js";
const pageKey = (url) => url.pathname + url.search;

// A response fit to keep: a plain same-origin 200 that was not redirected (a stored
// redirected response cannot answer a navigation).
const keepable = (response) => response && response.ok && response.type === "basic"
  && !response.redirected;

async function put(cacheName, key, response) {
  const cache = await caches.open(cacheName);
  await cache.put(key, response);
  if (cacheName === PAGES) {
    const keys = await cache.keys();
    await Promise.all(keys.slice(0, Math.max(0, keys.length - MAX_PAGES)).map((k) => cache.delete(k)));
  }
}

// Fetch the static files a page references (whatever their fingerprinted URLs are).
async function keepAssetsOf(html) {
  const shell = await caches.open(SHELL);
  const urls = new Set(Array.from(html.matchAll(ASSET), (m) => m[1]));
  await Promise.all(Array.from(urls, async (url) => {
    if (await shell.match(url)) return;
    try {
      const response = await fetch(url);
      if (keepable(response)) await shell.put(url, response);
    } catch (_) { /* the next visit tries again */ }
  }));
}

// Fetch a page into the cache, with the static files it uses; returns its HTML.
async function keepPage(path) {
  try {
    // Marked as a copy: the server leaves the session's messages for the person's own page.
    const response = await fetch(path, {
      credentials: "same-origin", headers: { Accept: "text/html", "Scorekeeper-Copy": "keep" },
    });
    if (!keepable(response)) return "";
    const html = await response.clone().text();
    await put(PAGES, path, response);
    await keepAssetsOf(html);
    return html;
  } catch (_) {
    return "";
  }
}

self.addEventListener("install", (event) => {
  // Where the browser has static routing (Chromium), files under /static/ come straight
  // from the caches without starting this script for each one (their URLs change when
  // they do); one not kept yet comes from the network. Elsewhere the fetch handler
  // below does the same.
  if (event.addRoutes) {
    event.waitUntil(event.addRoutes({ condition: { urlPattern: "/static/*" }, source: "cache" })
      .catch(() => { /* rules refused: the fetch handler serves them */ }));
  }
  event.waitUntil((async () => {
    for (const path of START) {
      const html = await keepPage(path);
      if (path === "/rules") {
        const games = new Set(Array.from(html.matchAll(RULES_PAGE), (m) => m[1]));
        await Promise.all(Array.from(games, keepPage));
      }
    }
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    const current = [SHELL, PAGES, PENDING];
    await Promise.all(names.filter((n) => n.startsWith("sk-") && !current.includes(n))
      .map((n) => caches.delete(n)));
    // A page's request starts while this worker is still waking up.
    if (self.registration.navigationPreload) await self.registration.navigationPreload.enable();
    await self.clients.claim();
  })());
});

// A page asks for what it uses (its own static files, the pages it links to) to be
// kept; "fresh" ones are fetched again even when kept (the next hand's form). Any other
// message ("wake", from a hand form being filled in) only keeps this worker running.
self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type !== "keep") return;
  event.waitUntil((async () => {
    const pages = await caches.open(PAGES);
    const shell = await caches.open(SHELL);
    for (const path of data.urls || []) {
      const url = new URL(path, self.location.origin);
      if (url.origin !== self.location.origin || isLiveOnly(url)) continue;
      if (isStatic(url)) {
        if (await shell.match(pageKey(url))) continue;
        try {
          const response = await fetch(pageKey(url));
          if (keepable(response)) await shell.put(pageKey(url), response);
        } catch (_) { /* offline: next time */ }
      } else if ((data.fresh || []).includes(path) || !(await pages.match(pageKey(url)))) {
        await keepPage(pageKey(url));
      }
    }
  })());
});

function offlinePage() {
  const html = "<!doctype html><html lang=\"en\"><meta charset=\"utf-8\">"
    + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
    + "<title>Offline · Scorekeeper</title><body><main><h1>You are offline</h1>"
    + "<p>This page was not opened on this phone before, so there is no copy of it here. "
    + "Scoreboards, hand forms, the rules and the deal helper you have opened work offline.</p>"
    + "<p><a href=\"/rules\">Rules</a> · <a href=\"/deal\">Deal helper</a></p></main></body></html>";
  return new Response(html, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

// ms the network has to answer a page or a hand before the phone's own copy (or queue)
// takes over: a laptop asleep answers nothing at all.
const ANSWER_WAIT = 8000;
const NO_ANSWER = "no answer";
// ``promise``, or a rejection with NO_ANSWER after ANSWER_WAIT (``stop`` aborts the fetch).
function withinWait(promise, stop) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => { if (stop) stop.abort(); reject(new Error(NO_ANSWER)); }, ANSWER_WAIT);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

// Pages: the network first (a scoreboard must be current), the kept copy when offline,
// when the server answers nothing, or when it answers with its own trouble (a 5xx).
// The page gets its answer at once; the copy is written while it renders.
async function pageFirstFromNetwork(event, url) {
  const request = event.request;
  const keptCopy = async () => {
    const pages = await caches.open(PAGES);
    return await pages.match(pageKey(url)) || await pages.match(url.pathname, { ignoreSearch: true });
  };
  try {
    const stop = new AbortController();
    const response = (await withinWait(event.preloadResponse, stop))
      || await withinWait(fetch(request, { signal: stop.signal }), stop);
    if (keepable(response)) event.waitUntil(put(PAGES, pageKey(url), response.clone()));
    if (response.status >= 500) return (await keptCopy()) || response;
    return response;
  } catch (error) {
    const kept = await keptCopy();
    if (kept) return kept;
    if (request.mode === "navigate") return offlinePage();
    throw error;
  }
}

// Static files: from the cache when kept (their URL changes when they do), else fetched
// and kept.
async function staticFromCache(request, url) {
  const shell = await caches.open(SHELL);
  const kept = await shell.match(pageKey(url));
  if (kept) return kept;
  const response = await fetch(request);
  if (keepable(response)) await shell.put(pageKey(url), response.clone());
  return response;
}

// A hand form posted natively (the page's script, which sends hands itself, was not
// running yet) that the server did not store: no network, no answer, or a 5xx. Keep
// what was typed and go back to the form, whose script puts the hand in the queue
// instead of losing it. Any other answer (stored, or the hand refused) goes to the page.
async function postHand(request) {
  const copy = request.clone();
  let trouble;
  try {
    const stop = new AbortController();
    const response = await withinWait(fetch(request, { signal: stop.signal }), stop);
    if (response.status < 500) return response;
    trouble = `The server could not store it just now (${response.status}).`;
  } catch (error) {
    trouble = error && error.message === NO_ANSWER ? "The server did not answer." : "The server could not be reached.";
  }
  const fields = { trouble };
  (await copy.formData()).forEach((value, name) => { fields[name] = String(value); });
  const id = String(Date.now());
  const pending = await caches.open(PENDING);
  await pending.put(`/__pending/${id}`, new Response(JSON.stringify(fields),
    { headers: { "Content-Type": "application/json" } }));
  const back = new URL(request.url);
  back.search = `?resend=${id}`;
  return Response.redirect(back.href, 303);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method === "POST" && request.mode === "navigate" && url.pathname.endsWith("/hands/new")
      && url.origin === self.location.origin) {
    event.respondWith(postHand(request));
    return;
  }
  if (request.method !== "GET" || url.origin !== self.location.origin || isLiveOnly(url)) return;
  if (isStatic(url)) {
    event.respondWith(staticFromCache(request, url));
  } else if (request.mode === "navigate" || (request.headers.get("Accept") || "").includes("text/html")) {
    event.respondWith(pageFirstFromNetwork(event, url));
  }
});
