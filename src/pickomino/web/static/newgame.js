// The lobby's "New game" form: 2–7 seats (a person invited by a secret link, a person's open
// seat that anyone may take from the lobby, or a bot level), the rules as a preset or single
// options, who starts, the clock (none, or one the server offers) and the bot that plays for
// a person who is away or out of time. The first invited person is the creator, seated at
// once. After creating, it shows the invite links.

import { postJSON } from "./api.js";
import { controlText } from "./clock.js";
import { fill, h, whileSending } from "./dom.js";
import { t } from "./i18n.js";
import { inviteList } from "./invites.js";
import { playerRows } from "./playerrows.js";
import { playsAsProfile, profile, profileHeaders } from "./profilekey.js";
import { rulesEditor } from "./ruleseditor.js";
import * as saved from "./storage.js";
import { botLabel } from "./words.js";

const $ = (id) => document.getElementById(id);
const INVITED = ""; // a seat kind: a person with their own secret link
const OPEN = "open"; // a person's seat anyone may take from the lobby
// The name row `n` gets when it becomes a bot or an open seat with no name typed.
const botName = (n) => t("newgame.bot_name", { number: n });
const guestName = (n) => t("newgame.guest_name", { number: n });

/** `options` come from /api/options; `onCreated()` runs after each new game. */
export function setupNewGame(options, onCreated) {
  const levels = Object.keys(options.difficulties);
  const form = $("create-form");
  const seats = $("seats");
  const rules = rulesEditor($("rules"), options.presets, options.rules);
  const players = playerRows({
    list: seats,
    addButton: $("add-seat"),
    start: $("start"),
    limits: options.players,
    testids: { row: "seat-row", name: "seat-name", remove: "remove-seat" },
    startLabel: (name, number) =>
      name.trim() ? t("setup.player_named", { number, name: name.trim() }) : t("setup.player", { number }),
    randomFirst: true,
    extra: { control: kindSelect, label: (number) => t("newgame.kind_label", { number }) },
  });

  // Each seat is an invited person, an open seat or a bot of some level.
  function kindSelect(nameInput, kind) {
    const select = h(
      "select",
      { testid: "seat-kind", on: { change: () => kindChanged(nameInput, select) } },
      h("option", { value: INVITED }, t("newgame.invited")),
      h("option", { value: OPEN }, t("newgame.open")),
      levels.map((level) => h("option", { value: level }, t("newgame.bot", { level: botLabel(level) }))),
    );
    select.value = kind ?? INVITED;
    nameInput.addEventListener("input", () => delete nameInput.dataset.auto); // typed: keep it
    return select;
  }

  // A bot or an open seat needs a name too: give it one unless one was typed. A name given
  // that way goes again when the row becomes a person, who types their own; a typed name stays.
  function kindChanged(nameInput, select) {
    const number = [...seats.children].indexOf(nameInput.closest("li")) + 1;
    const auto = select.value === OPEN ? guestName : select.value ? botName : null;
    if (nameInput.dataset.auto || !nameInput.value.trim()) {
      nameInput.value = auto ? auto(number) : "";
      if (auto) nameInput.dataset.auto = "true";
      else delete nameInput.dataset.auto;
    }
    players.refresh(); // the focus stays on the list: its arrow keys go on choosing there
  }

  const clocks = $("clock");
  fill(
    clocks,
    h("option", { value: "" }, t("setup.clock_none")),
    options.clocks.map((clock, n) => h("option", { value: String(n) }, controlText(clock))),
  );
  const takeover = $("takeover");
  fill(takeover, levels.map((level) => h("option", { value: level }, botLabel(level))));
  takeover.value = options.takeover;

  // A new row is a person to type the name of.
  $("add-seat").addEventListener("click", () => players.add("", INVITED).focus());

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const error = $("form-error");
    const submit = form.querySelector("[data-testid=create-game]");
    await whileSending(submit, async () => {
      error.hidden = true;
      try {
        const start = $("start").value;
        const rows = players.read();
        // The creator (the first invited person) plays as this browser's profile, if it has one.
        const asProfile = rows.some(({ value }) => value === INVITED) ? profileHeaders() : {};
        const game = await postJSON(
          "/api/games",
          {
            seats: rows.map(({ name, value }) => ({
              name,
              ...(value === OPEN ? { open: true } : value ? { bot: value } : {}),
            })),
            rules: rules.text(),
            start_player: start === "random" ? "random" : Number(start),
            rated: $("rated").checked,
            clock: clocks.value === "" ? null : options.clocks[Number(clocks.value)],
            takeover: takeover.value,
          },
          asProfile,
        );
        const people = game.seats.filter((seat) => seat.link);
        saved.saveInvites(game.id, people);
        if (people.length && !asProfile["Profile-Key"]) saved.saveName(people[0].name);
        showCreated(game, people);
        onCreated();
      } catch (failure) {
        error.textContent = failure.message;
        error.hidden = players.refusal(failure); // a name's problem is shown at its row
      }
    });
  });

  players.add(playsAsProfile() ? profile().name : saved.lastName(), INVITED);
  players.add(botName(2), "medium").dataset.auto = "true";
  // Disabled in the page until now: a click before the options came would do nothing.
  form.querySelector("[data-testid=create-game]").disabled = false;
}

function showCreated(game, people) {
  const form = $("create-form");
  const panel = $("created");
  const again = h("button", { type: "button", class: "btn quiet" }, t("created.again"));
  again.addEventListener("click", () => {
    panel.hidden = true;
    form.hidden = false;
    form.querySelector("input")?.focus(); // the panel and its button are gone
  });
  const open = game.seats.filter((seat) => seat.open).length;
  fill(
    panel,
    h("h3", { tabindex: "-1" }, t("created.title")),
    h(
      "p",
      {},
      [
        people.length > 1 ? t("created.send_links") : null,
        open ? t("created.open_seats", { count: open }) : null,
        people.length > 1 || open ? t("created.starts_when_taken") : t("created.seated"),
      ]
        .filter(Boolean)
        .join(" "),
    ),
    inviteList(game.seats, (n) => n === people[0]?.seat),
    h(
      "div",
      { class: "buttons" },
      people.length
        ? h(
            "a",
            { class: "btn primary", href: saved.seatAddress(people[0].link), testid: "take-seat" },
            t("created.go_to_seat", { name: people[0].name }),
          )
        : h(
            "a",
            { class: "btn primary", href: game.url, testid: "watch-created" },
            t(open ? "created.watch" : "created.watch_bots"),
          ),
      again,
    ),
  );
  form.hidden = true;
  panel.hidden = false;
  panel.querySelector("h3").focus(); // the form (and its button) is gone: the focus comes here
}

