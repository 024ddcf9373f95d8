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
  window.addEventListener("hashchange", () => location.reload()); // another sheet's link
  if (opened) {
    const { id, key } = opened;
    const api = sheetApi(id, key);
    const helper = diceHelper($("dice-helper"), api);
    $("sheet").hidden = false;
    $("share").hidden = !share;
    if (share) showShareLink(sheetLink(id, key));
    openSheet(api, (view) => {
      keepSheet(id, key, view);
      helper(view);
    });
    return;
  }
  $("setup").hidden = false;
  listSheets();
  setupImport((view) => location.assign(view.link));
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
