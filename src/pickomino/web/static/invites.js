// Invite links with a copy button each: shown to the creator right after creating a game,
// and on the table while the game waits for people.

import { h } from "./dom.js";

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
          `These links point to ${links[0].host}, an address only this computer has: friends on other machines cannot open them. `,
          "Serve on your network (pickomino serve --host 0.0.0.0) and open the lobby at the address it prints, or give the server its address with --public-url.",
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
              ? h("span", { class: "badge bot" }, `bot · ${seat.bot}`)
              : h("span", { class: "badge open", testid: "open-seat" }, "open seat · anyone can join from the lobby"),
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
