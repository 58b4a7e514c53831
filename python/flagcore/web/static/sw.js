// flagcore's service worker (served at /sw.js so its scope is the whole site): it keeps the pages,
// styles, scripts and icons so the game installs and opens offline. The API is never cached:
// boards and guesses need the server, so offline a page opens and says so.
"use strict";
const CACHE = "flagcore-v2";
const SHELL = ["/", "/connections", "/puzzle", "/static/app.css", "/static/common.js", "/static/connections.js",
               "/static/puzzle.js", "/static/home.js", "/static/help.html", "/static/help-connections.svg",
               "/static/help-puzzle.svg", "/static/offline.html", "/static/favicon.svg", "/static/icon-192.png"];

self.addEventListener("install", event => {
  event.waitUntil(caches.open(CACHE).then(cache => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", event => {
  event.waitUntil(caches.keys().then(keys => Promise.all(keys.filter(k => k !== CACHE).map(k => caches.delete(k))))
    .then(() => self.clients.claim()));
});

// One strategy for everything it keeps: the network first (so a new version shows at once), a
// copy kept for later; offline the copy, and for a page never saved the offline page.
self.addEventListener("fetch", event => {
  const request = event.request, url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin || url.pathname.startsWith("/api/")) return;
  const key = request.mode === "navigate" ? url.pathname : request;  // a page is kept once, whatever its query
  event.respondWith(fetch(request).then(response => {
    if (response.ok) { const copy = response.clone(); caches.open(CACHE).then(cache => cache.put(key, copy)); }
    return response;
  }).catch(() => caches.match(key).then(hit => hit || (request.mode === "navigate" ? caches.match("/static/offline.html") : Response.error()))));
});
