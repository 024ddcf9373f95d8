// Invite links with a copy button each: shown to the creator right after creating a game,
// and on the table while the game waits for people.

import { h } from "./dom.js";

/** `seats` are [{seat, name, bot, link}]; `claimed(seat)` says whose seat is taken already. */
export function inviteList(seats, claimed = () => false) {
  return h(
    "ul",
    { class: "invites", testid: "invites" },
    seats.map((seat) =>
      h(
        "li",
        { class: "invite", testid: "invite", data: { seat: seat.seat } },
        h("span", { class: `invite-name seat-${seat.seat}` }, h("span", { class: "swatch" }), seat.name),
        seat.link
          ? linkBox(seat, claimed(seat.seat))
          : h("span", { class: "badge bot" }, `bot · ${seat.bot}`),
      ),
    ),
  );
}

function linkBox(seat, taken) {
  const url = new URL(seat.link, location.href).href;
  const input = h("input", {
    class: "link",
    testid: "invite-link",
    readonly: true,
    value: url,
    "aria-label": `invite link for ${seat.name}`,
    on: { focus: (event) => event.target.select() },
  });
  const copy = h("button", { type: "button", class: "btn small", testid: "copy-invite" }, "Copy");
  copy.addEventListener("click", async () => {
    copy.textContent = (await copyText(input)) ? "Copied" : "Select and copy";
  });
  return h(
    "span",
    { class: "invite-link" },
    input,
    copy,
    taken ? h("span", { class: "badge taken" }, "seated") : null,
  );
}

// The clipboard API needs a secure page (https or localhost); on plain http over a LAN
// fall back to selecting the text and the old copy command.
export async function copyText(input) {
  try {
    await navigator.clipboard.writeText(input.value);
    return true;
  } catch {
    input.select();
    return document.execCommand("copy");
  }
}
