// The rule controls of a set-up form: a preset <select name="preset"> and one control per
// rule option, named after the option's key. Choosing a preset sets the options; changing an
// option shows which preset that is (or "custom"). Sent as the official preset plus what
// differs from it, the text the server's rules parser reads.

import { fill, h } from "./dom.js";
import { presetName } from "./words.js";

const PRESET_LABELS = { official: "Official rulebook", short: "Shorter game", bga: "Board Game Arena" };

/** `form` holds the controls; `presets` come from /api/options. Returns {text()}. */
export function rulesEditor(form, presets) {
  const preset = form.elements.namedItem("preset");
  const fields = Object.fromEntries(
    Object.keys(presets.official).map((key) => [key, form.elements.namedItem(key)]),
  );
  const read = (field) => (field.type === "checkbox" ? field.checked : field.value);
  const current = () => Object.fromEntries(Object.entries(fields).map(([key, field]) => [key, read(field)]));

  fill(
    preset,
    Object.keys(presets).map((name) => h("option", { value: name }, PRESET_LABELS[name] || name)),
    h("option", { value: "custom", disabled: true }, "Custom"),
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
