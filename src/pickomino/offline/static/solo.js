// The set-up of a solo game in the offline app: you and 1 to 6 bots (the levels the engine
// offers here), the rules and who starts; and below, the games kept in this browser, the last
// one played first, to go on with one or see how it ended, to save one as a file or to delete
// one (a game whose stored record is damaged is kept until then).

import { deleteJSON, getJSON, postJSON } from "./api.js";
import { fill, h } from "./dom.js";
import { downloadLink } from "./files.js";
import { date, list, loadWords, t } from "./i18n.js";
import { notice, setupNotice } from "./notice.js";
import { playerRows } from "./playerrows.js";
import { rulesEditor } from "./ruleseditor.js";
import * as saved from "./storage.js";
import { botLabel } from "./words.js";

const $ = (id) => document.getElementById(id);
const YOU = ""; // the seat kind of the one person

/** Shows the set-up and the list of games in place of the table page's table (hidden, and
 * left as it is); `openGame(id)` opens a game, new or listed, once the set-up has given way
 * to the table again. */
export async function soloSetup(openGame) {
  await loadWords();
  setupNotice();
  document.title = `${t("solo.title")} · ${t("game.name")}`;
  $("game-title").textContent = t("solo.title");
  $("connection").hidden = true;
  $("game").hidden = true;
  let options;
  try {
    options = await getJSON("/api/options");
  } catch (failure) {
    notice(t("keeper.setup_failed", { why: failure.message }));
    return;
  }
  const seats = h("ol", { class: "seats", testid: "solo-seats" });
  const add = h("button", { type: "button", class: "btn small", testid: "solo-add" }, t("setup.add_player"));
  const rules = h("fieldset", { testid: "rules" });
  const start = h("select", { testid: "start-player" });
  const error = h("p", { class: "error", testid: "setup-error", role: "alert", hidden: true });
  const submit = h("button", { class: "btn primary wide", testid: "solo-start" }, t("solo.start"));
  const form = h(
    "form",
    { testid: "solo-form" },
    h("fieldset", {}, h("legend", {}, t("setup.players")), seats, add),
    rules,
    h("label", { class: "field" }, h("span", {}, t("setup.who_starts")), start),
    error,
    submit,
  );
  const games = h("ul", { class: "game-list", testid: "solo-games" });
  const setup = h(
    "main",
    { class: "keeper", testid: "solo-setup" },
    h(
      "div",
      { class: "keeper-setup" },
      h("section", { class: "card" }, h("h2", {}, t("solo.title")), h("p", { class: "muted" }, t("solo.help")), form),
      h("section", { class: "card games" }, h("h2", {}, t("page.mine")), games),
    ),
  );
  $("game").before(setup);

  // The table in this page, its engine up already: no reload (Python would start again).
  // One game per page: a tap on a listed game while a new one is being made opens the one.
  let opened = false;
  async function openHere(id) {
    if (opened) return;
    opened = true;
    history.pushState(null, "", `#${encodeURIComponent(id)}`); // Back comes here again
    setup.remove();
    $("game").hidden = false;
    $("connection").hidden = false;
    await openGame(id);
    $("turn").focus(); // the control it was on is gone
  }

  const players = playerRows({
    list: seats,
    addButton: add,
    start,
    limits: options.players,
    testids: { row: "seat-row", name: "seat-name", remove: "remove-seat" },
    startLabel: (name, number) => name.trim() || t("setup.player", { number }),
    randomFirst: true,
    extra: {
      control: (nameInput, kind) => {
        const select = h(
          "select",
          { testid: "seat-kind" },
          h("option", { value: YOU }, t("solo.you")),
          options.levels.map((level) => h("option", { value: level }, t("newgame.bot", { level: botLabel(level) }))),
        );
        select.value = kind;
        return select;
      },
      label: (number) => t("solo.kind_label", { number }),
    },
  });
  const editor = rulesEditor(rules, options.presets, options.rules);
  const botName = () => t("newgame.bot_name", { number: seats.children.length + 1 });
  add.addEventListener("click", () => players.add(botName(), "medium").focus());
  players.add(saved.lastName(), YOU);
  players.add(botName(), "medium");

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.hidden = true;
    submit.disabled = true;
    try {
      const rows = players.read();
      const game = await postJSON("/api/games", {
        seats: rows.map(({ name, value }) => (value === YOU ? { name } : { name, bot: value })),
        rules: editor.text(),
        start_player: start.value === "random" ? "random" : Number(start.value),
      });
      const you = rows.find(({ value }) => value === YOU);
      if (you) saved.saveName(you.name);
      await openHere(game.id);
    } catch (failure) {
      error.textContent = failure.message;
      error.hidden = players.refusal(failure); // a name used twice is shown at its rows
      submit.disabled = false;
    }
  });

  const kept = await getJSON("/api/games");
  const none = () => h("li", { class: "placeholder" }, t("solo.no_games"));
  // Deleted for good once confirmed; the focus goes to the next game's row (or the list's end).
  const remove = async (game, row) => {
    if (!confirm(t("solo.delete_confirm", { names: game.names ? list(game.names) : game.id }))) return;
    try {
      await deleteJSON(`/api/games/${encodeURIComponent(game.id)}`);
    } catch (failure) {
      notice(failure.message, failure.rule);
      return;
    }
    const next = row.nextElementSibling ?? row.previousElementSibling;
    row.remove();
    if (!games.children.length) games.append(none());
    (next?.querySelector("a") ?? games.firstElementChild).focus?.();
  };
  fill(games, kept.length ? kept.map((game) => gameRow(game, openHere, remove)) : none());
}

// A game as stored: its names and worms from the view stored with it (a record stored
// without one, damaged say, shows its id and opens to say what is wrong).
function gameRow(game, openHere, remove) {
  const status = game.over ? "over" : "playing";
  const names = game.names ?? [];
  const score = names.map((name, n) => `${name} ${game.worms?.[n] ?? "?"}`).join(", ");
  return h(
    "li",
    { class: "game-row", testid: "solo-game", data: { gameId: game.id, status } },
    h(
      "div",
      { class: "game-info" },
      h("p", { class: "who" }, names.length ? list(names) : game.id),
      h(
        "p",
        { class: "muted" },
        [t(game.over ? "keeper.status_over" : "keeper.status_playing"), score, game.updated && date(game.updated, true)]
          .filter(Boolean)
          .join(" · "),
      ),
    ),
    h(
      "div",
      { class: "buttons" },
      h(
        "a",
        {
          class: `btn small${game.over ? "" : " primary"}`,
          href: `#${encodeURIComponent(game.id)}`,
          testid: "open-game",
          on: { click: (event) => plainClick(event) && openHere(game.id) },
        },
        t(game.over ? "keeper.view" : "keeper.resume"),
      ),
      // the record, for `pickomino analyse`, or to go on in the terminal (`pickomino play --resume`)
      downloadLink(
        `/api/games/${encodeURIComponent(game.id)}/record`,
        `pickomino-${game.id}.json`,
        { class: "btn small quiet", testid: "save-game" },
        t("keeper.export"),
      ),
      h(
        "button",
        { type: "button", class: "btn small quiet", testid: "delete-game", on: { click: (event) => remove(game, event.target.closest("li")) } },
        t("solo.delete"),
      ),
    ),
  );
}

// A click that opens the link here (not in a new tab or window): it is opened by the page.
function plainClick(event) {
  if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return false;
  event.preventDefault();
  return true;
}
