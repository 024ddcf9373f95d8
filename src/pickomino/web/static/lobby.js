// The lobby page: this browser's profile, the new-game form and the list of games (both
// built from /api/options).

import { getJSON } from "./api.js";
import { setupGameList } from "./gamelist.js";
import { loadWords, t } from "./i18n.js";
import { setupProfilePanel } from "./myprofile.js";
import { setupNewGame } from "./newgame.js";

await loadWords();
setupProfilePanel(document.getElementById("profile-panel"));
try {
  const options = await getJSON("/api/options");
  setupNewGame(options, setupGameList(options.presets));
} catch (failure) {
  const error = document.getElementById("form-error");
  error.textContent = t("lobby.load_failed", { why: failure.message });
  error.hidden = false;
}
