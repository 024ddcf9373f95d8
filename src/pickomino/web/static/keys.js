// The keyboard: one key for each move of the page (R rolls, 4 keeps the fours …) and a help
// dialog that lists them in the reader's language, opened with "?" or its button, with the
// setting of how much the announcements say (announce.js). A key does nothing while a field
// takes typing, with Ctrl, Alt or Meta held (the browser's own shortcuts), or under a dialog;
// and none does once they are turned off in the help (a stray key or a dictated "r" would
// roll: WCAG 2.1.4), remembered by the browser.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { announceMode, saveAnnounceMode, saveSingleKeys, singleKeys } from "./storage.js";

// Keys that move through any page, listed after the page's own.
const EVERYWHERE = [
  { keys: ["Tab"], words: "keys.tab" },
  { keys: ["Enter", " "], words: "keys.press" },
  { keys: ["?"], words: "keys.help" },
];
// The keys without a letter, as each language names them.
const NAMED = { Tab: "keys.name.tab", Enter: "keys.name.enter", " ": "keys.name.space" };
const ARROWS = { ArrowLeft: "←", ArrowRight: "→" };
const keyName = (key) => (NAMED[key] ? t(NAMED[key]) : (ARROWS[key] ?? key.toUpperCase()));
const MODES = { all: "announce.all", results: "announce.results", mine: "announce.mine" };

/**
 * `shortcuts` are [{keys: ["r"], words: "keys.roll", run}] (keys as KeyboardEvent.key says
 * them, lower case for letters; without `run`: keys the page's controls take, only listed);
 * `opener` is the button that opens the help; `announcing` adds the announcements' setting
 * to it. Returns the dialog.
 */
export function setupKeys(opener, shortcuts, { announcing = false } = {}) {
  const dialog = helpDialog(shortcuts, announcing);
  document.body.append(dialog);
  const open = () => {
    if (!dialog.open) dialog.showModal();
  };
  opener.hidden = false;
  opener.addEventListener("click", open);
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.altKey || event.metaKey || event.repeat || typing(event.target)) return;
    if (document.querySelector("dialog[open]") || !singleKeys()) return;
    if (event.key === "?") {
      event.preventDefault();
      open();
      return;
    }
    const key = event.key.toLowerCase();
    const shortcut = shortcuts.find((s) => s.run && s.keys.includes(key));
    if (shortcut) {
      event.preventDefault();
      shortcut.run(key);
    }
  });
  return dialog;
}

// A field that takes typing (a name, a link): its letters are text, not moves. A checkbox,
// a radio button or a button is no such field.
function typing(target) {
  if (!(target instanceof Element)) return false;
  if (target.closest("textarea, select, [contenteditable='true'], [contenteditable='']")) return true;
  return target.matches("input") && !["checkbox", "radio", "button", "submit", "range"].includes(target.type);
}

function helpDialog(shortcuts, announcing) {
  const rows = [...shortcuts, ...EVERYWHERE].map(({ keys, words }) =>
    h(
      "tr",
      { testid: "shortcut" },
      h(
        "th",
        { scope: "row" },
        keys.map((key, n) => [n ? " " : null, h("kbd", {}, keyName(key))]),
      ),
      h("td", {}, t(words)),
    ),
  );
  const close = h("button", { type: "button", class: "btn primary", testid: "help-close" }, t("keys.close"));
  const dialog = h(
    "dialog",
    { class: "help-dialog", testid: "help-dialog", "aria-labelledby": "help-title" },
    // opened with the focus on its title, its top in view (an audit: on its first control,
    // the setting under the table, scrolled past the title on a phone)
    h("h2", { id: "help-title", tabindex: "-1", autofocus: true }, t("keys.title")),
    h(
      "table",
      { class: "shortcuts" },
      h("caption", { class: "visually-hidden" }, t("keys.caption")),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("keys.key")), h("th", { scope: "col" }, t("keys.does")))),
      h("tbody", {}, rows),
    ),
    singleKeySetting(),
    announcing ? announceSetting() : null,
    h("div", { class: "buttons" }, close),
  );
  close.addEventListener("click", () => dialog.close());
  return dialog;
}

function singleKeySetting() {
  return h(
    "label",
    { class: "check single-keys" },
    h("input", {
      type: "checkbox",
      checked: singleKeys(),
      testid: "single-keys",
      on: { change: (event) => saveSingleKeys(event.target.checked) },
    }),
    h("span", {}, t("keys.single")),
  );
}

function announceSetting() {
  const chosen = announceMode();
  return h(
    "fieldset",
    { class: "announce-setting", testid: "announce-setting" },
    h("legend", {}, t("announce.legend")),
    h("p", { class: "muted" }, t("announce.about")),
    Object.entries(MODES).map(([mode, words]) =>
      h(
        "label",
        { class: "check" },
        h("input", {
          type: "radio",
          name: "announce",
          value: mode,
          checked: mode === chosen,
          testid: `announce-${mode}`,
          on: { change: () => saveAnnounceMode(mode) },
        }),
        h("span", {}, t(words)),
      ),
    ),
  );
}
