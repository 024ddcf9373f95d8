// The end-of-game panel: the ranking with its tie-break text (or, for an abandoned game, that
// it stopped), every player's worms over the turns, the replay and the record to download.

import { getJSON } from "./api.js";
import { lineChart } from "./chart.js";
import { fill, h } from "./dom.js";
import { rankingList } from "./ranking.js";
import { replayViewer } from "./replay.js";

export async function showEnd(node, gameId, state) {
  const names = state.seats.map((seat) => seat.name);
  const path = `/api/games/${encodeURIComponent(gameId)}`;
  const body = h("div", { class: "end-body" }, h("p", { class: "placeholder" }, "Loading the replay…"));
  fill(
    node,
    h("h2", {}, state.table.over ? "Game over" : "Abandoned"),
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
