// The offline app's page: the score keeper with its dice helper, answered in this browser by
// the Python package in a worker (engine.js) instead of a server, and kept in IndexedDB. The
// open sheet is the one named after # in the address. Its set-up screen also leads to the solo
// games against the bots (play.html). The service worker (sw.js) keeps every file, so the app
// opens with no network after the first visit.

import { answerLocally } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { keeperPage } from "./keeperpage.js";
import { keepOffline, startEngine } from "./local.js";

answerLocally(startEngine().answer);
keepOffline();
const id = decodeURIComponent(location.hash.slice(1));
await keeperPage(id ? { id, key: null } : null, { share: false });
if (!id) {
  const solo = h(
    "section",
    { class: "card", testid: "solo-card" },
    h("h2", {}, t("solo.title")),
    h("p", { class: "muted" }, t("solo.help")),
    h("a", { class: "btn primary", href: "play.html", testid: "solo-link" }, t("solo.open")),
  );
  document.getElementById("resume-last").after(solo); // the sheet last opened stays first
}
