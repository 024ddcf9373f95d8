// One score sheet: draws the server's view of it (grill, stacks, whose turn, the log, the
// end) and enters the current player's result with one tap: a face-up grill tile taken, a
// top tile stolen, or Bust. Only the results the server offers are tappable (a tap on any
// other tile says why it cannot be had), and the server applies the rules; this page only
// shows and asks.

import { createAnnouncer, say } from "./announce.js";
import { fill, h, inOfflineApp } from "./dom.js";
import { describeEntry } from "./events.js";
import { saveJSON } from "./files.js";
import { t } from "./i18n.js";
import { setupKeys } from "./keys.js";
import { createLog } from "./log.js";
import { notice } from "./notice.js";
import { tile, wormsOn } from "./pieces.js";
import { rankingList } from "./ranking.js";
import { roving } from "./roving.js";
import { renderGrill, renderPlayers } from "./table.js";

const $ = (id) => document.getElementById(id);

/** Shows the sheet that `api` (sheetlinks.js) reaches and keeps it; `onView(view)` runs after
 * every view drawn. */
export async function openSheet(api, onView) {
  const root = $("sheet");
  const updateLog = createLog($("log"));
  const announce = createAnnouncer($("announcer")); // each entry said, as the log says it
  let view = null;
  let busy = false; // a change is on its way: a second tap waits for its answer
  let drawn = 0; // views drawn, so that a late answer cannot draw over a newer view

  // The sheet this page shows, sent with a change: a page out of date is refused (409).
  const seenNow = () => ({ count: view.count, revision: view.revision });

  // `undone`: the entries an Undo just took back, seen beside the buttons until the next
  // view and said first (the log just loses them; the turn they reopen is said after).
  function show(next, undone = []) {
    view = next;
    drawn += 1;
    render(view);
    updateLog(view.log, 0, view.names); // the whole log each time: it follows the newest line
    const words = undone.filter((entry) => entry.type !== "turn").map((entry) => describeEntry(entry, view.names));
    const line = words.length ? t("keeper.undone", { what: words.map((word) => word.text).join(" · ") }) : "";
    $("undone").textContent = line;
    $("undone").hidden = !line;
    if (line) say($("announcer"), [line]);
    announce({ entries: view.log, start: 0, names: view.names, table: view.table.over ? null : view.table });
    onView(view);
  }

  // After an entry (or undo, redo) the tapped control may be gone or disabled: the focus goes
  // to who plays now, or to the end's heading, never to the page's body.
  function followFocus() {
    const now = document.activeElement;
    if (now && now !== document.body && now.isConnected && !now.disabled && now.getClientRects().length) return;
    (view.table.over ? $("end").querySelector("h2") : $("turn-who")).focus();
  }

  async function change(what, body) {
    if (busy) return;
    busy = true;
    root.classList.add("busy");
    const seen = view.revision;
    const before = view.log;
    try {
      const next = await api.post(what, body);
      show(next, what === "undo" ? before.slice(next.log.length) : []);
    } catch (failure) {
      await refused(failure, seen);
    } finally {
      busy = false;
      root.classList.remove("busy");
      followFocus();
    }
  }

  // A refusal changed nothing on the server, but this page may have been out of date
  // (a double tap, another phone): show the sheet as it is now, and say so if it changed.
  async function refused({ message, rule }, seen) {
    try {
      show(await api.get());
    } catch (failure) {
      notice(t("keeper.reload_failed", { refusal: message, why: failure.message }), rule);
      return;
    }
    if (view.revision !== seen) notice(t("keeper.not_entered"));
    else notice(message, rule);
  }

  // Tiles and buttons carry their result in data-entry: one listener for all of them. Any
  // other tile cannot be the current player's result: say why.
  root.addEventListener("click", (event) => {
    const target = event.target.closest("[data-entry]");
    if (target && !target.disabled) change("entries", { entry: target.dataset.entry, ...seenNow() });
    else if (!target && view && !view.table.over) {
      const tile = event.target.closest(".tile[data-tile]");
      if (tile) notice(...whyNot(tile, view));
    }
  });
  root.addEventListener("keydown", (event) => {
    if ((event.key === "Enter" || event.key === " ") && event.target.matches(".tile[data-entry]")) {
      event.preventDefault();
      event.target.click();
    }
  });
  // The sheet as a file (the record format): opened again here, on a server's keeper or in the
  // offline app, and read by `pickomino analyse`.
  $("export").addEventListener("click", async () => {
    try {
      saveJSON(await api.get("record"), `pickomino-sheet-${view.id}.json`);
    } catch (failure) {
      notice(failure.message, failure.rule);
    }
  });
  // With the sheet seen, so a stale page cannot undo or redo what another phone entered.
  $("undo").addEventListener("click", () => change("undo", seenNow()));
  $("redo").addEventListener("click", () => change("redo", seenNow()));
  // B enters a bust, U undoes, Y redoes: as the buttons do, when they can.
  const press = (node) => node && !node.disabled && node.click();
  setupKeys($("help-open"), [
    { keys: ["b"], words: "keys.bust", run: () => press($("entries").querySelector("[data-testid=bust-button]")) },
    { keys: ["u"], words: "keys.undo", run: () => press($("undo")) },
    { keys: ["y"], words: "keys.redo", run: () => press($("redo")) },
  ]);
  // Another phone may keep the same sheet: look again when this one wakes up.
  document.addEventListener("visibilitychange", async () => {
    if (document.hidden || !view) return;
    const before = drawn;
    const next = await api.get().catch(() => null);
    if (next && drawn === before && !busy) show(next);
  });

  try {
    show(await api.get());
  } catch (failure) {
    root.hidden = true;
    $("missing-text").textContent = failure.message;
    $("missing").hidden = false;
  }
}

