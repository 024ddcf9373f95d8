// The offline app's service worker: on install it keeps every file of the app (FILES, written
// in by `pickomino build-app`, fetched past the browser's HTTP cache) in a cache named after
// this build, then answers every GET from there, so the app opens and works with no network.
// A new build has a new name: it installs beside the old one, takes over as soon as it is
// installed and deletes the old cache; the sheets are in IndexedDB, which no update touches.

const CACHE = "pickomino-app-$version";
const FILES = $files;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(FILES.map((file) => new Request(file, { cache: "reload" }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(names.filter((name) => name.startsWith("pickomino-app-") && name !== CACHE).map((name) => caches.delete(name))),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  if (event.request.method !== "GET") return;
  event.respondWith(
    caches.open(CACHE).then((cache) =>
      cache.match(event.request, { ignoreSearch: true }).then((kept) => kept || fetch(event.request)),
    ),
  );
});
