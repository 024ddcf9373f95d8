// The offline app's solo games: without a game in the address, the set-up of a game against
// the bots and the games kept in this browser (solo.js); with one (play.html#id), the server's
// own table page (game.js), its socket answered in this browser (local.js). `?pace=ms` sets
// the pause before each bot step (0.8 s unless told).

import { answerLocally } from "./api.js";
import { keepOffline, localGame, startEngine } from "./local.js";
import { connectLocally } from "./socket.js";

const engine = startEngine();
answerLocally(engine.answer);
keepOffline();
window.addEventListener("hashchange", () => location.reload()); // another game's link, or back

async function openGame(id) {
  const pace = Number(new URLSearchParams(location.search).get("pace") ?? Number.NaN);
  connectLocally(localGame(engine.play, id, pace >= 0 ? pace : undefined));
  await import("./game.js");
}

const id = decodeURIComponent(location.hash.slice(1));
if (id) {
  await openGame(id);
} else {
  const { soloSetup } = await import("./solo.js");
  await soloSetup(openGame);
}
