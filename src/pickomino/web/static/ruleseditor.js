// The "Rules" fieldset of a set-up form (lobby and score keeper): a preset and one control per
// rule option. Choosing a preset sets the options; changing an option shows which preset that
// is (or "custom"). Sent as the official preset plus what differs from it, the text the
// server's rules parser reads.

import { fill, h } from "./dom.js";
import { t } from "./i18n.js";
import { presetLabel, presetName } from "./words.js";

/** Fills `fieldset` with the controls; `presets` come from /api/options. Returns {text()}. */
export function rulesEditor(fieldset, presets) {
  const preset = h("select", { name: "preset", testid: "rules-preset" });
  const fields = {
    flip_returned_highest: h("input", { type: "checkbox", name: "flip_returned_highest", testid: "opt-flip" }),
    exact_match_mandatory: h("input", { type: "checkbox", name: "exact_match_mandatory", testid: "opt-exact" }),
    lower_tile: h(
      "select",
      { name: "lower_tile", testid: "opt-lower" },
      h("option", { value: "nearest" }, t("rules.lower_nearest")),
      h("option", { value: "any" }, t("rules.lower_any")),
    ),
  };
  fill(
    fieldset,
    h("legend", {}, t("rules.legend")),
    h("label", { class: "field" }, h("span", {}, t("rules.preset")), preset),
    h(
      "label",
      { class: "check" },
      fields.flip_returned_highest,
      h("span", {}, t("rules.flip")),
    ),
    h(
      "label",
      { class: "check" },
      fields.exact_match_mandatory,
      h("span", {}, t("rules.exact")),
    ),
    h("label", { class: "field" }, h("span", {}, t("rules.lower_tile")), fields.lower_tile),
  );
  const read = (field) => (field.type === "checkbox" ? field.checked : field.value);
  const current = () => Object.fromEntries(Object.entries(fields).map(([key, field]) => [key, read(field)]));

  fill(
    preset,
    Object.keys(presets).map((name) => h("option", { value: name }, presetLabel(name))),
    h("option", { value: "custom", disabled: true }, presetLabel(null)),
  );
  preset.addEventListener("change", () => {
    for (const [key, field] of Object.entries(fields)) {
      if (field.type === "checkbox") field.checked = presets[preset.value][key];
      else field.value = presets[preset.value][key];
    }
  });
  for (const field of Object.values(fields)) {
    field.addEventListener("change", () => {
      preset.value = presetName(current(), presets) ?? "custom";
    });
  }
  preset.value = "official";
  preset.dispatchEvent(new Event("change"));

  return {
    text() {
      const name = presetName(current(), presets);
      if (name) return name;
      const changed = Object.entries(current()).filter(([key, value]) => presets.official[key] !== value);
      return ["official", ...changed.map(([key, value]) => `${key}=${value}`)].join(",");
    },
  };
}
