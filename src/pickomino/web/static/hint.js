// The solver's advice as a table: for each choice, the chance to end the turn with a tile,
// the expected worm gain and the risk of busting, best choice first.

import { fill, h } from "./dom.js";
import { actionLabel, percent } from "./words.js";

export function renderHint(node, rows) {
  node.hidden = false;
  if (!rows.length) {
    fill(node, h("p", { class: "placeholder" }, "No decision to advise on now."));
    return;
  }
  fill(
    node,
    h(
      "table",
      { class: "hint-table", testid: "hint-table" },
      h("caption", {}, "Hint: each choice played as well as possible from here on"),
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", { scope: "col" }, "Choice"),
          ["Tile chance", "Expected worms", "Bust risk"].map((t) => h("th", { scope: "col" }, t)),
        ),
      ),
      h(
        "tbody",
        {},
        rows.map((row, i) =>
          h(
            "tr",
            { class: i === 0 ? "best" : "", testid: "hint-row", data: { action: row.action } },
            h(
              "th",
              { scope: "row" },
              actionLabel(row.action),
              i === 0 ? h("span", { class: "badge" }, "best") : null,
            ),
            h("td", {}, percent(row.tile)),
            h("td", {}, row.worms.toFixed(2)),
            h("td", {}, percent(row.bust)),
          ),
        ),
      ),
    ),
  );
}
