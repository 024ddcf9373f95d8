// Getting into one's seat on another device, through what the person holds (never a link
// others know): the seat's holder makes a one-time link here and opens it there (the seat
// goes there, this page then watches); or, on a page that only watches, this browser's
// profile takes the seat it plays in the game, with a new secret for this browser.

import { postJSON } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { copyAndSay } from "./invites.js";
import { profile, profileSeat } from "./profilekey.js";

/** For the seat's holder: a folded box that makes the one-time link on demand. */
export function moveSeatPanel(gameId, token) {
  const out = h("div", { class: "move-seat-link" });
  const error = h("p", { class: "error", role: "alert", hidden: true, testid: "move-seat-error" });
  async function make() {
    error.hidden = true;
    try {
      const answer = await postJSON(`/api/games/${encodeURIComponent(gameId)}/transfer`, null, { "Seat-Token": token });
      const input = h("input", {
        class: "link",
        testid: "move-seat-link",
        readonly: true,
        value: new URL(answer.link, location.href).href,
        "aria-label": t("seat.move"),
        on: { focus: (event) => event.target.select() },
      });
      const copy = h("button", { type: "button", class: "btn small" }, t("copy.copy"));
      copy.addEventListener("click", () => copyAndSay(input, copy));
      out.replaceChildren(input, copy);
    } catch (failure) {
      error.textContent = failure.message;
      error.hidden = false;
    }
  }
  return h(
    "details",
    { class: "move-seat", testid: "move-seat" },
    h("summary", {}, t("seat.move")),
    h("p", { class: "muted" }, t("seat.move_explain")),
    h("button", { type: "button", class: "btn small", testid: "move-seat-make", on: { click: make } }, t("seat.move_make")),
    out,
    error,
  );
}

/** For a page that watches: this browser's profile's seat here, if it plays one. */
export function profileSeatButton(gameId, seats, keep) {
  const mine = profile();
  const seat = mine ? seats.findIndex((s) => s.profile === mine.id) : -1;
  if (seat < 0) return null;
  const error = h("p", { class: "error", role: "alert", hidden: true });
  async function take() {
    try {
      keep((await profileSeat(gameId)).token);
      location.reload();
    } catch (failure) {
      error.textContent = failure.message;
      error.hidden = false;
    }
  }
  return [
    h("button", { type: "button", class: "btn", testid: "profile-seat", on: { click: take } }, t("seat.mine_here", { name: seats[seat].name })),
    error,
  ];
}
