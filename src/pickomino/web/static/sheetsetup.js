// The keeper's set-up screen: a new sheet (2–7 names, the rules, who starts) and, below,
// the sheets this browser created or opened, to resume one, the last one opened first.

import { postJSON } from "./api.js";
import { fill, h, whileSending } from "./dom.js";
import { onJSONFile } from "./files.js";
import { date, list, t } from "./i18n.js";
import { playerRows } from "./playerrows.js";
import { rulesEditor } from "./ruleseditor.js";
import { forgetSheet, keptSheets, refreshSheet, sheetApi, sheetLink } from "./sheetlinks.js";

const $ = (id) => document.getElementById(id);

/** `options` come from /api/options; `names` start the form; `onCreated(view)` follows. */
export function setupSheetForm(options, names, onCreated) {
  const [fewest, most] = options.players;
  const form = $("setup-form");
  const rules = rulesEditor($("rules"), options.presets, options.rules);
  const players = playerRows({
    list: $("names"),
    addButton: $("add-name"),
    start: form.elements.namedItem("start"),
    limits: options.players,
    testids: { row: "name-row", name: "name-input", remove: "remove-name" },
    startLabel: (name, number) => name.trim() || t("setup.player", { number }),
  });

  $("add-name").addEventListener("click", () => players.add("").focus());

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const error = $("setup-error");
    await whileSending($("create-sheet"), async () => {
      error.hidden = true;
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
        error.hidden = players.refusal(failure); // a name's problem is shown at its row
      }
    });
  });

  const first = names.length >= fewest ? names : ["", ""];
  for (const name of first.slice(0, most)) players.add(name);
  $("create-sheet").disabled = false; // disabled in the page until the form works
}

/** "Open a sheet file": a sheet saved as a file goes on as a new sheet (on the server, or in
 * this browser offline), opened at once; `onCreated(view)` follows. */
export function setupImport(onCreated) {
  const error = $("import-error");
  const say = (text) => {
    error.textContent = text;
    error.hidden = !text;
  };
  onJSONFile($("import-file"), {
    notJSON: (file) => say(t("keeper.import_not_json", { file: file.name })),
    onRecord: async (record) => {
      say("");
      try {
        onCreated(await postJSON("/api/sheets/import", record));
      } catch (failure) {
        say(failure.message);
      }
    },
  });
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
      : h("li", { class: "placeholder" }, t("keeper.no_sheets")),
  );
  const last = sheets[0] && !sheets[0].over ? sheets[0] : null; // the one opened last
  const box = $("resume-last");
  box.hidden = !last;
  if (last)
    fill(
      box,
      h("div", { class: "game-info" }, h("h2", {}, t("keeper.resume_title")), h("p", {}, sheetWords(last))),
      h(
        "a",
        { class: "btn primary", href: sheetLink(last.id, last.key), testid: "resume-last-link" },
        t("keeper.resume"),
      ),
    );
}

const sheetWords = (sheet) => `${list(sheet.names)} · ${t("keeper.entered", { count: sheet.count })}`;

function sheetRow(sheet) {
  const when = sheet.opened ? t("keeper.opened", { when: date(sheet.opened, true) }) : null;
  const status = sheet.over ? "over" : "playing";
  return h(
    "li",
    { class: "game-row", testid: "sheet-row", data: { sheetId: sheet.id, status } },
    h(
      "div",
      { class: "game-info" },
      h("p", { class: "who" }, list(sheet.names)),
      h(
        "p",
        { class: "muted" },
        [t(sheet.over ? "keeper.status_over" : "keeper.status_playing"), t("turns", { count: sheet.count }), when]
          .filter(Boolean)
          .join(" · "),
      ),
    ),
    h(
      "a",
      { class: `btn small${sheet.over ? "" : " primary"}`, href: sheetLink(sheet.id, sheet.key), testid: "open-sheet" },
      t(sheet.over ? "keeper.view" : "keeper.resume"),
    ),
  );
}
