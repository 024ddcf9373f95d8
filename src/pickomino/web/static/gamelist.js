// The lobby's list of games: open ones (Join when a seat is open to anyone, and Watch), games
// in progress (Watch) and finished ones (Replay), abandoned ones among them. Refreshed every
// few seconds while the page is visible.

import { getJSON, postJSON } from "./api.js";
import { h, refillWhenChanged } from "./dom.js";
import { ago, date, list, t } from "./i18n.js";
import { playsAsProfile, profile, profileHeaders } from "./profilekey.js";
import * as saved from "./storage.js";
import { controlText } from "./clock.js";
import { botLabel, presetLabel, presetName } from "./words.js";

const $ = (id) => document.getElementById(id);
const REFRESH_MS = 10000;
// What each list says when it is empty.
const EMPTY = {
  open: "games.none_open",
  playing: "games.none_playing",
  over: "games.none_over",
};

/** Returns `load()`, which refreshes the list now. */
export function setupGameList(presets) {
  const join = joinDialog();

  async function load() {
    const error = $("games-error");
    try {
      const games = await getJSON("/api/games");
      error.hidden = true;
      for (const status of Object.keys(EMPTY)) {
        const listed = games.filter((g) => listOf(g) === status);
        refillWhenChanged($(`games-${status}`), drawnFrom(listed), () =>
          listed.length ? listed.map((g) => gameRow(g, presets, join)) : h("li", { class: "placeholder" }, t(EMPTY[status])),
        );
      }
    } catch (failure) {
      error.textContent = t("games.load_failed", { why: failure.message });
      error.hidden = false;
    }
  }

  $("refresh").addEventListener("click", load);
  setInterval(() => document.hidden || load(), REFRESH_MS);
  load();
  return load;
}

/** What a list of games is drawn from: the games, and how long ago each changed as it reads. */
export const drawnFrom = (games) => JSON.stringify(games.map((game) => [game, when(game.updated)]));

// An abandoned game is listed with the finished ones: it can only be replayed.
const listOf = (game) => (game.status === "abandoned" ? "over" : game.status);

function gameRow(game, presets, join) {
  const url = `/games/${encodeURIComponent(game.id)}`;
  // Only the open seats can be taken here; the others wait for their invite links.
  const free = game.seats.filter((seat) => seat.open && !seat.claimed).length;
  const buttons = {
    open: [
      free
        ? h(
            "button",
            { type: "button", class: "btn small primary", testid: "join-game", on: { click: () => join(game) } },
            t("games.join"),
          )
        : null,
      h("a", { class: `btn small${free ? " quiet" : ""}`, href: url, testid: "watch-game" }, t("games.watch")),
    ],
    playing: [h("a", { class: "btn small", href: url, testid: "watch-game" }, t("games.watch"))],
    over: [h("a", { class: "btn small", href: `${url}?replay=1`, testid: "replay-game" }, t("games.replay"))],
  }[listOf(game)];
  return h(
    "li",
    { class: "game-row", testid: "game-row", data: { gameId: game.id, status: game.status } },
    h(
      "div",
      { class: "game-info" },
      h(
        "p",
        { class: "who" },
        game.seats.map((seat, n) => [
          n ? ", " : "",
          seat.name,
          seat.bot ? h("small", {}, " ", t("games.seat_bot", { level: botLabel(seat.bot) })) : null,
          seat.open && !seat.claimed ? h("small", {}, " ", t("games.seat_open")) : null,
        ]),
      ),
      h(
        "p",
        { class: "muted" },
        [
          presetLabel(presetName(game.rules, presets)),
          game.clock ? t("games.clock", { clock: controlText(game.clock) }) : null,
          game.status === "open"
            ? t(free ? "games.open_seats" : "games.invited_only", { count: free })
            : turns(game),
          when(game.updated),
        ]
          .filter(Boolean)
          .join(" · "),
      ),
      game.ranking ? h("p", { class: "muted", testid: "game-result" }, result(game)) : null,
      game.status === "abandoned" ? h("p", { class: "muted", testid: "game-result" }, abandoned(game)) : null,
    ),
    h("div", { class: "buttons" }, buttons),
  );
}

/** Why an abandoned game ended: nobody played on, or it reached the server's turn limit. */
export function abandoned(game) {
  return game.stopped_after != null ? t("games.stopped", { count: game.stopped_after }) : t("games.abandoned");
}

// "turn 12" while played (or when abandoned), "40 turns" once over; unknown for a game stored
// by an older version that has not moved since, or stopped at the turn limit.
function turns(game) {
  if (game.turns == null || game.stopped_after != null) return null; // its result line says it
  return game.status === "over" ? t("turns", { count: game.turns }) : t("games.turn", { turn: game.turns });
}

// Who won, with how many worms: "Ann won with 12 worms", or the players who shared the win.
export function result(game) {
  const names = game.seats.map((seat) => seat.name);
  const winners = game.ranking.filter((standing) => standing.rank === 1);
  const worms = t("worms", { count: winners[0].worms });
  if (winners.length === 1) return t("games.winner", { name: names[winners[0].seat], worms });
  return t("games.shared", { names: list(winners.map((standing) => names[standing.seat])), worms });
}

export function when(seconds) {
  const minutes = Math.round((Date.now() / 1000 - seconds) / 60);
  if (minutes < 1) return t("games.just_now");
  if (minutes < 60) return ago(minutes, "minute");
  if (minutes < 60 * 24) return ago(Math.round(minutes / 60), "hour");
  return date(seconds * 1000);
}

// One dialog for every Join button: ask a name, take the first open seat, go to the table.
function joinDialog() {
  const dialog = $("join-dialog");
  const name = $("join-name");
  const error = $("join-error");
  let game = null;
  let opener = null; // what had the focus when the dialog opened (its Join button)
  $("join-cancel").addEventListener("click", () => dialog.close());
  dialog.addEventListener("close", () => {
    // the list may have been drawn anew meanwhile: back to this game's Join, not the body
    if (opener?.isConnected) return;
    const row = [...document.querySelectorAll("[data-game-id]")].find((r) => r.dataset.gameId === game.id);
    (row?.querySelector("[data-testid=join-game]") ?? $("refresh")).focus();
  });
  $("join-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    error.hidden = true;
    try {
      const seat = await postJSON(
        `/api/games/${encodeURIComponent(game.id)}/join`,
        { name: name.value.trim() },
        profileHeaders(), // as the profile, if this browser plays as one: its name then
      );
      if (!playsAsProfile()) saved.saveName(seat.name);
      location.href = saved.seatAddress(seat.link);
    } catch (failure) {
      error.textContent = failure.message;
      error.hidden = false;
    }
  });
  return (chosen) => {
    game = chosen;
    opener = document.activeElement;
    error.hidden = true;
    name.value = playsAsProfile() ? profile().name : saved.lastName();
    dialog.showModal();
  };
}
