// The score keeper's page: set up a sheet or resume one when none is open, else keep the open
// one. The server's page (keeper.js) and the offline app's (pickomino/offline) are this page,
// each finding the open sheet in its own address.

import { getJSON } from "./api.js";
import { diceHelper } from "./dicehelper.js";
import { loadWords, t } from "./i18n.js";
import { copyAndSay } from "./invites.js";
import { setupNotice } from "./notice.js";
import { openSheet } from "./sheet.js";
import { keepSheet, sheetApi, sheetLink } from "./sheetlinks.js";
import { listSheets, setupImport, setupSheetForm } from "./sheetsetup.js";
import { read as recall, write as remember } from "./storage.js";

const $ = (id) => document.getElementById(id);
const NAMES = "pickomino.keeper.names";

/** `opened`: the sheet the address names ({id, key}), or null for the set-up screen;
 * `share`: whether the sheet's link is offered to other phones. */
export async function keeperPage(opened, { share }) {
  await loadWords();
  document.title = t("keeper.doc_title", { game: t("game.name") });
  setupNotice();
  // Another sheet's link, or Back to the set-up screen after a sheet opened in this page.
  window.addEventListener("hashchange", () => location.reload());
  window.addEventListener("popstate", () => location.reload());
  if (opened) {
    showSheet(opened, share);
    return;
  }
  $("setup").hidden = false;
  listSheets();
  // A new sheet opens in this page at its own address (a reload keeps it): no second start
  // of the page (in the offline app, of Python).
  const openHere = (view) => {
    history.pushState(null, "", view.link);
    $("setup").hidden = true;
    showSheet({ id: view.id, key: view.key || null }, share);
    $("turn-who").focus(); // the form it was on is gone
  };
  setupImport(openHere);
  try {
    setupSheetForm(await getJSON("/api/options"), recall(NAMES) || [], (view) => {
      remember(NAMES, view.names);
      openHere(view);
    });
  } catch (failure) {
    $("setup-error").textContent = t("keeper.setup_failed", { why: failure.message });
    $("setup-error").hidden = false;
  }
}

function showSheet({ id, key }, share) {
  const api = sheetApi(id, key);
  const helper = diceHelper($("dice-helper"), api);
  $("sheet").hidden = false;
  $("share").hidden = !share;
  if (share) showShareLink(sheetLink(id, key));
  openSheet(api, (view) => {
    keepSheet(id, key, view);
    helper(view);
  });
}

function showShareLink(link) {
  const input = $("share-link");
  input.value = new URL(link, location.href).href;
  input.addEventListener("focus", () => input.select());
  const copy = $("copy-share");
  copy.addEventListener("click", () => copyAndSay(input, copy));
}
