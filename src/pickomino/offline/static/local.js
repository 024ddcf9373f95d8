// The pages' server, in this browser: each request of the score keeper's API, and each message
// of a solo game's table, goes to the engine's worker (engine.js) and comes back as the server
// would have answered it (a Response for api.js, the socket's messages for game.js).

import { describeError } from "./i18n.js";
import { notice } from "./notice.js";

const BOT_PACE = 800; // ms before each step of a bot, as on the server, so people can follow

/** Starts the worker; returns {answer(url, init) → Promise<Response>, play(game, message,
 * shown) → Promise<{messages}>}. */
export function startEngine() {
  const worker = new Worker(new URL("./engine.js", import.meta.url), { type: "module" });
  const waiting = new Map();
  let asked = 0;
  let broken = null; // the worker failed to start: every request gets the reason

  const failure = (why) => ({ status: 503, data: { detail: { id: "engine_failed", rule: null, params: { why } } } });
  worker.addEventListener("message", ({ data }) => {
    if (data.notice) notice(describeError(data.notice)); // about the stored data, unasked
    waiting.get(data.id)?.(data);
    waiting.delete(data.id);
  });
  worker.addEventListener("error", (event) => {
    event.preventDefault();
    broken = event.message || "the engine did not start";
    for (const resolve of waiting.values()) resolve(failure(broken));
    waiting.clear();
  });
  const ask = (request) =>
    broken
      ? Promise.resolve(failure(broken))
      : new Promise((resolve) => {
          asked += 1;
          waiting.set(asked, resolve);
          worker.postMessage({ id: asked, ...request });
        });

  const answer = async (url, init = {}) => {
    const { status, data } = await ask({ method: init.method ?? "GET", path: url, body: init.body ?? null });
    return new Response(JSON.stringify(data), { status, headers: { "content-type": "application/json" } });
  };
  const play = async (game, message, shown) => {
    const reply = await ask({ game, message: JSON.stringify(message), shown });
    return reply.messages ?? [{ type: "error", ...reply.data.detail }]; // the engine failed
  };
  return { answer, play };
}

/**
 * What stands for the game's socket (socket.js connectLocally) when a solo game is played in
 * this browser: the table page's messages go to `play` (see startEngine), their answers come
 * back as the server's would; while a bot has the turn it asks for the bot's next step after
 * a pause (`pace` ms). A stored game that cannot be read closes the "connection" at once.
 */
export function localGame(play, gameId, pace = BOT_PACE) {
  return ({ onMessage, onStatus }) => {
    let shown = 0; // log entries the page has
    let botTimer = null;

    async function send(message) {
      const messages = await play(gameId, message, message.type === "sync" ? 0 : shown);
      for (const answer of messages) {
        if (answer.type === "state") {
          shown = answer.log_start + answer.log.length;
          clearTimeout(botTimer);
          if (answer.bot_turn) botTimer = setTimeout(() => send({ type: "step", seq: answer.seq }), pace);
        }
        const stale = answer.type === "error" && answer.id === "stale"; // another tab moved
        if (!(stale && message.type === "step")) onMessage(answer); // a person is told why
        if (stale) return send({ type: "sync" }); // and sees the game as it is now
      }
      if (message.type === "join" && !messages.some((answer) => answer.type === "state")) onStatus("closed");
    }

    onStatus("online");
    send({ type: "join" });
    return (message) => {
      if (message.type !== "ping") send(message);
      return true;
    };
  };
}

/** Lets the service worker (sw.js) keep the app's files, so that it opens with no network. */
export function keepOffline() {
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("sw.js").catch(() => {
      /* no service worker (a private window, say): the app works until the tab closes */
    });
  }
}
