// The game's data in words: action names as people say them, and what the turn is about.

import { faceName } from "./pieces.js";

/** "keep W" → "Keep the worms", "steal 27" → "Steal 27", "roll" → "Roll". */
export function actionLabel(action) {
  const [verb, what] = action.split(" ");
  if (verb === "keep") return `Keep the ${faceName(what)}s`;
  return verb[0].toUpperCase() + verb.slice(1) + (what ? ` ${what}` : "");
}

const DOING = {
  roll: ["Your turn: roll the dice", "is about to roll"],
  keep: ["Tap a face to keep all dice showing it", "chooses dice to keep"],
  roll_or_stop: ["Roll the other dice again, or stop", "decides: roll again or stop"],
  claim: ["Choose the tile you take", "chooses a tile"],
};

/** "Turn 12 · Bob chooses dice to keep", or the instruction when it is your move. */
export function turnText(state, you) {
  const { table, seats } = state;
  if (state.status === "open") return "Waiting for everybody to take their seats";
  if (table.over) return `Game over after ${table.turn} turns`;
  if (state.status === "abandoned") return `Abandoned in turn ${table.turn}: nobody played on`;
  const [yours, theirs] = DOING[table.phase];
  const text = table.current === you ? yours : `${seats[table.current].name} ${theirs}`;
  return `Turn ${table.turn} · ${text}`;
}

export const percent = (p) => `${Math.round(p * 100)}%`;

/** plural(1, "move") → "1 move"; plural(3, "die", "dice") → "3 dice". */
export const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The name of the preset these rules are ({flip_returned_highest: true, …} → "short"), if any. */
export const presetName = (rules, presets) =>
  Object.keys(presets).find((name) =>
    Object.entries(rules).every(([key, value]) => presets[name][key] === value),
  );
