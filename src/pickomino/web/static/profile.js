// A profile's page, /profiles/<id> (or a bot level's, /profiles/bot-hard): its rating, games,
// share of wins and mean worms, its accuracy and luck over its last reviewed games, its rating
// after each rated game as a chart, and its games with their accuracy, luck and replays (a game
// it left, or a stand-in played for the most part, says so: counted last).

import { getJSON } from "./api.js";
import { lineChart } from "./chart.js";
import { fill, h } from "./dom.js";
import { date, loadWords, number, percent, points, t } from "./i18n.js";
import { playerName } from "./rated.js";

const $ = (id) => document.getElementById(id);
const player = decodeURIComponent(location.pathname.replace(/\/+$/, "").split("/").pop());

await loadWords();
try {
  const page = await getJSON(`/api/profiles/${encodeURIComponent(player)}`);
  document.title = t("profile.page_title", { name: playerName(page), game: t("game.name") });
  fill($("profile"), h("h2", { testid: "profile-name" }, playerName(page)), stats(page), chart(page), results(page));
} catch (failure) {
  $("profile-error").textContent = t("profile.failed", { why: failure.message });
  $("profile-error").hidden = false;
}

function stats(page) {
  const { rating, accuracy } = page;
  const stat = (key, value, testid) =>
    h("div", { class: "stat", testid }, h("span", { class: "muted" }, t(key)), h("strong", {}, value));
  return h(
    "div",
    { class: "stats" },
    stat("profile.rating", ratingText(page), "stat-rating"),
    stat("profile.games", number(page.games), "stat-games"),
    stat("profile.win_share", page.games ? percent(page.win_share) : "–", "stat-wins"),
    stat("profile.mean_worms", page.games ? number(page.mean_worms, 1) : "–", "stat-worms"),
    stat("profile.accuracy", accuracy ? number(accuracy.value) : "–", "stat-accuracy"),
    page.rated
      ? h("p", { class: "muted stat-note" }, t("rating.mu_sigma", { mu: number(rating.mu, 1), sigma: number(rating.sigma, 1) }))
      : null,
    accuracy
      ? h(
          "p",
          { class: "muted stat-note", testid: "accuracy-note" },
          t("profile.accuracy_over", { count: accuracy.games, decisions: number(accuracy.decisions), luck: points(accuracy.luck) }),
        )
      : null,
  );
}

// The rating, said to be provisional while its games were against too few different opponents.
function ratingText(page) {
  if (!page.rated) return t("profile.unrated");
  const shown = number(page.rating.ordinal, 1);
  return page.provisional ? `${shown} (${t("rating.provisional")})` : shown;
}

// The conservative rating (μ − 3σ) from the start (0) through every rated game.
function chart(page) {
  const rated = page.results.filter((result) => result.rated);
  if (!rated.length) return null;
  const values = [0, ...rated.map((result) => Number(result.rating.ordinal.toFixed(1)))];
  const graph = lineChart({
    title: t("profile.chart_title"),
    stepName: t("chart.game"),
    labels: values.map((_, n) => (n ? String(n) : t("profile.chart_start"))),
    series: [{ name: playerName(page), className: "seat-0", values }],
    shown: (value) => number(value, 1),
  });
  return h("section", { class: "chart-area" }, h("h3", {}, t("profile.chart_title")), graph.node);
}

function results(page) {
  if (!page.results.length) return h("p", { class: "placeholder" }, t("profile.no_games"));
  return h(
    "section",
    {},
    h("h3", {}, t("profile.results")),
    h(
      "ul",
      { class: "game-list", testid: "results" },
      [...page.results].reverse().map((result) =>
        h(
          "li",
          { class: "game-row", testid: "result-row", data: { game: result.game } },
          h(
            "div",
            { class: "game-info" },
            h(
              "p",
              {},
              t(result.left ? "profile.left" : "profile.place", { rank: result.rank, players: result.players }),
              " · ",
              t("worms", { count: result.worms }),
            ),
            h(
              "p",
              { class: "muted" },
              date(result.finished * 1000, true),
              " · ",
              result.rated ? t("profile.rating_after", { rating: number(result.rating.ordinal, 1) }) : t("profile.not_rated"),
            ),
            result.accuracy === null
              ? null
              : h(
                  "p",
                  { class: "muted", testid: "result-review" },
                  t("profile.game_review", { accuracy: number(result.accuracy), luck: points(result.luck) }),
                ),
          ),
          h("a", { class: "btn small", href: `/games/${encodeURIComponent(result.game)}?replay=1` }, t("games.replay")),
        ),
      ),
    ),
  );
}
