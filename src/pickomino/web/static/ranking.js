// The final ranking, best first: rank, colour, name, worms and highest tile of each player
// (TABLE.ranking), then how a tie for the win was settled, if there was one.

import { h } from "./dom.js";
import { tieBreakText } from "./events.js";
import { t } from "./i18n.js";

export function rankingList(table, names) {
  const tieBreak = tieBreakText(table.tie_break, table.ranking, names);
  return [
    h(
      "ol",
      { class: "ranking", testid: "ranking" },
      table.ranking.map((r) =>
        h(
          "li",
          {
            class: `seat-${r.seat}${r.rank === 1 ? " winner" : ""}`,
            testid: "rank",
            data: { seat: r.seat, rank: r.rank },
          },
          h("span", { class: "rank" }, String(r.rank)),
          h("span", { class: "swatch" }),
          h("span", { class: "name" }, names[r.seat]),
          h("span", { class: "score" }, t("worms", { count: r.worms })),
          r.highest_tile ? h("span", { class: "muted" }, t("rank.highest_tile", { tile: r.highest_tile })) : null,
        ),
      ),
    ),
    tieBreak ? h("p", { class: "result", testid: "tie-break" }, tieBreak) : null,
  ];
}
