// The lobby's profile panel: claim a name (the server gives a recovery code, the profile's
// only key, which this browser keeps), or import a code made on another device; with a
// profile: play as it or not, show and copy its code, replace the code (the old one stops
// working), forget it on this browser.

import { getJSON, postJSON } from "./api.js";
import { h, refill } from "./dom.js";
import { t } from "./i18n.js";
import { copyAndSay } from "./invites.js";
import { playsAsProfile, profile, savePlayAs, saveProfile } from "./profilekey.js";

/** Draws the panel into `node`. */
export function setupProfilePanel(node) {
  const error = h("p", { class: "error", testid: "profile-error", role: "alert", hidden: true });

  async function attempt(work) {
    error.hidden = true;
    try {
      await work();
    } catch (failure) {
      error.textContent = failure.message;
      error.hidden = false;
    }
  }

  function draw(showCode = false) {
    const held = profile();
    refill(node, held ? holder(held, showCode) : newcomer(), error); // the focus stays in the panel
  }

  // No profile here yet: claim a name, or bring one from another device.
  function newcomer() {
    const name = h("input", { testid: "profile-name", maxlength: 24, required: true, autocomplete: "nickname" });
    const code = h("input", { testid: "import-code", required: true, autocomplete: "off", spellcheck: "false" });
    const claim = async (event) => {
      event.preventDefault();
      await attempt(async () => {
        saveProfile(await postJSON("/api/profiles", { name: name.value.trim() }));
        draw(true); // the code, to keep somewhere safe
      });
    };
    const bring = async (event) => {
      event.preventDefault();
      await attempt(async () => {
        const given = code.value.trim();
        const found = await getJSON("/api/profiles/me", { "Profile-Key": given });
        saveProfile({ ...found, code: given });
        draw();
      });
    };
    return [
      h("p", { class: "muted" }, t("profile.why")),
      h(
        "form",
        { class: "profile-form", testid: "claim-form", on: { submit: claim } },
        h("label", { class: "field" }, h("span", {}, t("profile.name")), name),
        h("button", { class: "btn primary", testid: "claim-name" }, t("profile.claim")),
      ),
      h(
        "form",
        { class: "profile-form", testid: "import-form", on: { submit: bring } },
        h("label", { class: "field" }, h("span", {}, t("profile.code")), code),
        h("button", { class: "btn", testid: "import-profile" }, t("profile.import")),
      ),
    ];
  }

  function holder(held, showCode) {
    const playAs = h("input", { type: "checkbox", testid: "play-as", checked: playsAsProfile() });
    playAs.addEventListener("change", () => savePlayAs(playAs.checked));
    const renew = async () => {
      if (!confirm(t("profile.new_code_confirm"))) return;
      await attempt(async () => {
        saveProfile(await postJSON("/api/profiles/me/key", null, { "Profile-Key": held.code }));
        draw(true);
      });
    };
    const forget = () => {
      if (!confirm(t("profile.forget_confirm", { name: held.name }))) return;
      saveProfile(null);
      draw();
    };
    return [
      h(
        "p",
        { class: "profile-who" },
        t("profile.you_are"),
        " ",
        h("a", { href: `/profiles/${encodeURIComponent(held.id)}`, testid: "my-profile-link" }, held.name),
      ),
      h("label", { class: "check" }, playAs, h("span", {}, t("profile.play_as", { name: held.name }))),
      showCode ? codeBox(held) : null,
      h(
        "div",
        { class: "buttons" },
        showCode
          ? null
          : h("button", { type: "button", class: "btn small", testid: "show-code", on: { click: () => draw(true) } }, t("profile.show_code")),
        h("button", { type: "button", class: "btn small quiet", testid: "new-code", on: { click: renew } }, t("profile.new_code")),
        h("button", { type: "button", class: "btn small quiet", testid: "forget-profile", on: { click: forget } }, t("profile.forget")),
      ),
    ];
  }

  draw();
}

// The recovery code, to copy or write down, with what it is for.
function codeBox(held) {
  const input = h("input", {
    class: "link code",
    testid: "recovery-code",
    readonly: true,
    value: held.code,
    "aria-label": t("profile.code"),
    on: { focus: (event) => event.target.select() },
  });
  const copy = h("button", { type: "button", class: "btn small", testid: "copy-code" }, t("copy.copy"));
  copy.addEventListener("click", () => copyAndSay(input, copy));
  return h(
    "div",
    { class: "code-box", testid: "code-box" },
    h("p", { class: "warning" }, t("profile.keep_code", { name: held.name })),
    h("span", { class: "invite-link" }, input, copy),
  );
}
