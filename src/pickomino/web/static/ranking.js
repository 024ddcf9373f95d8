// The final ranking, best first: rank, colour, name, worms and highest tile of each player
// (TABLE.ranking), then the server's result text, which explains any tie-break.

import { h } from "./dom.js";
import { plural } from "./words.js";

export function rankingList(table, names) {
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
          h("span", { class: "score" }, plural(r.worms, "worm")),
          r.highest_tile ? h("span", { class: "muted" }, `highest tile ${r.highest_tile}`) : null,
        ),
      ),
    ),
    h("p", { class: "result", testid: "result" }, table.result),
  ];
}
