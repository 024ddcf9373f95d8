// For the game's creator while the game waits: each person's seat nobody has taken can go to
// a bot, or be opened to anyone in the lobby (its invite link then stops working), and the
// game can be called off (after a confirmation). The server checks that this browser holds
// the creator's seat, that the seat is still free and that the game still waits.

import { getJSON, postJSON } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { botLabel } from "./words.js";

let levels = null; // the bot levels, from /api/options, asked for once

/** The controls for the free seats of `state` (null when there are none). */
export function absentSeats(gameId, state, token) {
  const free = state.seats.map((seat, n) => ({ ...seat, n })).filter((seat) => !seat.bot && !seat.claimed);
  if (!free.length || !token) return null;
  const error = h("p", { class: "error", testid: "remove-error", role: "alert", hidden: true });
  const names = new Set(state.seats.map((seat) => seat.name.trim().toLowerCase()));
  // The seat's new name: a bot's or a guest's, unless another seat has it already.
  const renamed = (key, n) => {
    const name = t(key, { number: n + 1 });
    return names.has(name.toLowerCase()) ? {} : { name };
  };

  async function ask(action, body) {
    error.hidden = true;
    try {
      await postJSON(`/api/games/${encodeURIComponent(gameId)}/${action}`, body, { "Seat-Token": token });
    } catch (failure) {
      error.textContent = failure.message;
      error.hidden = false;
    }
  }

  const remove = (seat, bot) =>
    ask("remove", { seat: seat.n, bot, ...renamed(bot ? "newgame.bot_name" : "newgame.guest_name", seat.n) });
  const callOff = () => confirm(t("moderation.cancel_confirm")) && ask("cancel", {});

  function row(seat) {
    const level = h("select", { testid: "bot-level", "aria-label": t("moderation.level_label", { name: seat.name }) });
    levels ??= getJSON("/api/options").then((options) => Object.keys(options.difficulties));
    levels.then((names) => {
      level.replaceChildren(...names.map((name) => h("option", { value: name }, botLabel(name))));
      level.value = names.includes("medium") ? "medium" : names[0];
    });
    return h(
      "li",
      { class: "absent", testid: "absent-seat", data: { seat: seat.n } },
      h("span", { class: `invite-name seat-${seat.n}` }, h("span", { class: "swatch" }), seat.name),
      h(
        "span",
        { class: "buttons" },
        level,
        h("button", { type: "button", class: "btn small", testid: "give-to-bot", on: { click: () => remove(seat, level.value) } }, t("moderation.to_bot")),
        seat.open
          ? null
          : h("button", { type: "button", class: "btn small quiet", testid: "reopen-seat", on: { click: () => remove(seat, null) } }, t("moderation.reopen")),
      ),
    );
  }

  return h(
    "div",
    { class: "moderation", testid: "moderation" },
    h("h3", {}, t("moderation.title")),
    h("p", { class: "muted" }, t("moderation.explain")),
    h("ul", { class: "invites" }, free.map(row)),
    h(
      "p",
      { class: "buttons" },
      h("button", { type: "button", class: "btn small quiet", testid: "cancel-game", on: { click: callOff } }, t("moderation.cancel")),
    ),
    error,
  );
}
