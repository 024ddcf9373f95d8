// The end-of-game panel: whether you won (when you played), the ranking with its tie-break
// (or, for an abandoned game, that it stopped), every player's worms over the turns, the
// replay and the record to download. It takes the place of the live table (see style.css).

import { getJSON } from "./api.js";
import { lineChart } from "./chart.js";
import { fill, h } from "./dom.js";
import { rankingList } from "./ranking.js";
import { replayViewer } from "./replay.js";
import { turnText } from "./words.js";

/** "You won", "Shared win" or "You lost" for the player in `seat`; null for a spectator. */
export function verdict(ranking, seat) {
  const mine = ranking.find((standing) => standing.seat === seat);
  if (!mine) return null;
  if (mine.rank > 1) return "You lost";
  return ranking.filter((standing) => standing.rank === 1).length > 1 ? "Shared win" : "You won";
}

/** `seat` is the viewer's (null when watching). */
export async function showEnd(node, gameId, state, seat) {
  const names = state.seats.map((seat) => seat.name);
  const path = `/api/games/${encodeURIComponent(gameId)}`;
  const body = h("div", { class: "end-body" }, h("p", { class: "placeholder" }, "Loading the replay…"));
  const outcome = state.table.over ? verdict(state.table.ranking, seat) : null;
  fill(
    node,
    h("h2", {}, state.table.over ? turnText(state, seat) : "Abandoned"), // "Game over after 36 turns"
    outcome ? h("p", { class: `verdict${outcome === "You lost" ? "" : " won"}`, testid: "verdict" }, outcome) : null,
    state.table.over
      ? rankingList(state.table, names)
      : h("p", { class: "result", testid: "result" }, "Nobody played on: the game stopped here."),
    body,
    h(
      "a",
      {
        class: "btn",
        href: `${path}/record`,
        download: `pickomino-${gameId}.json`,
        testid: "download-record",
      },
      "Download the game record",
    ),
  );
  node.hidden = false;

  let frames;
  try {
    ({ frames } = await getJSON(`${path}/replay`));
  } catch (error) {
    fill(body, h("p", { class: "error" }, `The replay could not be loaded: ${error.message}`));
    return;
  }
  const chart = lineChart({
    title: "Worms of every player after each turn",
    labels: frames.map((frame) => String(frame.turn)),
    series: names.map((name, n) => ({
      name,
      className: `seat-${n}`,
      values: frames.map((frame) => frame.table.worms[n]),
    })),
  });
  fill(
    body,
    h("section", { class: "chart-area" }, h("h3", {}, "Worms over the turns"), chart.node),
    replayViewer(frames, names, chart.mark),
  );
}
