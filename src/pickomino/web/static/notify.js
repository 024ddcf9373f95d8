// A browser notification when it becomes your turn while this tab is hidden: only after the
// person asked for it with the header's button (the permission is never asked on load), and
// only where the browser has notifications.

import { t } from "./i18n.js";
import * as saved from "./storage.js";

/** Sets up `button`; returns `yourTurn(mine, names)`, to call with every state drawn. */
export function setupNotify(button) {
  const supported = "Notification" in window;
  let wasMine = false;

  function showButton() {
    button.hidden = !supported || Notification.permission === "denied" || (saved.notifyOn() && Notification.permission === "granted");
  }

  button.addEventListener("click", async () => {
    const permission = await Notification.requestPermission();
    saved.saveNotify(permission === "granted");
    showButton();
  });
  showButton();

  return (mine, names) => {
    const becameMine = mine && !wasMine;
    wasMine = mine;
    if (!becameMine || !document.hidden || !supported) return;
    if (!saved.notifyOn() || Notification.permission !== "granted") return;
    const note = new Notification(t("notify.your_turn", { game: t("game.name") }), { body: names, tag: location.pathname });
    note.addEventListener("click", () => window.focus());
  };
}
