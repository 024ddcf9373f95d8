// The "Rules" fieldset of a set-up form (lobby and score keeper): a preset and one control per
// rule option. Choosing a preset sets the options; changing an option shows which preset that
// is (or "custom"). Sent as the official preset plus what differs from it, the text the
// server's rules parser reads.

import { fill, h } from "./dom.js";
import { t } from "./i18n.js";
import { presetLabel, presetName, rulesPage } from "./words.js";

/**
 * Fills `fieldset` with the controls; `presets` and `options` (each option's name, rule,
 * choices and catalogue key: the Rules fields' own description) come from /api/options, so a
 * new rule option needs nothing here. Returns {text()}.
 */
export function rulesEditor(fieldset, presets, options) {
  const preset = h("select", { name: "preset", testid: "rules-preset" });
  const fields = Object.fromEntries(options.map((option) => [option.name, control(option)]));
  fill(
    fieldset,
    h("legend", {}, t("rules.legend")),
    h("label", { class: "field" }, h("span", {}, t("rules.preset")), preset),
    options.map((option) => labelled(option, fields[option.name])),
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

/** A yes-or-no option is a checkbox; a choice of words, a list of its choices' words. */
function control(option) {
  const attributes = { name: option.name, testid: `opt-${option.name}` };
  if (typeof option.default === "boolean") return h("input", { type: "checkbox", ...attributes });
  const choices = option.choices.map((choice) => h("option", { value: choice }, t(`${option.key}.${choice}`)));
  return h("select", attributes, choices);
}

/** The control with its words, and the rule it changes (a link to it on the rules page). */
function labelled(option, field) {
  const rule = h("a", { href: `${rulesPage()}#${option.rule}`, target: "_blank" }, option.rule);
  if (field.type === "checkbox") {
    return h("label", { class: "check" }, field, h("span", {}, t(option.key), " (", rule, ")"));
  }
  return h("label", { class: "field" }, h("span", {}, t(option.key), " (", rule, ")"), field);
}
