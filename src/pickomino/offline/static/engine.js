// The engine's worker: Pyodide with the pickomino package (pickomino.zip, pure Python), which
// answers the keeper's API (pickomino.offline.answers) as the server would; the sheets are kept
// in IndexedDB ("pickomino", store "sheets": {id, data, over, view, package}). One request at a
// time, in order, so that two taps cannot both change the same stored sheet.
//
// Python takes about two seconds to start: until it is up, the set-up form's options come from
// engine.json (written by the build) and a stored sheet is shown from the view stored with it,
// if the same package made it; a change waits for Python.

import { loadPyodide } from "../pyodide/pyodide.mjs";

const APP = new URL("../", import.meta.url);

const engine = (async () => {
  const pyodide = await loadPyodide({ indexURL: new URL("pyodide/", APP).href });
  const zip = await fetch(new URL("pickomino.zip", APP));
  if (!zip.ok) throw new Error(`pickomino.zip: ${zip.status}`);
  pyodide.FS.writeFile("/home/pyodide/pickomino.zip", new Uint8Array(await zip.arrayBuffer()));
  pyodide.runPython("import sys; sys.path.insert(0, '/home/pyodide/pickomino.zip')");
  const answer = pyodide.pyimport("pickomino.offline.answers").answer;
  // the turn's states, built now (half a second) rather than at the first advice asked
  pyodide.runPython("from pickomino.solver.turns import turn_tree; turn_tree()");
  return answer;
})();

const built = fetch(new URL("engine.json", APP)).then((response) => {
  if (!response.ok) throw new Error(`engine.json: ${response.status}`);
  return response.json();
});

const database = new Promise((resolve, reject) => {
  const opening = indexedDB.open("pickomino", 1);
  opening.onupgradeneeded = () => opening.result.createObjectStore("sheets", { keyPath: "id" });
  opening.onsuccess = () => resolve(opening.result);
  opening.onerror = () => reject(opening.error);
});

// A read answers with its result; a write only once its transaction has committed.
function stored(mode, use) {
  return database.then(
    (db) =>
      new Promise((resolve, reject) => {
        const transaction = db.transaction("sheets", mode);
        const request = use(transaction.objectStore("sheets"));
        transaction.oncomplete = () => resolve(request.result);
        transaction.onerror = () => reject(transaction.error ?? request.error);
        transaction.onabort = () => reject(transaction.error ?? new Error("aborted"));
      }),
  );
}

async function answerOne({ method, path, body }) {
  const { package: made, options } = await built;
  if (method === "GET" && path === "/api/options") return { status: 200, data: options };
  const sheetId = path.match(/^\/api\/sheets\/([^/]+)/)?.[1];
  const sheet = sheetId ? await stored("readonly", (store) => store.get(decodeURIComponent(sheetId))) : null;
  const shown = method === "GET" && path === `/api/sheets/${sheetId}` && sheet?.package === made;
  if (shown && sheet.view) return { status: 200, data: sheet.view };
  const answer = await engine;
  const reply = JSON.parse(answer(method, path, body, sheet?.data ?? null));
  if (reply.keep) await stored("readwrite", (store) => store.put({ ...reply.keep, package: made }));
  return reply;
}

// In order within this tab, and one at a time across tabs (each tab has a worker of its own):
// a sheet is read, changed and written with no other tab's change in between.
const exclusive = (work) => (navigator.locks ? navigator.locks.request("pickomino-sheets", work) : work());
let queue = Promise.resolve();
self.addEventListener("message", ({ data }) => {
  queue = queue.then(() => exclusive(async () => {
    try {
      const { status, data: answer } = await answerOne(data);
      self.postMessage({ id: data.id, status, data: answer });
    } catch (failure) {
      const detail = { id: "engine_failed", rule: null, params: { why: String(failure?.message ?? failure) } };
      self.postMessage({ id: data.id, status: 503, data: { detail } });
    }
  }));
});
