// Draws a TABLE (the server's view of the game) into the page: the grill, every player's
// stack and worms, and the dice of the turn. Used for the live game and for replay steps.

import { fill, h, keepFocus, refillFrom } from "./dom.js";
import { seatClock } from "./clock.js";
import { die, tile, wormIcon, wormsOn } from "./pieces.js";
import { roving } from "./roving.js";
import { t } from "./i18n.js";
import { actionLabel, botLabel } from "./words.js";

/**
 * The grill's tiles. `skipUnchanged`: not drawn again when they are as last drawn (for pages
 * that add nothing to the tiles; the score sheet marks the tiles on offer every time).
 */
export function renderGrill(node, table, { skipUnchanged = false } = {}) {
  const draw = () => table.grill.map((t) => tile(t.tile, t.worms, { where: t.where }));
  if (skipUnchanged) refillFrom(node, JSON.stringify(table.grill), draw);
  else fill(node, draw());
}

/**
 * One card per seat. `seats` are
 * [{name, bot, online?, profile?, away?, stand_in?, votes?, votes_needed?, waited_on?}]:
 * a profile's name links to its page; the live fields are left out in replays, where nobody
 * is connected. `you` is your seat (null when watching); `current` the seat to play,
 * highlighted (null when no turn is being played); `clock` the state's clock (each seat's
 * running clock or bank); `onVote(seat)`, given to a player, votes for a bot to play a seat
 * whose person is not connected or keeps the game waiting; `skipUnchanged`, as for the grill (then `onVote` must act
 * alike each time).
 */
export function renderPlayers(
  node,
  table,
  seats,
  { you = null, current = null, clock = null, onVote = null, skipUnchanged = false } = {},
) {
  const draw = () => playerCards(table, seats, { you, current, clock, onVote });
  // A card drawn anew (a player came or went, a vote) keeps the focus among the cards.
  if (!skipUnchanged) return keepFocus(node, () => fill(node, draw()));
  const key = JSON.stringify([seats, table.stacks, table.worms, you, current, clock, onVote !== null]);
  keepFocus(node, () => refillFrom(node, key, draw)); // the same onVote, or one alike (the page's)
}

/**
 * Whether `you` may vote to let a bot play seat `n` now: a person's seat not yours, while a
 * turn is played, whose person is not connected or keeps the game waiting, and no bot plays
 * for yet.
 */
export function mayVote(seats, n, { you, current }) {
  const seat = seats[n];
  return you !== null && current !== null && n !== you && !seat.bot && (!seat.online || seat.waited_on) && !seat.away;
}

function playerCards(table, seats, { you, current, clock, onVote }) {
  return seats.map((seat, n) => {
    const playing = current === n;
    return h(
      "article",
      {
        class: `player seat-${n}${playing ? " current" : ""}`,
        testid: "player",
        data: { seat: n, current: playing },
        "aria-current": playing ? "true" : null,
        "aria-label": seat.name, // a card heard by whose it is
      },
      h(
        "header",
        { class: "player-head" },
        h("span", { class: "swatch", "aria-hidden": "true" }),
        seat.profile
          ? h(
              "a",
              {
                class: "player-name",
                testid: "player-name",
                href: `/profiles/${encodeURIComponent(seat.profile)}`,
                target: "_blank",
                title: t("player.profile", { name: seat.name }),
              },
              seat.name,
            )
          : h("span", { class: "player-name", testid: "player-name" }, seat.name),
        n === you ? h("span", { class: "badge you", testid: "you-marker" }, t("player.you")) : null,
        seat.bot ? h("span", { class: "badge bot" }, t("player.bot", { level: botLabel(seat.bot) })) : null,
        seat.online === undefined || seat.bot ? null : onlineDot(seat.online),
        playing ? h("span", { class: "badge playing" }, t("player.to_play")) : null,
        standInBadge(seat),
        seat.waited_on ? h("span", { class: "badge away", testid: "waited-on-badge" }, t("player.waited_on")) : null,
        seat.bot ? null : seatClock(clock, n),
      ),
      h(
        "div",
        { class: "player-body" },
        stack(table.stacks[n]),
        // The count is seen as a number by a worm and heard as words ("3 worms").
        h(
          "p",
          { class: "player-worms" },
          wormIcon(),
          h("strong", { testid: "player-worms", "aria-hidden": "true" }, String(table.worms[n])),
          h("span", { class: "visually-hidden" }, t("worms", { count: table.worms[n] })),
        ),
      ),
      onVote && mayVote(seats, n, { you, current }) ? voteBox(seats, n, you, onVote) : null,
    );
  });
}

