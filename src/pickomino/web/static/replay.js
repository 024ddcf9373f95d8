// Steps through a game turn by turn: first/previous/next/last buttons and a slider; each
// step shows the table as it was after that turn and that turn's events, in words.

import { fill, h } from "./dom.js";
import { t } from "./i18n.js";
import { entryLines } from "./log.js";
import { renderGrill, renderPlayers } from "./table.js";

/**
 * `frames` come from /api/games/{id}/replay; `onStep(i)` hears every step shown. Returns
 * {node, show(i), step()}: `show` goes to step i (from outside too: the analysis), `step`
 * is the one shown.
 */
export function replayViewer(frames, names, onStep = () => {}) {
  const seats = names.map((name) => ({ name }));
  const last = frames.length - 1;
  const button = (label, text, testid) =>
    h("button", { type: "button", class: "btn small", testid, "aria-label": label }, text);
  const first = button(t("replay.first"), "«", "replay-first");
  const prev = button(t("replay.previous"), "‹", "replay-prev");
  const next = button(t("replay.next"), "›", "replay-next");
  const end = button(t("replay.last"), "»", "replay-last");
  const slider = h("input", {
    type: "range",
    min: 0,
    max: last,
    step: 1,
    testid: "replay-slider",
    "aria-label": t("replay.slider"),
  });
  const label = h("p", { class: "replay-turn", testid: "replay-turn", "aria-live": "polite" });
  const grill = h("div", { class: "grill small" });
  const players = h("div", { class: "players compact" });
  const lines = h("ol", { class: "replay-lines", testid: "replay-lines" });

  function show(i) {
    const index = Math.max(0, Math.min(last, i));
    const frame = frames[index];
    const pressed = document.activeElement;
    slider.value = index;
    first.disabled = prev.disabled = index === 0;
    next.disabled = end.disabled = index === last;
    if ([first, prev, next, end].includes(pressed) && pressed.disabled) slider.focus(); // not lost
    label.textContent =
      index === 0 ? t("replay.start") : t("turn.heading", { turn: frame.turn, name: names[frame.seat] });
    label.dataset.step = index;
    renderGrill(grill, frame.table, { skipUnchanged: true });
    renderPlayers(players, frame.table, seats, { skipUnchanged: true });
    fill(
      lines,
      frame.log.flatMap((entry) => entryLines(entry, names)),
    );
    onStep(index);
  }

  first.addEventListener("click", () => show(0));
  prev.addEventListener("click", () => show(Number(slider.value) - 1));
  next.addEventListener("click", () => show(Number(slider.value) + 1));
  end.addEventListener("click", () => show(last));
  slider.addEventListener("input", () => show(Number(slider.value)));
  show(last);

  const node = h(
    "section",
    { class: "replay", testid: "replay" },
    h("h3", {}, t("replay.title")),
    h("div", { class: "replay-controls" }, first, prev, slider, next, end),
    label,
    h("div", { class: "replay-table", testid: "replay-table" }, grill, players),
    lines,
  );
  return { node, show, step: () => Number(slider.value) };
}