function render(view) {
  const { table, names, options } = view;
  const over = table.over;
  const who = names[table.current];
  Object.assign($("sheet").dataset, {
    count: view.count,
    current: over ? "" : table.current,
    turn: table.turn,
    over,
  });
  $("keeper-title").textContent = names.join(" · ");
  const title = t("keeper.doc_title", { game: t("game.name") });
  document.title = `${over ? t("keeper.over") : t("keeper.to_play", { name: who })} · ${title}`;

  renderGrill($("grill"), table);
  renderPlayers(
    $("players"),
    table,
    names.map((name) => ({ name })),
    { current: over ? null : table.current },
  );
  for (const option of options) {
    if (option.kind === "take") offer($("grill").querySelector(`[data-tile="${option.tile}"]`), option, view);
    if (option.kind === "steal")
      offer($("players").querySelector(`[data-testid=stack-top][data-tile="${option.tile}"]`), option, view);
  }
  roving($("grill"), t("claim.group")); // sixteen tiles offered: one Tab stop, the arrows along

  $("turn-card").hidden = over;
  renderTurn(view); // with no options left at the end: no entry buttons either
  $("undo").disabled = !view.can_undo;
  $("redo").disabled = !view.can_redo;
  renderLastTurn(over ? [] : view.log, names); // at the end the ranking says it all

  const end = $("end");
  end.hidden = !over;
  if (over)
    fill(
      end,
      h("h2", { tabindex: "-1" }, t("keeper.over")),
      rankingList(table, names),
      h("a", { class: "btn", href: inOfflineApp() ? "./" : "/keeper", testid: "new-sheet" }, t("keeper.new_game")),
    );
}

// Why a tile that is not offered cannot be the current player's result: [text, rule].
function whyNot(node, { table, names }) {
  const number = Number(node.dataset.tile);
  const who = names[table.current];
  const owner = table.stacks.findIndex((stack) => stack.includes(number));
  const ownerName = owner >= 0 ? names[owner] : null;
  if (node.dataset.where === "down") return [t("keeper.why.face_down", { tile: number }), "R16"];
  if (owner === table.current) return [t("keeper.why.own", { tile: number, name: who }), "R11"];
  if (owner >= 0 && table.stacks[owner].at(-1) !== number)
    return [t("keeper.why.under", { tile: number, name: ownerName }), "R14"];
  if (owner >= 0) return [t("keeper.why.in_stack", { tile: number, name: ownerName }), null];
  return [t("keeper.why.not_this_turn", { tile: number, name: who }), null];
}

/** A result the current player may have got, in words: "Bob stole 27 from Ann". */
function optionText(option, { table, names }) {
  const entry = { type: option.kind === "take" ? "took" : "stole", ...option, seat: table.current, total: 0 };
  return describeEntry(entry, names).text;
}

// A tile the current player may have got becomes a button for that result.
function offer(node, option, view) {
  node.dataset.entry = option.entry;
  node.classList.add("offered");
  node.setAttribute("role", "button");
  node.setAttribute("tabindex", "0");
  node.setAttribute("aria-label", optionText(option, view));
}

function renderTurn(view) {
  const { table, options, names } = view;
  const who = names[table.current];
  const steals = options.filter((option) => option.kind === "steal");
  const bust = options.find((option) => option.kind === "bust");
  $("turn-card").className = `card turn-card seat-${table.current}`; // in the player's colour
  fill(
    $("turn-who"),
    h("span", { class: "swatch" }),
    h("strong", {}, t("keeper.to_play", { name: who })),
    h("span", { class: "muted" }, " · ", t("keeper.turn", { turn: table.turn })),
  );
  $("turn-help").textContent = t(steals.length ? "keeper.help_steal" : "keeper.help", { name: who });
  fill(
    $("entries"),
    steals.map((option) => {
      const caption = optionText(option, view);
      return h(
        "button",
        {
          type: "button",
          class: "claim steal",
          testid: "option",
          data: { entry: option.entry },
          "aria-label": caption,
        },
        tile(option.tile, wormsOn(option.tile)),
        h("span", { class: "caption" }, caption),
      );
    }),
    bust
      ? h(
          "button",
          { type: "button", class: "btn bust", testid: "bust-button", data: { entry: bust.entry } },
          t("keeper.bust", { name: who }),
        )
      : null,
  );
}

// The newest turn in words, next to Undo, so a wrong tap is seen (and undone) at once.
function renderLastTurn(log, names) {
  const start = log.findLastIndex((entry) => entry.type === "turn");
  const box = $("last-turn");
  box.hidden = start < 0;
  if (start >= 0)
    fill(
      box,
      h("strong", {}, describeEntry(log[start], names).text),
      log.slice(start + 1).map((entry) => [" · ", describeEntry(entry, names).text]),
    );
}