// A bot plays this person's seat: until they are back, or for the rest of a turn whose
// time ran out.
function standInBadge(seat) {
  if (seat.away) return h("span", { class: "badge away", testid: "away-badge" }, t("player.away"));
  if (seat.stand_in) return h("span", { class: "badge away", testid: "stand-in-badge" }, t("player.stand_in"));
  return null;
}

// The vote to let a bot play for a person who is not connected, or who keeps the game waiting
// on their turn: it does once the server's number of votes is reached
// (pickomino.web.protocol, "vote").
function voteBox(seats, n, you, onVote) {
  const { votes, votes_needed: needed } = seats[n];
  const voted = votes.includes(you);
  return h(
    "div",
    { class: "vote", testid: "vote" },
    h(
      "button",
      // aria-disabled, not disabled, once voted: the focus stays on the button it was on
      {
        type: "button",
        class: "btn small",
        testid: "vote-button",
        "aria-disabled": voted ? "true" : null,
        on: { click: () => voted || onVote(n) },
      },
      t(voted ? "vote.voted" : "vote.button", { name: seats[n].name }),
    ),
    votes.length
      ? h("small", { testid: "vote-count" }, t("vote.count", { count: votes.length, needed }))
      : null,
  );
}

function onlineDot(online) {
  const label = online ? t("player.online") : t("player.offline");
  return h("span", {
    class: `dot ${online ? "online" : "offline"}`,
    testid: "online-dot",
    data: { online },
    role: "img",
    title: label,
    "aria-label": label,
  });
}

// Tiles under the top are only counted in worms and cannot be stolen, so they are drawn
// small; the top tile is drawn full size and marked.
function stack(tiles) {
  if (!tiles.length) return h("div", { class: "stack empty", testid: "stack" }, t("stack.empty"));
  const top = tiles[tiles.length - 1];
  return h(
    "div",
    { class: "stack", testid: "stack", role: "group", "aria-label": t("tiles", { count: tiles.length }) },
    h(
      "div",
      { class: "under" },
      tiles.slice(0, -1).map((under) => tile(under, wormsOn(under), { className: "mini", testid: "stack-tile" })),
    ),
    tile(top, wormsOn(top), { className: "top", testid: "stack-top", where: "top" }),
  );
}

/**
 * The dice of the turn: the roll waiting for a choice, the kept dice and their total.
 * `keep(face)` is given when the viewer may keep: then the roll's faces that can be kept
 * are buttons. `fresh` marks a roll just made, so CSS can animate it once.
 */
export function renderDice({ roll, kept, total }, table, { keepable = [], keep = null, waiting = false, fresh = false }) {
  const spent = new Set(table.kept);
  const count = (face) => table.roll.filter((f) => f === face).length;
  roll.classList.toggle("rolling", fresh);
  fill(
    roll,
    table.roll.length
      ? table.roll.map((face, i) => {
          const canKeep = keep && keepable.includes(face);
          const d = die(face, {
            onClick: canKeep ? () => keep(face) : null,
            label: canKeep
              ? t("dice.keep_label", { action: actionLabel(`keep ${face}`), dice: t("dice", { count: count(face) }) })
              : null,
            className: spent.has(face) ? "spent" : "",
            waiting,
          });
          d.style.setProperty("--i", i); // staggers the roll animation
          return d;
        })
      : h("span", { class: "placeholder" }, rollPlaceholder(table)),
  );
  roving(roll, t("dice.rolled")); // the dice to keep: one Tab stop, the arrows between them
  refillFrom(kept, table.kept.join(""), () =>
    table.kept.length
      ? table.kept.map((face) => die(face, { className: "small" }))
      : h("span", { class: "placeholder" }, t("dice.nothing_kept")),
  );
  total.dataset.total = table.total;
  fill(
    total,
    h("strong", {}, String(table.total)),
    table.kept.length > 0 && !table.kept.includes("W")
      ? h("span", { class: "warn" }, " ", t("dice.no_worm_yet"))
      : null,
  );
}

// What the empty roll row says: the dice still to roll, or that the turn ends with a tile.
const rollPlaceholder = (table) =>
  table.phase === "claim" ? t("dice.must_claim") : t("dice.to_roll", { count: table.dice_left });

/** While hovering one die, light up every die of the same face: a tap keeps them all. */
export function highlightSameFaces(roll) {
  const light = (face) => {
    for (const d of roll.querySelectorAll(".die"))
      d.classList.toggle("lit", face != null && d.dataset.face === face);
  };
  roll.addEventListener("pointerover", (event) => light(event.target.closest("button.die")?.dataset.face));
  roll.addEventListener("pointerleave", () => light(null));
}
