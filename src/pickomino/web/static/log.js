// The game log in words. Each state carries the whole log, so only the new lines are
// added; the list follows the newest line unless the reader has scrolled back.

import { fill, h } from "./dom.js";

export function createLog(list) {
  let shown = 0;
  return function update(lines) {
    if (lines.length < shown) {
      fill(list);
      shown = 0;
    }
    const following = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    // The server indents event lines under their "Turn N - Name" heading.
    list.append(
      ...lines
        .slice(shown)
        .map((line) =>
          h("li", { class: line.startsWith(" ") ? "event" : "heading", testid: "log-line" }, line.trim()),
        ),
    );
    shown = lines.length;
    if (following) list.scrollTop = list.scrollHeight;
  };
}
