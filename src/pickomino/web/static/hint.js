// The hint as a table: for each choice, the chance to win the game (the review's evaluator:
// best choice first), then the turn's exact odds: the chance to end it with a tile, the
// expected worm gain and the risk of busting. Rows without win chances (the offline app's
// advice) leave that column out, and are ranked by expected worms.

import { fill, h } from "./dom.js";
import { percent, signed, t } from "./i18n.js";
import { actionLabel } from "./words.js";

/** The hint in one sentence, for a screen reader: the best choice and its chance (or worms). */
export function hintLine(rows) {
  if (!rows.length) return t("hint.none");
  const [best] = rows;
  const action = actionLabel(best.action);
  return best.win != null
    ? t("hint.said", { action, win: percent(best.win) })
    : t("hint.said_worms", { action, worms: signed(best.worms) });
}

export function renderHint(node, rows) {
  node.hidden = false;
  if (!rows.length) {
    fill(node, h("p", { class: "placeholder" }, t("hint.none")));
    return;
  }
  const wins = rows.every((row) => row.win != null);
  fill(
    node,
    h(
      "table",
      { class: "hint-table", testid: "hint-table" },
      h("caption", {}, t(wins ? "hint.caption" : "hint.caption_worms")),
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          ["hint.choice", wins ? "hint.win_chance" : null, "hint.tile_chance", "hint.expected_worms", "hint.bust_risk"]
            .filter(Boolean)
            .map((key) => h("th", { scope: "col" }, t(key))),
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
              i === 0 ? h("span", { class: "badge" }, t("hint.best")) : null,
            ),
            wins ? h("td", {}, percent(row.win)) : null,
            h("td", {}, percent(row.tile)),
            h("td", {}, signed(row.worms)),
            h("td", {}, percent(row.bust)),
          ),
        ),
      ),
    ),
  );
}
