// The analysis page: a game record from a file (one written by `pickomino selfplay --save`,
// `play`, or downloaded from a game here) is sent to the server, which replays and reviews
// it; the page shows the worms over the turns, the replay and the Analysis, as a game's end
// panel does.

import { postJSON } from "./api.js";
import { fill, h } from "./dom.js";
import { gameReport } from "./end.js";
import { loadWords, t } from "./i18n.js";
import { onJSONFile } from "./files.js";
import { notice, setupNotice } from "./notice.js";

await loadWords();
setupNotice();
const input = document.getElementById("record-file");
const status = document.getElementById("analyse-status");
const report = document.getElementById("analyse-report");

onJSONFile(input, {
  notJSON: (file) => {
    report.hidden = true;
    notice(t("analyse.not_json", { name: file.name }));
  },
  onRecord: async (record, file) => {
    report.hidden = true;
    // the moves and what they need; a record's meta (an annotated one's review) stays home
    const { format, version, rules, seats, start_player, moves } = record ?? {};
    status.textContent = t("analysis.loading");
    let answer;
    try {
      answer = await postJSON("/api/analysis", { format, version, rules, seats, start_player, moves });
    } catch (failure) {
      status.textContent = "";
      notice(t("analyse.failed", { name: file.name, why: failure.message }));
      return;
    }
    status.textContent = t("analyse.loaded", { name: file.name });
    fill(
      report,
      h("h2", { tabindex: "-1" }, file.name),
      h("div", { class: "end-body" }, ...gameReport(answer.frames, answer.seats, null, async () => answer.review)),
    );
    report.hidden = false;
    report.querySelector("[data-testid=analysis-open]").click(); // the review is here already
  },
});
input.disabled = false; // a file chosen from now on is heard
