// The engine's worker: Pyodide with the pickomino package (pickomino.zip, pure Python), which
// answers the keeper's API and a solo game's table (pickomino.offline.answers) as the server
// would, and deletes a game from the list when asked; sheets and games are kept in IndexedDB
// ("pickomino": store "sheets" of {id, data, over, view, package}, store "games" of {id, data,
// over, view, package, updated}, the data being a sheet's or a game's record). One request at a time, in order, so that two taps
// cannot both change the same stored sheet or game.
//
// Python takes about two seconds to start: until it is up, the set-up form's options come from
// engine.json (written by the build), a stored sheet is shown from the view stored with it, if
// the same package made it, and the games are listed from theirs; a change waits for Python.

import { loadPyodide } from "../pyodide/pyodide.mjs";

const APP = new URL("../", import.meta.url);

// One of the app's files, as bytes or as JSON: from the network, else from the service worker's
// cache. This worker may have started before the service worker took the page over, so its
// requests go to the network, which may be gone by then (a first visit, then offline).
async function appFile(name, read) {
  const url = new URL(name, APP);
  const response = await fetch(url).catch(async (error) => {
    const kept = await caches.match(url.href);
    if (!kept) throw error;
    return kept;
  });
  if (!response.ok) throw new Error(`${name}: ${response.status}`);
  return read === "json" ? response.json() : new Uint8Array(await response.arrayBuffer());
}

const engine = (async () => {
  const pyodide = await loadPyodide({ indexURL: new URL("pyodide/", APP).href });
  // Fetched after Pyodide rather than beside it: waiting for it lets the requests that came in
  // meanwhile (a stored sheet shown from its view) be answered before Python's import and the
  // turn's states take the worker for a second.
  const zip = await appFile("pickomino.zip");
  pyodide.FS.writeFile("/home/pyodide/pickomino.zip", zip);
  pyodide.runPython("import sys; sys.path.insert(0, '/home/pyodide/pickomino.zip')");
  const answers = pyodide.pyimport("pickomino.offline.answers");
  // the turn's states, built now (a quarter of a second natively) rather than at the first advice asked
  pyodide.runPython("from pickomino.solver.turns import turn_tree; turn_tree()");
  return answers;
})();

const built = appFile("engine.json", "json");

// A newer version of the app opened in another tab upgrades the database: this one lets it
// (closing its connection) and tells its page to reload. An older tab that does not let go
// holds the upgrade back: the page is told to close it; the upgrade goes on once it is closed.
const database = new Promise((resolve, reject) => {
  const opening = indexedDB.open("pickomino", 2);
  opening.onupgradeneeded = ({ oldVersion }) => {
    if (oldVersion < 1) opening.result.createObjectStore("sheets", { keyPath: "id" });
    if (oldVersion < 2) opening.result.createObjectStore("games", { keyPath: "id" });
  };
  opening.onblocked = () => self.postMessage({ notice: { id: "storage_blocked", rule: null, params: {} } });
  opening.onsuccess = () => {
    opening.result.onversionchange = () => {
      opening.result.close();
      self.postMessage({ notice: { id: "app_outdated", rule: null, params: {} } });
    };
    resolve(opening.result);
  };
  opening.onerror = () => reject(opening.error);
});

// A read answers with its result; a write only once its transaction has committed.
function stored(name, mode, use) {
  return database.then(
    (db) =>
      new Promise((resolve, reject) => {
        const transaction = db.transaction(name, mode);
        const request = use(transaction.objectStore(name));
        transaction.oncomplete = () => resolve(request.result);
        transaction.onerror = () => reject(transaction.error ?? request.error);
        transaction.onabort = () => reject(transaction.error ?? new Error("aborted"));
      }),
  );
}

const keep = ({ store, ...kept }, made) =>
  stored(store, "readwrite", (place) => place.put({ ...kept, package: made, updated: Date.now() }));

async function answerRequest({ method, path, body }) {
  const { package: made, options } = await built;
  if (method === "GET" && path === "/api/options") return { status: 200, data: options };
  if (method === "GET" && path === "/api/games") {
    const games = await stored("games", "readonly", (place) => place.getAll());
    games.sort((a, b) => b.updated - a.updated);
    return { status: 200, data: games.map(({ id, over, view, updated }) => ({ id, over, updated, ...view })) };
  }
  const [, kind, id] = path.match(/^\/api\/(sheets|games)\/([^/]+)/) ?? [];
  if (method === "DELETE" && kind === "games" && path === `/api/games/${id}`) {
    await stored("games", "readwrite", (place) => place.delete(decodeURIComponent(id)));
    return { status: 200, data: { deleted: decodeURIComponent(id) } }; // gone, or never there
  }
  const known = id ? await stored(kind, "readonly", (place) => place.get(decodeURIComponent(id))) : null;
  const shown = method === "GET" && kind === "sheets" && path === `/api/sheets/${id}` && known?.package === made;
  if (shown && known.view) return { status: 200, data: known.view };
  const answers = await engine;
  const reply = JSON.parse(answers.answer(method, path, body, known?.data ?? null));
  if (reply.keep) await keep(reply.keep, made);
  return reply;
}

async function answerGame({ game, message, shown }) {
  const { package: made } = await built;
  const known = await stored("games", "readonly", (place) => place.get(game));
  if (!known) return { messages: [{ type: "error", id: "no_game", rule: null, params: { id: game } }] };
  const answers = await engine;
  const reply = JSON.parse(answers.play(known.data, message, shown));
  if (reply.keep) await keep(reply.keep, made);
  return { messages: reply.messages };
}

// In order within this tab, and one at a time across tabs (each tab has a worker of its own):
// a sheet or game is read, changed and written with no other tab's change in between.
const exclusive = (work) => (navigator.locks ? navigator.locks.request("pickomino-sheets", work) : work());
let queue = Promise.resolve();
self.addEventListener("message", ({ data }) => {
  // the database first, outside the lock: an upgrade held back by another tab holds no lock
  queue = queue.then(() => database.catch(() => null)).then(() =>
    exclusive(async () => {
      try {
        const reply = await ("game" in data ? answerGame(data) : answerRequest(data));
        self.postMessage({ id: data.id, ...reply });
      } catch (failure) {
        const detail = { id: "engine_error", rule: null, params: { why: String(failure?.message ?? failure) } };
        self.postMessage({ id: data.id, status: 503, data: { detail } });
      }
    }),
  );
});
