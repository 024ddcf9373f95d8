// JSON files in and out: a file chosen in a file input (a record to analyse, a sheet to open),
// read and parsed, a file that does not hold JSON said apart from what its record does; and a
// record saved as a file (a sheet, a finished game).

import { answeredHere, getJSON } from "./api.js";
import { h } from "./dom.js";
import { notice } from "./notice.js";

/** On each file chosen in `input`: `onRecord(record, file)`, or `notJSON(file)`. The input is
 * emptied, so that choosing the same file again is a new choice. */
export function onJSONFile(input, { onRecord, notJSON }) {
  input.addEventListener("change", async () => {
    const [file] = input.files;
    input.value = "";
    if (!file) return;
    let record;
    try {
      record = JSON.parse(await file.text());
    } catch {
      notJSON(file);
      return;
    }
    await onRecord(record, file);
  });
}

/** Saves `data` as the JSON file `name` (the browser's download). */
export function saveJSON(data, name) {
  const file = new Blob([JSON.stringify(data, null, 1)], { type: "application/json" });
  const link = h("a", { href: URL.createObjectURL(file), download: name });
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 60000); // some browsers start it later
}

/** A link (`props`, `words`) that downloads the JSON at `url` as `name`: the server's file,
 * or, where the API is answered in this browser (the offline app), the JSON asked of it. */
export function downloadLink(url, name, props, words) {
  const link = h("a", { ...props, href: url, download: name }, words);
  link.addEventListener("click", async (event) => {
    if (!answeredHere()) return;
    event.preventDefault();
    try {
      saveJSON(await getJSON(url), name);
    } catch (failure) {
      notice(failure.message, failure.rule);
    }
  });
  return link;
}
