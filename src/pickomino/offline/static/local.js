// The API of the score keeper, answered in this browser: each request goes to the engine's
// worker (engine.js) and comes back as the Response a server would have sent, so the pages'
// own code (api.js) reads it as it reads the server's.

/** Starts the worker; returns answer(url, init) → Promise<Response>. */
export function startEngine() {
  const worker = new Worker(new URL("./engine.js", import.meta.url), { type: "module" });
  const waiting = new Map();
  let asked = 0;
  let broken = null; // the worker failed to start: every request gets the reason

  const reply = (status, data) =>
    new Response(JSON.stringify(data), { status, headers: { "content-type": "application/json" } });
  const failure = (why) => reply(503, { detail: { id: "engine_failed", rule: null, params: { why } } });

  worker.addEventListener("message", ({ data }) => {
    waiting.get(data.id)?.(reply(data.status, data.data));
    waiting.delete(data.id);
  });
  worker.addEventListener("error", (event) => {
    event.preventDefault();
    broken = event.message || "the engine did not start";
    for (const resolve of waiting.values()) resolve(failure(broken));
    waiting.clear();
  });

  return (url, init = {}) =>
    broken
      ? Promise.resolve(failure(broken))
      : new Promise((resolve) => {
          asked += 1;
          waiting.set(asked, resolve);
          worker.postMessage({ id: asked, method: init.method ?? "GET", path: url, body: init.body ?? null });
        });
}
