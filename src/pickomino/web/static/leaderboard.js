// The leaderboard, /leaderboard: profiles and bot levels by their conservative rating
// (μ − 3σ: what a player is at least worth, nearly surely), with their rated games and share
// of wins in them. Each links to its profile page. Provisional ratings (too few different
// opponents yet) come after the ranked ones, without a rank.

import { getJSON } from "./api.js";
import { fill, h } from "./dom.js";
import { loadWords, number, percent, t } from "./i18n.js";
import { playerLink } from "./rated.js";

const $ = (id) => document.getElementById(id);

await loadWords();
document.title = t("leaderboard.page_title", { game: t("game.name") });
try {
  const [rows, options] = await Promise.all([getJSON("/api/leaderboard"), getJSON("/api/options")]);
  fill(
    $("leaderboard"),
    h("h2", {}, t("leaderboard.title")),
    h("p", { class: "muted" }, t("leaderboard.explain")),
    h("p", { class: "muted" }, t("leaderboard.provisional", { opponents: number(options.established_opponents) })),
    rows.length ? scrolling(board(rows)) : h("p", { class: "placeholder", testid: "leaderboard-empty" }, t("leaderboard.empty")),
  );
} catch (failure) {
  $("leaderboard-error").textContent = t("leaderboard.failed", { why: failure.message });
  $("leaderboard-error").hidden = false;
}

// A table wider than a narrow screen scrolls in its own box, not the page (WCAG 1.4.10: a data
// table may), the box reachable by keyboard to scroll it.
function scrolling(table) {
  return h("div", { class: "table-scroll", tabindex: "0", role: "region", "aria-label": t("leaderboard.title") }, table);
}

function board(rows) {
  const head = ["leaderboard.rank", "leaderboard.player", "leaderboard.rating", "leaderboard.games", "leaderboard.wins"];
  return h(
    "table",
    { class: "board-table", testid: "board" },
    h("thead", {}, h("tr", {}, head.map((key, n) => h("th", { class: n === 1 ? null : "num" }, t(key))))),
    h(
      "tbody",
      {},
      rows.map((row, n) =>
        h(
          "tr",
          { testid: "board-row", data: { player: row.player, ordinal: row.rating.ordinal, games: row.games, provisional: row.provisional } },
          h("td", { class: "num" }, row.provisional ? "–" : number(n + 1)),
          h("td", {}, playerLink(row)),
          h(
            "td",
            { class: "num", title: t("rating.mu_sigma", { mu: number(row.rating.mu, 1), sigma: number(row.rating.sigma, 1) }) },
            number(row.rating.ordinal, 1),
            row.provisional ? h("span", { class: "muted", testid: "provisional" }, " ", t("rating.provisional")) : null,
          ),
          h("td", { class: "num" }, number(row.games)),
          h("td", { class: "num" }, percent(row.win_share)),
        ),
      ),
    ),
  );
}
