// A JSON file chosen in a file input (a record to analyse, a sheet to open): each choice is
// read and parsed; a file that does not hold JSON is said apart from what its record does.

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
