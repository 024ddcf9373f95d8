// The lobby page: the new-game form and the list of games, both built from /api/options.

import { getJSON } from "./api.js";
import { setupGameList } from "./gamelist.js";
import { setupNewGame } from "./newgame.js";

try {
  const options = await getJSON("/api/options");
  setupNewGame(options, setupGameList(options.presets));
} catch (failure) {
  const error = document.getElementById("form-error");
  error.textContent = `The lobby could not load: ${failure.message}`;
  error.hidden = false;
}
