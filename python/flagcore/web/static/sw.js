// flagcore's service worker (served at /sw.js so its scope is the whole site): it keeps the pages,
// styles, scripts and icons so the game installs and opens offline. The API is never cached:
// boards and guesses need the server, so offline a page opens and says so.
"use strict";
const CACHE = "flagcore-v1";
const SHELL = ["/", "/connections", "/puzzle", "/static/app.css", "/static/common.js", "/static/connections.js",
               "/static/puzzle.js", "/static/help.html", "/static/offline.html", "/static/favicon.svg", "/static/icon-192.png"];

self.addEventListener("install", event => {
  event.waitUntil(caches.open(CACHE).then(cache => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", event => {
  event.waitUntil(caches.keys().then(keys => Promise.all(keys.filter(k => k !== CACHE).map(k => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", event => {
  const request = event.request, url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin || url.pathname.startsWith("/api/")) return;
  if (request.mode === "navigate") {  // pages: the network first (a new version), else the copy, else the offline page
    const page = url.pathname;
    event.respondWith(fetch(request).then(response => {
      if (response.ok) { const copy = response.clone(); caches.open(CACHE).then(c => c.put(page, copy)); }
      return response;
    }).catch(() => caches.match(page).then(hit => hit || caches.match("/static/offline.html"))));
    return;
  }
  // styles, scripts, icons, flags: the copy at once, refreshed in the background
  event.respondWith(caches.open(CACHE).then(cache => cache.match(request).then(hit => {
    const fresh = fetch(request).then(response => { if (response.ok) cache.put(request, response.clone()); return response; });
    if (!hit) return fresh;
    fresh.catch(() => { /* offline: the copy stands */ });
    return hit;
  })));
});
