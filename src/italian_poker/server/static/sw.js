// The installable app's service worker: it keeps the page shell (the static files) for a
// quick start and an offline notice, and never a table's state: the API, the WebSockets and
// the pages of tables and hands always go to the server.
const SHELL = "italian-poker-shell-v1";
const FILES = [
  "/static/style.css", "/static/replay.css", "/static/table.js", "/static/lobby.js",
  "/static/i18n.js", "/static/cards.js", "/static/dom.js", "/static/seat_store.js",
  "/static/draw_rules.js", "/static/hint.js", "/static/chat.js", "/static/ledger.js",
  "/static/stats.js", "/static/watch.js", "/static/fairness.js", "/static/fair_panel.js",
  "/static/icon-192.png", "/static/icon-512.png",
  "/static/icon.svg", "/manifest.webmanifest",
];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((key) => key !== SHELL).map((key) => caches.delete(key))))
    .then(() => self.clients.claim()));
});

// The shell: the network first (a new version is seen at once), the cache when offline.
self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin) return;
  if (!FILES.includes(url.pathname)) return; // the API, the tables, the hands: never cached
  event.respondWith(fetch(event.request).then((response) => {
    if (response.ok) {
      const copy = response.clone();
      caches.open(SHELL).then((cache) => cache.put(event.request, copy));
    }
    return response;
  }).catch(() => caches.match(event.request)));
});

// A "your turn" notification tapped: back to the table's tab.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(self.clients.matchAll({ type: "window" }).then((windows) => {
    if (windows.length) return windows[0].focus();
    return self.clients.openWindow("/");
  }));
});
