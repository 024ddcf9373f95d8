// The game's pieces drawn with inline SVG and CSS: worms, dice and tiles. SVG instead of
// emoji, so they look the same on every device, with or without an emoji font.

import { h, s } from "./dom.js";
import { t } from "./i18n.js";

// A worm in a 24×12 box: a wavy body and an eye.
function wormShape() {
  return s(
    "g",
    { class: "worm-shape" },
    s("path", { d: "M3 8.5C5.5 2.5 9 2.5 11 6.5S16.5 10.5 19.5 5", fill: "none" }),
    s("circle", { class: "eye", cx: 19.6, cy: 4.6, r: 1.1 }),
  );
}

export function wormIcon() {
  return s("svg", { class: "worm", viewBox: "0 0 24 12", "aria-hidden": "true" }, wormShape());
}

const PIPS = {
  1: [[50, 50]],
  2: [
    [29, 29],
    [71, 71],
  ],
  3: [
    [27, 27],
    [50, 50],
    [73, 73],
  ],
  4: [
    [29, 29],
    [71, 29],
    [29, 71],
    [71, 71],
  ],
  5: [
    [27, 27],
    [73, 27],
    [50, 50],
    [27, 73],
    [73, 73],
  ],
};

function dieFace(face) {
  const marks =
    face === "W"
      ? s("g", { transform: "translate(12 30) scale(3.2)" }, wormShape())
      : PIPS[face].map(([cx, cy]) => s("circle", { class: "pip", cx, cy, r: 9 }));
  return s(
    "svg",
    { viewBox: "0 0 100 100", "aria-hidden": "true" },
    s("rect", { class: "die-body", x: 3, y: 3, width: 94, height: 94, rx: 20 }),
    marks,
  );
}

/** A face in words: its number, or the worm. */
export const faceName = (face) => (face === "W" ? t("face.W") : face);

/** A die; a button when `onClick` is given (a face the player may keep). */
export function die(face, { onClick, label, className = "", waiting = false } = {}) {
  const props = {
    class: `die ${face === "W" ? "worm-face " : ""}${className}`,
    testid: "die",
    data: { face },
    "aria-label": label || t("die.showing", { face: faceName(face) }),
  };
  if (onClick) {
    // `waiting`: a move is on its way (greyed, yet it keeps a focus: not `disabled`)
    const button = { ...props, type: "button", "aria-disabled": waiting ? "true" : null, on: { click: onClick } };
    return h("button", button, dieFace(face));
  }
  return h("span", { ...props, role: "img" }, dieFace(face));
}

/**
 * A tile: its number over its worms; `where` is grill, down (turned), taken (gone) or top (of
 * a player's stack: the one that may be stolen, said so to a screen reader).
 */
export function tile(number, worms, { where = "grill", className = "", testid = "tile" } = {}) {
  const label = { grill: "tile.label", down: "tile.label_down", taken: "tile.label_taken", top: "tile.label_top" }[where];
  return h(
    "div",
    {
      class: `tile ${className}`,
      testid,
      data: { tile: number, where },
      role: "img",
      "aria-label": t(label, { tile: number, worms: t("worms", { count: worms }) }),
    },
    h("span", { class: "num" }, String(number)),
    h("span", { class: "worms" }, Array.from({ length: worms }, wormIcon)),
  );
}

/** Worms on a tile (R3): 1 for 21–24, 2 for 25–28, 3 for 29–32, 4 for 33–36. */
export const wormsOn = (number) => Math.floor((number - 21) / 4) + 1;
