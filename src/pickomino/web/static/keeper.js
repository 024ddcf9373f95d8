// The score keeper page: /keeper sets up a sheet or resumes one, /keeper/{id}#{key} keeps it.
// The sheet lives on the server and its link (with the key after #) opens it on any device;
// this browser remembers the sheets it created or opened, and the names typed.

import { getJSON } from "./api.js";
import { diceHelper } from "./dicehelper.js";
import { loadWords, t } from "./i18n.js";
import { copyAndSay } from "./invites.js";
import { setupNotice } from "./notice.js";
import { openSheet } from "./sheet.js";
import { keepSheet, keyOf, sheetApi, sheetLink } from "./sheetlinks.js";
import { listSheets, setupSheetForm } from "./sheetsetup.js";
import { read as recall, write as remember } from "./storage.js";

const $ = (id) => document.getElementById(id);
const NAMES = "pickomino.keeper.names";

await loadWords();
document.title = t("keeper.doc_title", { game: t("game.name") });
setupNotice();
const sheetId = location.pathname.match(/^\/keeper\/([^/]+)/)?.[1];
if (sheetId) {
  const id = decodeURIComponent(sheetId);
  const key = location.hash.slice(1) || keyOf(id);
  // The address is the whole link, key included, so that copying it shares the sheet.
  if (key && !location.hash) history.replaceState(null, "", sheetLink(id, key));
  window.addEventListener("hashchange", () => location.reload()); // another sheet's link pasted
  const api = sheetApi(id, key);
  const helper = diceHelper($("dice-helper"), api);
  $("sheet").hidden = false;
  showShareLink(sheetLink(id, key));
  openSheet(api, (view) => {
    keepSheet(id, key, view);
    helper(view);
  });
} else {
  $("setup").hidden = false;
  listSheets();
  try {
    setupSheetForm(await getJSON("/api/options"), recall(NAMES) || [], (view) => {
      remember(NAMES, view.names);
      location.assign(view.link); // a real URL: reload keeps it
    });
  } catch (failure) {
    $("setup-error").textContent = t("keeper.setup_failed", { why: failure.message });
    $("setup-error").hidden = false;
  }
}

function showShareLink(link) {
  const input = $("share-link");
  input.value = new URL(link, location.href).href;
  input.addEventListener("focus", () => input.select());
  const copy = $("copy-share");
  copy.addEventListener("click", () => copyAndSay(input, copy));
}
