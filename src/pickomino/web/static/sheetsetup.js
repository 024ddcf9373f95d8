// The keeper's set-up screen: a new sheet (2–7 names, the rules, who starts) and, below,
// the sheets kept on this server to resume one, the last one opened here first.

import { getJSON, postJSON } from "./api.js";
import { fill, h } from "./dom.js";
import { rulesEditor } from "./ruleseditor.js";
import { plural } from "./words.js";

const $ = (id) => document.getElementById(id);

/** `options` come from /api/options; `names` start the form; `onCreated(view)` follows. */
export function setupSheetForm(options, names, onCreated) {
  const [fewest, most] = options.players;
  const form = $("setup-form");
  const rows = $("names");
  const rules = rulesEditor($("rules"), options.presets);

  function nameRow(name) {
    const row = h(
      "li",
      { class: "name-row", testid: "name-row" },
      h("span", { class: "seat-number" }),
      h("input", {
        class: "name",
        testid: "name-input",
        value: name,
        maxlength: 24,
        required: true,
        autocomplete: "off",
        placeholder: "name",
        on: { input: refresh },
      }),
      h("button", { type: "button", class: "btn small quiet", testid: "remove-name" }, "×"),
    );
    row.lastChild.addEventListener("click", () => {
      row.remove();
      refresh();
    });
    return row;
  }

  // Seat numbers, the add/remove limits and the "who starts" choices follow the rows.
  function refresh() {
    const all = [...rows.children];
    all.forEach((row, n) => {
      row.className = `name-row seat-${n}`;
      row.querySelector(".seat-number").textContent = String(n + 1);
      row.querySelector("input").setAttribute("aria-label", `name of player ${n + 1}`);
      const remove = row.querySelector("button");
      remove.disabled = all.length <= fewest;
      remove.setAttribute("aria-label", `remove player ${n + 1}`);
    });
    $("add-name").disabled = all.length >= most;
    const start = form.elements.namedItem("start");
    const chosen = start.value;
    fill(
      start,
      all.map((row, n) =>
        h("option", { value: n }, row.querySelector("input").value.trim() || `Player ${n + 1}`),
      ),
      h("option", { value: "random" }, "Random"),
    );
    start.value = [...start.options].some((o) => o.value === chosen) ? chosen : "0";
  }

  $("add-name").addEventListener("click", () => {
    rows.append(nameRow(""));
    refresh();
    rows.lastChild.querySelector("input").focus();
  });

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
          names: [...rows.querySelectorAll("input")].map((input) => input.value.trim()),
          rules: rules.text(),
          start_player: start === "random" ? "random" : Number(start),
        }),
      );
    } catch (failure) {
      error.textContent = failure.message;
      error.hidden = false;
      submit.disabled = false;
    }
  });

  const first = names.length >= fewest ? names : ["", ""];
  rows.append(...first.slice(0, most).map(nameRow));
  refresh();
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
