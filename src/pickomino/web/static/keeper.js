// The score keeper page: /keeper sets up a sheet or resumes one, /keeper/{id} keeps it.
// The sheet lives on the server, so its link alone reopens it on any device; this browser
// only remembers the last sheet and the names typed, to offer them again.

import { getJSON } from "./api.js";
import { diceHelper } from "./dicehelper.js";
import { setupNotice } from "./notice.js";
import { openSheet } from "./sheet.js";
import { listSheets, setupSheetForm } from "./sheetsetup.js";
import { read as recall, write as remember } from "./storage.js";

const $ = (id) => document.getElementById(id);
const LAST_SHEET = "pickomino.keeper.sheet";
const NAMES = "pickomino.keeper.names";

setupNotice();
const sheetId = location.pathname.match(/^\/keeper\/([^/]+)/)?.[1];
if (sheetId) {
  const id = decodeURIComponent(sheetId);
  remember(LAST_SHEET, id);
  $("sheet").hidden = false;
  openSheet(id, diceHelper($("dice-helper"), id));
} else {
  $("setup").hidden = false;
  listSheets(recall(LAST_SHEET));
  try {
    setupSheetForm(await getJSON("/api/options"), recall(NAMES) || [], (view) => {
      remember(NAMES, view.names);
      location.assign(`/keeper/${encodeURIComponent(view.id)}`); // a real URL: reload keeps it
    });
  } catch (failure) {
    $("setup-error").textContent = `The set-up could not load: ${failure.message}`;
    $("setup-error").hidden = false;
  }
}
