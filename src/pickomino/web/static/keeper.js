// The score keeper page: /keeper sets up a sheet or resumes one, /keeper/{id}#{key} keeps it.
// The sheet lives on the server and its link (with the key after #) opens it on any device;
// this browser remembers the sheets it created or opened, and the names typed.

import { keeperPage } from "./keeperpage.js";
import { keyOf, sheetLink } from "./sheetlinks.js";

const sheetId = location.pathname.match(/^\/keeper\/([^/]+)/)?.[1];
let opened = null;
if (sheetId) {
  const id = decodeURIComponent(sheetId);
  const key = location.hash.slice(1) || keyOf(id);
  // The address is the whole link, key included, so that copying it shares the sheet.
  if (key && !location.hash) history.replaceState(null, "", sheetLink(id, key));
  opened = { id, key };
}
await keeperPage(opened, { share: true });
