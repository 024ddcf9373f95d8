// The offline app's page: the score keeper with its dice helper, answered in this browser by
// the Python package in a worker (engine.js) instead of a server, and kept in IndexedDB. The
// open sheet is the one named after # in the address. The service worker (sw.js) keeps every
// file, so the app opens with no network after the first visit.

import { answerLocally } from "./api.js";
import { keeperPage } from "./keeperpage.js";
import { startEngine } from "./local.js";

answerLocally(startEngine());
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("sw.js").catch(() => {
    /* no service worker (a private window, say): the app works until the tab closes */
  });
}
const id = decodeURIComponent(location.hash.slice(1));
await keeperPage(id ? { id, key: null } : null, { share: false });
