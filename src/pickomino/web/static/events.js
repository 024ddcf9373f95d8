// The game's events in words, as pickomino.i18n.text words them for the Python faces: the
// server sends each event as data (pickomino.core.events.event_dict), the page says it in
// its reader's language, with the rule behind a bust as a link.

import { list, t } from "./i18n.js";
import { faceName } from "./pieces.js";
import { botLabel } from "./words.js";

const FACES = "12345W";
// The rule behind each bust reason: pickomino.core.events.BUST_RULES (a test compares them).
export const BUST_RULES = { no_new_face: "R7", no_worm: "R10", too_low: "R13", reported: "R15" };
// Why a bot plays for a person (pickomino.web.game.seating): the log's words for each reason.
const AWAY = { absent: "log.away.absent", timeouts: "log.away.timeouts", vote: "log.away.vote" };

// "1233WWW5" (or ["4", "W"]) → ["1", "2", "3", "3", "5", "W", "W", "W"].
function faces(dice) {
  const sorted = [...(Array.isArray(dice) ? dice.join("") : dice).toUpperCase()];
  return sorted.sort((a, b) => FACES.indexOf(a) - FACES.indexOf(b));
}

/** "1233WWW5" (or ["4", "W"]) → "1 2 3 3 5 W W W"; "-" for no dice. */
export const spacedDice = (dice) => faces(dice).join(" ") || "-";

/** The same dice for the ear: "1, 3, worm, and worm" (a screen reader would spell "W"). */
export const spokenDice = (dice) => list(faces(dice).map(faceName));

/**
 * One log entry in words, `names` being the players': {text, rule, heading}. A turn's
 * heading ("Turn 3 – Bob") is marked `heading`; a bust names its rule. `spoken` says the
 * dice as faces, for the announcements (announce.js).
 */
export function describeEntry(entry, names, { spoken = false } = {}) {
  const name = entry.seat == null ? "" : names[entry.seat];
  const dice = spoken ? spokenDice : spacedDice;
  switch (entry.type) {
    case "turn":
      return { text: t("turn.heading", { turn: entry.turn, name }), heading: true };
    case "rolled":
      return { text: t("event.rolled", { name, dice: dice(entry.dice) }) };
    case "kept":
      return {
        text: t("event.kept", { name, dice: dice(entry.face.repeat(entry.count)), total: entry.total }),
      };
    case "took":
      return {
        text: entry.total
          ? t("event.took", { name, tile: entry.tile, total: entry.total })
          : t("event.took_reported", { name, tile: entry.tile }),
      };
    case "stole": {
      const victim = names[entry.victim];
      return {
        text: entry.total
          ? t("event.stole", { name, tile: entry.tile, victim, total: entry.total })
          : t("event.stole_reported", { name, tile: entry.tile, victim }),
      };
    }
    case "bust":
      if (entry.reason === "reported") return { text: t("event.bust_reported", { name }) };
      return {
        text: t("event.bust", { name, total: entry.total, reason: entry.reason }),
        rule: BUST_RULES[entry.reason],
      };
    case "returned":
      return { text: t("event.returned", { name, tile: entry.tile }) };
    case "turned":
      return { text: t("event.turned", { tile: entry.tile }) };
    case "game_over":
      return { text: t("event.game_over") };
    case "timeout": // the table's own entries: who plays a seat, and why
      return { text: t("log.timeout", { name, bot: botLabel(entry.bot) }) };
    case "away":
      return { text: t(AWAY[entry.why], { name, bot: botLabel(entry.bot) }) };
    case "back":
      return { text: t("log.back", { name }) };
    default:
      return { text: entry.type }; // a newer server's event: its type, rather than nothing
  }
}

/** The final order, one line a player ("1. Ann: 12 worms, highest tile 35"), then how a
 * tie was broken, if it was: as ranking_lines says it. */
export function rankingLines(ranking, tieBreak, names) {
  const lines = ranking.map((standing) => {
    const params = {
      rank: standing.rank,
      name: names[standing.seat],
      worms: t("worms", { count: standing.worms }),
      tile: standing.highest_tile,
    };
    return standing.highest_tile ? t("ranking.place_tile", params) : t("ranking.place", params);
  });
  const decided = tieBreakText(tieBreak, ranking, names);
  return decided ? [...lines, decided] : lines;
}

/** How a tie for the win was settled (R20), from a table's ranking; null if worms decided. */
export function tieBreakText(tieBreak, ranking, names) {
  if (tieBreak === "shared") return t("ranking.shared");
  if (tieBreak === "tile") return t("ranking.tile", { name: names[ranking[0].seat] });
  return null;
}
