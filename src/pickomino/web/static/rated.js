// How the rating pages name a rated player: a profile by its name, a bot by its level.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { botLabel } from "./words.js";

/** `who` is {player, name, bot} as the server sends it. */
export const playerName = (who) => (who.bot ? t("rating.bot", { level: botLabel(who.bot) }) : who.name);

export function playerLink(who) {
  return h(
    "a",
    { href: `/profiles/${encodeURIComponent(who.player)}`, class: who.bot ? "bot-player" : null, testid: "player-link" },
    playerName(who),
  );
}
