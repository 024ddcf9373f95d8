// Steps through a game turn by turn: first/previous/next/last buttons and a slider; each
// step shows the table as it was after that turn and that turn's log lines.

import { fill, h } from "./dom.js";
import { renderGrill, renderPlayers } from "./table.js";

/** `frames` come from /api/games/{id}/replay; `onStep(i)` hears every move of the slider. */
export function replayViewer(frames, names, onStep = () => {}) {
  const seats = names.map((name) => ({ name }));
  const last = frames.length - 1;
  const button = (label, text, testid) =>
    h("button", { type: "button", class: "btn small", testid, "aria-label": label }, text);
  const first = button("first step", "«", "replay-first");
  const prev = button("previous turn", "‹", "replay-prev");
  const next = button("next turn", "›", "replay-next");
  const end = button("last step", "»", "replay-last");
  const slider = h("input", {
    type: "range",
    min: 0,
    max: last,
    step: 1,
    testid: "replay-slider",
    "aria-label": "turn",
  });
  const label = h("p", { class: "replay-turn", testid: "replay-turn", "aria-live": "polite" });
  const grill = h("div", { class: "grill small" });
  const players = h("div", { class: "players compact" });
  const lines = h("ol", { class: "replay-lines", testid: "replay-lines" });

  function show(i) {
    const index = Math.max(0, Math.min(last, i));
    const frame = frames[index];
    slider.value = index;
    first.disabled = prev.disabled = index === 0;
    next.disabled = end.disabled = index === last;
    label.textContent =
      index === 0 ? "Start: nobody has played yet" : `Turn ${frame.turn}: ${names[frame.seat]}`;
    label.dataset.step = index;
    renderGrill(grill, frame.table);
    renderPlayers(players, frame.table, seats);
    fill(
      lines,
      frame.lines.map((line) => h("li", {}, line)),
    );
    onStep(index);
  }

  first.addEventListener("click", () => show(0));
  prev.addEventListener("click", () => show(Number(slider.value) - 1));
  next.addEventListener("click", () => show(Number(slider.value) + 1));
  end.addEventListener("click", () => show(last));
  slider.addEventListener("input", () => show(Number(slider.value)));
  show(last);

  return h(
    "section",
    { class: "replay", testid: "replay" },
    h("h3", {}, "Replay"),
    h("div", { class: "replay-controls" }, first, prev, slider, next, end),
    label,
    h("div", { class: "replay-table", testid: "replay-table" }, grill, players),
    lines,
  );
}
