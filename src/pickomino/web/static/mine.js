// "My games", /mine: the games this browser holds a seat in (the seat tokens it keeps, see
// storage.js), your turn first, then those waiting for somebody else, then the finished ones.
// The server says whose turn it is (POST /api/mine, the tokens in the body, never in the
// address). The page asks again every 15 s while it is visible, and at once when it is shown
// again: one small request for all the games, where a WebSocket per game would hold as many
// connections (and get every move of every game) for a list that changes once a turn.

import { postJSON } from "./api.js";
import { h, refillWhenChanged } from "./dom.js";
import { abandoned, drawnFrom, result, when } from "./gamelist.js";
import { list, loadWords, t } from "./i18n.js";
import * as saved from "./storage.js";

const $ = (id) => document.getElementById(id);
const REFRESH_MS = 15000;
const MOST_SEATS = 100; // what the server takes in one request
const GROUPS = { turn: "mine.none_turn", waiting: "mine.none_waiting", over: "mine.none_over" };

await loadWords();
document.title = t("mine.page_title", { game: t("game.name") });
setInterval(() => document.hidden || load(), REFRESH_MS);
document.addEventListener("visibilitychange", () => document.hidden || load());
load();

async function load() {
  try {
    const games = await postJSON("/api/mine", { seats: saved.heldSeats().slice(0, MOST_SEATS) });
    $("mine-error").hidden = true;
    for (const group of Object.keys(GROUPS)) {
      const listed = games.filter((game) => groupOf(game) === group);
      refillWhenChanged($(`mine-${group}`), drawnFrom(listed), () =>
        listed.length ? listed.map(gameRow) : h("li", { class: "placeholder" }, t(GROUPS[group])),
      );
    }
    const yours = games.filter((game) => game.your_turn).length;
    const title = t("mine.page_title", { game: t("game.name") });
    document.title = yours ? t("mine.title_turns", { count: yours, title }) : title;
  } catch (failure) {
    $("mine-error").textContent = t("mine.failed", { why: failure.message });
    $("mine-error").hidden = false;
  }
}

function groupOf(game) {
  if (game.your_turn) return "turn";
  return game.status === "open" || game.status === "playing" ? "waiting" : "over";
}

function gameRow(game) {
  const names = game.seats.map((seat) => seat.name);
  return h(
    "li",
    { class: "game-row", testid: "mine-row", data: { gameId: game.id, yourTurn: game.your_turn, status: game.status } },
    h(
      "div",
      { class: "game-info" },
      h("p", { class: "who" }, list(names)),
      h("p", { class: "muted" }, [state(game, names), when(game.updated)].join(" · ")),
    ),
    h(
      "div",
      { class: "buttons" },
      h("a", { class: "btn small", href: `/games/${encodeURIComponent(game.id)}`, testid: "mine-open" }, t(game.your_turn ? "mine.play" : "mine.open")),
    ),
  );
}

// Whose turn it is, what the game waits for, or how it ended.
function state(game, names) {
  if (game.your_turn) return t("mine.turn_yours");
  if (game.to_move != null) return t("mine.turn_of", { name: names[game.to_move] });
  if (game.status === "open") return t("mine.waiting_people");
  if (game.status === "over" && game.ranking) return result(game);
  return abandoned(game);
}
