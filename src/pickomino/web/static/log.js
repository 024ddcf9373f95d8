// The game log in words, kept up to date from the entries each state brings (events as
// data, worded here); the list follows the newest line unless the reader has scrolled back.

import { h, twin } from "./dom.js";
import { describeEntry, rankingLines } from "./events.js";
import { cited } from "./words.js";

/** The lines of one entry: a turn's heading, an event, or the end with the ranking; the dice
 * seen as "1 2 W" and heard as faces. */
export function entryLines(entry, names) {
  const { text, rule, heading } = describeEntry(entry, names);
  const heard = describeEntry(entry, names, { spoken: true }).text;
  const line = (kids, kind) => h("li", { class: kind, testid: "log-line" }, kids);
  const lines = [line(cited(twin(text, heard), rule), heading ? "heading" : "event")];
  if (entry.type === "game_over")
    lines.push(...rankingLines(entry.ranking, entry.tie_break, names).map((text) => line(text, "event")));
  return lines;
}

export function createLog(list) {
  let shown = 0;
  // `entries` are the log from entry number `start` on (the server sends only new entries
  // after the first state); returns false when entries are missing, so the caller asks for
  // a sync. `names` are the players'.
  return function update(entries, start, names) {
    if (start === 0) {
      list.replaceChildren();
      shown = 0;
    } else if (start > shown) {
      return false;
    }
    const following = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    list.append(...entries.slice(shown - start).flatMap((entry) => entryLines(entry, names)));
    shown = start + entries.length;
    if (following) list.scrollTop = list.scrollHeight;
    return true;
  };
}
