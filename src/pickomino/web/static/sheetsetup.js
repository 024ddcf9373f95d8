// The keeper's set-up screen: a new sheet (2–7 names, the rules, who starts) and, below,
// the sheets kept on this server to resume one, the last one opened here first.

import { getJSON, postJSON } from "./api.js";
import { fill, h } from "./dom.js";
import { playerRows } from "./playerrows.js";
import { rulesEditor } from "./ruleseditor.js";
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

/** Lists the server's sheets; the one last opened here (`lastId`) is offered on top too. */
export async function listSheets(lastId) {
  const list = $("sheets");
  let sheets;
  try {
    sheets = await getJSON("/api/sheets");
  } catch (failure) {
    fill(list, h("li", { class: "error" }, `The sheets could not be loaded: ${failure.message}`));
    return;
  }
  fill(list, sheets.length ? sheets.map(sheetRow) : h("li", { class: "placeholder" }, "No score sheet yet."));
  const last = sheets.find((sheet) => sheet.id === lastId && sheet.status === "playing");
  const box = $("resume-last");
  box.hidden = !last;
  if (last)
    fill(
      box,
      h("div", { class: "game-info" }, h("h2", {}, "Go on with your game"), h("p", {}, sheetWords(last))),
      h("a", { class: "btn primary", href: sheetUrl(last), testid: "resume-last-link" }, "Resume"),
    );
}

const sheetUrl = (sheet) => `/keeper/${encodeURIComponent(sheet.id)}`;
const sheetWords = (sheet) => `${sheet.names.join(", ")} · ${plural(sheet.entries, "turn")} entered`;

function sheetRow(sheet) {
  const playing = sheet.status === "playing";
  const when = new Date(sheet.updated * 1000).toLocaleString([], { dateStyle: "short", timeStyle: "short" });
  return h(
    "li",
    { class: "game-row", testid: "sheet-row", data: { sheetId: sheet.id, status: sheet.status } },
    h(
      "div",
      { class: "game-info" },
      h("p", { class: "who" }, sheet.names.join(", ")),
      h("p", { class: "muted" }, [sheet.status, plural(sheet.entries, "turn"), when].join(" · ")),
    ),
    h(
      "a",
      { class: `btn small${playing ? " primary" : ""}`, href: sheetUrl(sheet), testid: "open-sheet" },
      playing ? "Resume" : "View",
    ),
  );
}
