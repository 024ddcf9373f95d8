// The end-of-game panel: whether you won (when you played), the ranking with its tie-break
// (or, for an abandoned game, that it stopped), every player's worms over the turns, the
// replay and the record to download, and for a finished game its Analysis (analysis.js),
// whose decisions open in the replay. It takes the place of the live table (see style.css).

import { analysisSection } from "./analysis.js";
import { getJSON } from "./api.js";
import { lineChart } from "./chart.js";
import { fill, h } from "./dom.js";
import { downloadLink } from "./files.js";
import { t } from "./i18n.js";
import { rankingList } from "./ranking.js";
import { replayViewer } from "./replay.js";
import { turnText } from "./words.js";

const VERDICTS = { won: "end.won", shared: "end.shared", lost: "end.lost" };

/** "won", "shared" (a shared win) or "lost" for the player in `seat`; null for a spectator. */
export function verdict(ranking, seat) {
  const mine = ranking.find((standing) => standing.seat === seat);
  if (!mine) return null;
  if (mine.rank > 1) return "lost";
  return ranking.filter((standing) => standing.rank === 1).length > 1 ? "shared" : "won";
}

// Whether you won, as a player; who won, as a spectator (unless the win was shared: the
// ranking's tie-break says so).
function verdictLine(ranking, seat, names) {
  const outcome = verdict(ranking, seat);
  if (outcome) {
    const props = { class: `verdict${outcome === "lost" ? "" : " won"}`, testid: "verdict", data: { verdict: outcome } };
    return h("p", props, t(VERDICTS[outcome]));
  }
  const winners = ranking.filter((standing) => standing.rank === 1);
  if (winners.length > 1) return null;
  return h("p", { class: "verdict", testid: "winner" }, t("ranking.winner", { name: names[winners[0].seat] }));
}

/** `seat` is the viewer's (null when watching); `analysis`: whether the game's Analysis is
 * offered (not in the offline app, whose engine has no win values). */
export async function showEnd(node, gameId, state, seat, { analysis = true } = {}) {
  const names = state.seats.map((seat) => seat.name);
  const path = `/api/games/${encodeURIComponent(gameId)}`;
  const body = h("div", { class: "end-body" }, h("p", { class: "placeholder" }, t("end.loading")));
  const stopped = state.stopped_after; // at the server's turn limit: its standings are its result
  const ranked = state.table.over || stopped != null;
  let heading = state.table.over ? turnText(state, seat) : t("end.abandoned");
  if (stopped != null) heading = t("end.stopped_title", { count: stopped });
  fill(
    node,
    // "Game over after 36 turns"; where the focus goes when the table gives way to this panel
    h("h2", { tabindex: "-1" }, heading),
    ranked ? verdictLine(state.table.ranking, seat, names) : null,
    ranked ? rankingList(state.table, names) : null,
    state.table.over
      ? null
      : h("p", { class: "result", testid: "result" }, stopped != null ? t("end.turn_limit", { count: stopped }) : t("end.stopped")),
    body,
    downloadLink(`${path}/record`, `pickomino-${gameId}.json`, { class: "btn", testid: "download-record" }, t("end.download")),
  );
  node.hidden = false;

  let frames;
  try {
    ({ frames } = await getJSON(`${path}/replay`));
  } catch (error) {
    fill(body, h("p", { class: "error" }, t("end.replay_failed", { why: error.message })));
    return;
  }
  const review = state.table.over && analysis ? () => getJSON(`${path}/analysis`) : null;
  fill(body, ...gameReport(frames, names, seat, review));
}

/**
 * Every player's worms over the turns, the replay beside it and, given `loadReview` (a
 * function giving a promise of the review), the Analysis, whose decisions open in the replay:
 * the end panel's body, and the analysis page's (a record sent from a file).
 */
export function gameReport(frames, names, seat, loadReview) {
  const chart = lineChart({
    title: t("chart.title"),
    stepName: t("chart.turn"),
    labels: frames.map((frame) => String(frame.turn)),
    series: names.map((name, n) => ({
      name,
      className: `seat-${n}`,
      values: frames.map((frame) => frame.table.worms[n]),
    })),
  });
  const followers = [chart.mark]; // the charts' markers follow the replay's step
  const replay = replayViewer(frames, names, (i) => followers.forEach((follow) => follow(i)));
  const detail = h("section", { class: "analysis-detail card", testid: "analysis-detail", hidden: true });
  const analysis = loadReview
    ? analysisSection({
        load: loadReview,
        names,
        seat,
        frames,
        replay: { ...replay, follow: (follow) => followers.push(follow) },
        detail,
      })
    : null;
  return [
    h(
      "div",
      { class: "end-main" },
      h("section", { class: "chart-area" }, h("h3", {}, t("chart.heading")), chart.node),
      analysis,
    ),
    h("div", { class: "end-side" }, replay.node, detail),
  ];
}
