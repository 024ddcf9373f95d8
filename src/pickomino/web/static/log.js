// The game log in words, kept up to date from the lines each state brings; the list
// follows the newest line unless the reader has scrolled back.

import { fill, h } from "./dom.js";

export function createLog(list) {
  let shown = 0;
  // `lines` are the log from line number `start` on (the server sends only new lines after
  // the first state); returns false when lines are missing, so the caller asks for a sync.
  return function update(lines, start) {
    if (start === 0) {
      fill(list);
      shown = 0;
    } else if (start > shown) {
      return false;
    }
    const following = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    // The server indents event lines under their "Turn N - Name" heading.
    list.append(
      ...lines
        .slice(shown - start)
        .map((line) =>
          h("li", { class: line.startsWith(" ") ? "event" : "heading", testid: "log-line" }, line.trim()),
        ),
    );
    shown = start + lines.length;
    if (following) list.scrollTop = list.scrollHeight;
    return true;
  };
}
