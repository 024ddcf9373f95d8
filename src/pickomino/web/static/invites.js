// Invite links with a copy button each: shown to the creator right after creating a game,
// and on the table while the game waits for people.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { botLabel } from "./words.js";

const LOOPBACK = /^(localhost|127(\.\d+){3}|\[::1\])$/;

/**
 * `seats` are [{seat, name, bot, open, link}]; `claimed(seat)` says whose seat is taken already.
 * Gives the list, after a warning when the links point to this computer's own address.
 */
export function inviteList(seats, claimed = () => false) {
  const links = seats.filter((seat) => seat.link).map((seat) => new URL(seat.link, location.href));
  const local = links.length > 1 && links.some((url) => LOOPBACK.test(url.hostname));
  return [
    local
      ? h(
          "p",
          { class: "warning", testid: "loopback-warning" },
          t("invites.loopback", { host: links[0].host }),
        )
      : null,
    h(
      "ul",
      { class: "invites", testid: "invites" },
      seats.map((seat) =>
        h(
          "li",
          { class: "invite", testid: "invite", data: { seat: seat.seat } },
          h("span", { class: `invite-name seat-${seat.seat}` }, h("span", { class: "swatch" }), seat.name),
          seat.link
            ? linkBox(seat, claimed(seat.seat))
            : seat.bot
              ? h("span", { class: "badge bot" }, t("player.bot", { level: botLabel(seat.bot) }))
              : h("span", { class: "badge open", testid: "open-seat" }, t("invites.open_seat")),
        ),
      ),
    ),
  ];
}

function linkBox(seat, taken) {
  const url = new URL(seat.link, location.href).href;
  const input = h("input", {
    class: "link",
    testid: "invite-link",
    readonly: true,
    value: url,
    "aria-label": t("invites.link_label", { name: seat.name }),
    on: { focus: (event) => event.target.select() },
  });
  const copy = h("button", { type: "button", class: "btn small", testid: "copy-invite" }, t("copy.copy"));
  copy.addEventListener("click", () => copyAndSay(input, copy));
  return h(
    "span",
    { class: "invite-link" },
    input,
    copy,
    taken ? h("span", { class: "badge taken" }, t("invites.seated")) : null,
  );
}

/** Copies the text of `input`; `button` then says whether it did. */
export async function copyAndSay(input, button) {
  button.textContent = t((await copyText(input)) ? "copy.copied" : "copy.select");
}

// The clipboard API needs a secure page (https or localhost); on plain http over a LAN
// fall back to selecting the text and the old copy command.
async function copyText(input) {
  try {
    await navigator.clipboard.writeText(input.value);
    return true;
  } catch {
    input.select();
    return document.execCommand("copy");
  }
}
