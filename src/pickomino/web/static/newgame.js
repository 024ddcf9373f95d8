// The lobby's "New game" form: 2–7 seats (a person's name or a bot level), the rules as a
// preset or single options, and who starts. After creating, it shows the invite links.

import { postJSON } from "./api.js";
import { fill, h } from "./dom.js";
import { inviteList } from "./invites.js";
import { rulesEditor } from "./ruleseditor.js";
import * as saved from "./storage.js";

const $ = (id) => document.getElementById(id);

/** `options` come from /api/options; `onCreated()` runs after each new game. */
export function setupNewGame(options, onCreated) {
  const [fewest, most] = options.players;
  const levels = Object.keys(options.difficulties);
  const form = $("create-form");
  const seats = $("seats");
  const rules = rulesEditor($("rules"), options.presets);

  function seatRow(name, bot) {
    const nameInput = h("input", {
      class: "name",
      testid: "seat-name",
      value: name,
      maxlength: 24,
      required: true,
      autocomplete: "off",
      placeholder: "name",
      on: { input: refresh },
    });
    const kind = h(
      "select",
      { testid: "seat-kind", on: { change: () => kindChanged(nameInput, kind) } },
      h("option", { value: "" }, "Person"),
      levels.map((level) => h("option", { value: level }, `Bot: ${level}`)),
    );
    kind.value = bot ?? "";
    const remove = h("button", { type: "button", class: "btn small quiet", testid: "remove-seat" }, "×");
    const row = h(
      "li",
      { class: "seat-row", testid: "seat-row" },
      h("span", { class: "seat-number" }),
      nameInput,
      kind,
      remove,
    );
    remove.addEventListener("click", () => {
      row.remove();
      refresh();
    });
    return row;
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
    refresh();
  }

  // Seat numbers, the add/remove limits and the "who starts" choices follow the seats.
  function refresh() {
    const rows = [...seats.children];
    rows.forEach((row, n) => {
      row.className = `seat-row seat-${n}`;
      row.querySelector(".seat-number").textContent = String(n + 1);
      row.querySelector(".name").setAttribute("aria-label", `name of player ${n + 1}`);
      row.querySelector("select").setAttribute("aria-label", `player ${n + 1} is a person or a bot`);
      row.querySelector("[data-testid=remove-seat]").disabled = rows.length <= fewest;
      row.querySelector("[data-testid=remove-seat]").setAttribute("aria-label", `remove player ${n + 1}`);
    });
    $("add-seat").disabled = rows.length >= most;
    const start = $("start");
    const chosen = start.value;
    fill(
      start,
      h("option", { value: "random" }, "Random"),
      rows.map((row, n) =>
        h("option", { value: n }, `Player ${n + 1}: ${row.querySelector(".name").value || "?"}`),
      ),
    );
    start.value = [...start.options].some((o) => o.value === chosen) ? chosen : "0";
  }

  $("add-seat").addEventListener("click", () => {
    const number = seats.children.length + 1;
    seats.append(seatRow(`Bot ${number}`, "medium"));
    refresh();
  });

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const error = $("form-error");
    const submit = form.querySelector("[data-testid=create-game]");
    error.hidden = true;
    submit.disabled = true;
    try {
      const start = $("start").value;
      const game = await postJSON("/api/games", {
        seats: [...seats.children].map((row) => {
          const bot = row.querySelector("select").value;
          return { name: row.querySelector(".name").value.trim(), ...(bot ? { bot } : {}) };
        }),
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
      error.hidden = false;
    } finally {
      submit.disabled = false;
    }
  });

  seats.append(seatRow(saved.lastName(), null), seatRow("Bot 2", "medium"));
  refresh();
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

