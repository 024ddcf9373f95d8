// The score sheets this browser created or opened. A sheet is reached only by its link,
// /keeper/ID#KEY (the part after # never leaves the browser), and the server lists no sheets:
// so the key is kept here, with what the set-up screen shows of each sheet. localStorage may
// be off (private modes): then only the link itself opens a sheet.

import { getJSON, postJSON } from "./api.js";
import { read, write } from "./storage.js";

// The offline app keeps its own list, one per app folder: its sheets are not the server's
// (a server's /keeper and /app/ share this browser's storage, and so may two apps on one site).
const OFFLINE = document.documentElement.dataset.offline !== undefined;
const KEPT = OFFLINE ? `pickomino.app.sheets:${new URL(".", location.href).pathname}` : "pickomino.keeper.sheets";
const BEFORE_KEYS = "pickomino.keeper.sheet"; // the last sheet's id, as kept before sheets had keys
const MOST = 50;

/** The link that opens a sheet (a sheet from before keys has none: its id alone opens it).
 * In the offline app (<html data-offline>) a sheet lives in this browser: the page's own
 * address with the sheet's id after #. */
export const sheetLink = (id, key) =>
  OFFLINE
    ? `#${encodeURIComponent(id)}`
    : `/keeper/${encodeURIComponent(id)}${key ? `#${key}` : ""}`;

/** Requests about one sheet, each carrying its key. */
export function sheetApi(id, key) {
  const path = `/api/sheets/${encodeURIComponent(id)}`;
  const headers = key ? { "Sheet-Key": key } : {};
  return {
    get: (what = null) => getJSON(what ? `${path}/${what}` : path, headers),
    post: (what, body) => postJSON(`${path}/${what}`, body, headers),
  };
}

/** [{id, key, names, over, count, opened}], the sheet opened last first. */
export function keptSheets() {
  const sheets = read(KEPT) || [];
  const old = read(BEFORE_KEYS);
  if (old) {
    if (!sheets.some((sheet) => sheet.id === old)) sheets.push(summary(old, null, null, 0));
    write(KEPT, sheets);
    write(BEFORE_KEYS, null);
  }
  return sheets;
}

export const keyOf = (id) => keptSheets().find((sheet) => sheet.id === id)?.key ?? null;

/** Remembers a sheet as opened now, with what its `view` (from the server) says. */
export function keepSheet(id, key, view) {
  const others = keptSheets().filter((sheet) => sheet.id !== id);
  write(KEPT, [summary(id, key, view, Date.now()), ...others].slice(0, MOST));
}

/** Brings a remembered sheet up to date with its `view`, in its place. */
export function refreshSheet(id, view) {
  write(
    KEPT,
    keptSheets().map((sheet) => (sheet.id === id ? summary(id, sheet.key, view, sheet.opened) : sheet)),
  );
}

export function forgetSheet(id) {
  write(
    KEPT,
    keptSheets().filter((sheet) => sheet.id !== id),
  );
}

function summary(id, key, view, opened) {
  return { id, key, names: view?.names ?? [], over: view?.table.over ?? false, count: view?.count ?? 0, opened };
}
