// The lobby's "New game" form: 2–7 seats (a person's name or a bot level), the rules as a
// preset or single options, and who starts. After creating, it shows the invite links.

import { postJSON } from "./api.js";
import { fill, h } from "./dom.js";
import { inviteList } from "./invites.js";
import { playerRows } from "./playerrows.js";
import { rulesEditor } from "./ruleseditor.js";
import * as saved from "./storage.js";

const $ = (id) => document.getElementById(id);

/** `options` come from /api/options; `onCreated()` runs after each new game. */
export function setupNewGame(options, onCreated) {
  const levels = Object.keys(options.difficulties);
  const form = $("create-form");
  const seats = $("seats");
  const rules = rulesEditor($("rules"), options.presets);
  const players = playerRows({
    list: seats,
    addButton: $("add-seat"),
    start: $("start"),
    limits: options.players,
    testids: { row: "seat-row", name: "seat-name", remove: "remove-seat" },
    startLabel: (name, number) => (name.trim() ? `Player ${number}: ${name.trim()}` : `Player ${number}`),
    randomFirst: true,
    extra: { control: kindSelect, label: (number) => `player ${number} is a person or a bot` },
  });

  // Each seat is a person or a bot of some level (`bot`, null for a person).
  function kindSelect(nameInput, bot) {
    const kind = h(
      "select",
      { testid: "seat-kind", on: { change: () => kindChanged(nameInput, kind) } },
      h("option", { value: "" }, "Person"),
      levels.map((level) => h("option", { value: level }, `Bot: ${level}`)),
    );
    kind.value = bot ?? "";
    return kind;
  }

  // A new bot needs a name too: give it one unless the person already typed one.
  function kindChanged(nameInput, kind) {
    const row = nameInput.closest("li");
    const number = [...seats.children].indexOf(row) + 1;
    if (kind.value && !nameInput.value.trim()) nameInput.value = `Bot ${number}`;
    if (!kind.value && /^Bot \d+$/.test(nameInput.value)) {
      nameInput.value = "";
      nameInput.focus();
    }
    players.refresh();
  }

  $("add-seat").addEventListener("click", () => players.add(`Bot ${seats.children.length + 1}`, "medium"));

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const error = $("form-error");
    const submit = form.querySelector("[data-testid=create-game]");
    error.hidden = true;
    submit.disabled = true;
    try {
      const start = $("start").value;
      const game = await postJSON("/api/games", {
        seats: players.read().map(({ name, value: bot }) => ({ name, ...(bot ? { bot } : {}) })),
        rules: rules.text(),
        start_player: start === "random" ? "random" : Number(start),
      });
      const people = game.seats.filter((seat) => seat.link);
      saved.saveInvites(game.id, people);
      if (people.length) saved.saveName(people[0].name);
      showCreated(game, people);
      onCreated();
    } catch (failure) {
      error.textContent = failure.message;
      error.hidden = players.refusal(failure); // a name used twice is shown at its rows
    } finally {
      submit.disabled = false;
    }
  });

  players.add(saved.lastName(), null);
  players.add("Bot 2", "medium");
}

function showCreated(game, people) {
  const form = $("create-form");
  const panel = $("created");
  const again = h("button", { type: "button", class: "btn quiet" }, "Create another game");
  again.addEventListener("click", () => {
    panel.hidden = true;
    form.hidden = false;
  });
  fill(
    panel,
    h("h3", {}, "Your game is ready"),
    h(
      "p",
      {},
      people.length > 1
        ? "Send every person their own link: it is their seat at the table, so keep yours to yourself. The game starts when all have opened theirs."
        : "The game starts when you take your seat.",
    ),
    inviteList(game.seats),
    h(
      "div",
      { class: "buttons" },
      people.length
        ? h(
            "a",
            { class: "btn primary", href: people[0].link, testid: "take-seat" },
            `Take my seat (${people[0].name})`,
          )
        : h("a", { class: "btn primary", href: game.url, testid: "watch-created" }, "Watch the bots play"),
      again,
    ),
  );
  form.hidden = true;
  panel.hidden = false;
}

