// The keeper's set-up screen: a new sheet (2–7 names, the rules, who starts) and, below,
// the sheets this browser created or opened, to resume one, the last one opened first.

import { postJSON } from "./api.js";
import { fill, h } from "./dom.js";
import { playerRows } from "./playerrows.js";
import { rulesEditor } from "./ruleseditor.js";
import { forgetSheet, keptSheets, refreshSheet, sheetApi, sheetLink } from "./sheetlinks.js";
import { plural } from "./words.js";

const $ = (id) => document.getElementById(id);

/** `options` come from /api/options; `names` start the form; `onCreated(view)` follows. */
export function setupSheetForm(options, names, onCreated) {
  const [fewest, most] = options.players;
  const form = $("setup-form");
  const rules = rulesEditor($("rules"), options.presets);
  const players = playerRows({
    list: $("names"),
    addButton: $("add-name"),
    start: form.elements.namedItem("start"),
    limits: options.players,
    testids: { row: "name-row", name: "name-input", remove: "remove-name" },
    startLabel: (name, number) => name.trim() || `Player ${number}`,
  });

  $("add-name").addEventListener("click", () => players.add("").focus());

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const error = $("setup-error");
    const submit = $("create-sheet");
    error.hidden = true;
    submit.disabled = true;
    try {
      const start = form.elements.namedItem("start").value;
      onCreated(
        await postJSON("/api/sheets", {
          names: players.read().map(({ name }) => name),
          rules: rules.text(),
          start_player: start === "random" ? "random" : Number(start),
        }),
      );
    } catch (failure) {
      error.textContent = failure.message;
      error.hidden = players.refusal(failure); // a name used twice is shown at its rows
      submit.disabled = false;
    }
  });

  const first = names.length >= fewest ? names : ["", ""];
  for (const name of first.slice(0, most)) players.add(name);
}

/** Lists the sheets this browser knows, then asks the server how each is now (another
 * phone may have entered turns); a sheet the server no longer has is forgotten. */
export async function listSheets() {
  drawSheets(keptSheets());
  await Promise.all(
    keptSheets().map(async ({ id, key }) => {
      try {
        refreshSheet(id, await sheetApi(id, key).get());
      } catch (failure) {
        if (failure.status === 404) forgetSheet(id);
      }
    }),
  );
  drawSheets(keptSheets());
}

function drawSheets(sheets) {
  fill(
    $("sheets"),
    sheets.length
      ? sheets.map(sheetRow)
      : h("li", { class: "placeholder" }, "No score sheet on this browser yet: a sheet opened by its link is listed here."),
  );
  const last = sheets[0] && !sheets[0].over ? sheets[0] : null; // the one opened last
  const box = $("resume-last");
  box.hidden = !last;
  if (last)
    fill(
      box,
      h("div", { class: "game-info" }, h("h2", {}, "Go on with your game"), h("p", {}, sheetWords(last))),
      h("a", { class: "btn primary", href: sheetLink(last.id, last.key), testid: "resume-last-link" }, "Resume"),
    );
}

const sheetWords = (sheet) => `${sheet.names.join(", ")} · ${plural(sheet.count, "turn")} entered`;

function sheetRow(sheet) {
  const when = sheet.opened
    ? `opened ${new Date(sheet.opened).toLocaleString([], { dateStyle: "short", timeStyle: "short" })}`
    : null;
  const status = sheet.over ? "over" : "playing";
  return h(
    "li",
    { class: "game-row", testid: "sheet-row", data: { sheetId: sheet.id, status } },
    h(
      "div",
      { class: "game-info" },
      h("p", { class: "who" }, sheet.names.join(", ")),
      h("p", { class: "muted" }, [status, plural(sheet.count, "turn"), when].filter(Boolean).join(" · ")),
    ),
    h(
      "a",
      { class: `btn small${sheet.over ? "" : " primary"}`, href: sheetLink(sheet.id, sheet.key), testid: "open-sheet" },
      sheet.over ? "View" : "Resume",
    ),
  );
}
