// The rematch at the end of a game: "Play again" offers the same seats a new game (the next
// start player) or accepts the offer there is; the others see who offered, who accepted and
// who is still to, and may accept or decline (which cancels it for all). Spectators see the
// offer and, once it started, a link to watch. The server decides (POST /api/games/{id}/
// rematch); its answers and its WebSocket messages ({type: "rematch"}) both draw the panel,
// the further along of the two winning. Once the new game started, a seated person's page
// keeps their new seat's token and goes there.

import { getJSON, postJSON } from "./api.js";
import { h, refill } from "./dom.js";
import { list, t } from "./i18n.js";
import * as saved from "./storage.js";

/**
 * Returns `hear(offer)`, for the offers the WebSocket brings. `announce(line)` says each change
 * of the offer after the first look (an audit: a screen reader heard nothing of an offer made
 * to it, nor of its decline).
 */
export function setupRematch(node, { gameId, token, seat, names, announce }) {
  const path = `/api/games/${encodeURIComponent(gameId)}/rematch`;
  const headers = token ? { "Seat-Token": token } : {};
  let shown = null;
  let error = null;
  let said = null; // the offer's words as last shown (said if they changed)

  function hear(offer, { quietly = false } = {}) {
    if (offer && progress(offer) < progress(shown)) return; // an older answer, arriving late
    shown = offer;
    const words = offer ? describe(offer, names) : null;
    if (words && words !== said && !quietly) announce(words);
    said = words;
    if (offer?.status === "started" && seat !== null && offer.token) {
      saved.seatToken(offer.game, offer.token);
      saved.goingToRematch(offer.game); // the new game's page says where it arrived
      location.assign(`/games/${encodeURIComponent(offer.game)}`);
    }
    draw();
  }

  async function ask(what) {
    error = null;
    try {
      hear((await postJSON(`${path}${what}`, {}, headers)).offer);
    } catch (failure) {
      error = failure.message;
      draw();
    }
  }

  function draw() {
    node.hidden = false;
    const offer = shown;
    const button = (key, testid, what, quiet) =>
      h("button", { type: "button", class: `btn${quiet ? " quiet" : ""}`, testid, on: { click: () => ask(what) } }, t(key));
    const seated = seat !== null;
    const mine = offer && offer.accepted.includes(seat);
    refill(
      node, // drawn anew: a focus in the panel stays there
      h("h2", { tabindex: "-1" }, t("rematch.title")),
      offer ? h("p", { testid: "rematch-status", data: { status: offer.status } }, describe(offer, names)) : null,
      offer?.status === "offered"
        ? h("p", { class: "muted", testid: "rematch-waiting" }, t("rematch.starts_with", { name: names[offer.start_player] }))
        : null,
      seated && (!offer || (offer.status === "offered" && !mine))
        ? button(offer ? "rematch.accept" : "rematch.offer", "rematch-accept", "", false)
        : null,
      seated && offer?.status === "offered" ? button("rematch.decline", "rematch-decline", "/decline", true) : null,
      offer?.status === "started" && !(seated && offer.token) // a watcher, or a seat moved on
        ? h("a", { class: "btn", href: `/games/${encodeURIComponent(offer.game)}`, testid: "rematch-watch" }, t("rematch.watch"))
        : null,
      error ? h("p", { class: "error", role: "alert", testid: "rematch-error" }, error) : null,
    );
    if (!seated && !offer) node.hidden = true; // nothing to see yet
  }

  getJSON(path, headers).then(
    (answer) => hear(answer.offer, { quietly: true }), // the first look: shown, not news
    () => draw(),
  );
  return hear;
}

// How far an offer has come: a started or declined one is final; else more acceptances.
function progress(offer) {
  if (!offer) return -1;
  return offer.status === "offered" ? offer.accepted.length : 100;
}

function describe(offer, names) {
  const by = names[offer.offered_by];
  if (offer.status === "declined") return t("rematch.declined", { name: names[offer.declined_by] });
  if (offer.status === "started") return t("rematch.started");
  return t("rematch.offered", { name: by, names: list(offer.waiting_for.map((n) => names[n])) });
}
