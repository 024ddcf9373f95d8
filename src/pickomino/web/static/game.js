// The table page: connects to the game's WebSocket (with the seat secret from the link or
// remembered on this browser), draws every state the server sends, and sends the moves
// the player taps. The server decides everything; this page only shows and asks.
// A link that gives a seat (an invite, a transfer) is spent: the server sends the seat's new
// secret, for this browser alone, which it keeps; the address bar then shows the bare game
// address (replaced, not a new history entry), so neither copying the address nor the
// history holds the seat.
// In the offline app (play.html#id, see pickomino/offline) the same page plays a solo game kept
// in this browser: its socket is answered here, and what only a server has (profiles, rematches,
// moving the seat, the coach's win chances, the analysis) is left out.

import { createAnnouncer, createSeatAnnouncer, say } from "./announce.js";
import { createCoach } from "./coach.js";
import { clockAnnouncer, seatClock, syncTime, tick } from "./clock.js";
import { fill, h, inOfflineApp, refill } from "./dom.js";
import { showEnd } from "./end.js";
import { renderControls } from "./controls.js";
import { hintLine, renderHint } from "./hint.js";
import { describeError, list, loadWords, seconds, t } from "./i18n.js";
import { inviteList } from "./invites.js";
import { setupKeys } from "./keys.js";
import { createLog } from "./log.js";
import { absentSeats } from "./moderation.js";
import { notice, setupNotice } from "./notice.js";
import { setupNotify } from "./notify.js";
import { moveSeatPanel, profileSeatButton } from "./moveseat.js";
import { claimAsProfile } from "./profilekey.js";
import { setupRematch } from "./rematch.js";
import { connect } from "./socket.js";
import * as saved from "./storage.js";
import { highlightSameFaces, mayVote, renderDice, renderGrill, renderPlayers } from "./table.js";
import { botLabel, turnText } from "./words.js";

const $ = (id) => document.getElementById(id);
// Why the server closed the connection (its close codes), as the connection indicator says it.
const DROPPED = {
  1008: "connection.flood",
  4408: "connection.fell_behind",
  4410: "connection.idle",
  4429: "connection.too_many",
};
const STATUS = { connecting: "connection.connecting", online: "connection.online", closed: "connection.closed" };
const root = $("game");
const offline = inOfflineApp();
const gameId = decodeURIComponent(
  offline ? location.hash.slice(1) : location.pathname.replace(/\/+$/, "").split("/").pop(),
);
const params = new URLSearchParams(location.search);
const kept = saved.seatToken(gameId, null); // this browser's secret for the game, if any
const linked = params.get("token"); // a link's: it may give this browser a seat
let token = linked || kept;

let seat = null; // ours, from the welcome; null while watching
let state = null; // the last state received
let busy = false; // an action is on its way: no second one until the answer
let sentFrom = null; // the test id of the control that had the focus as it was sent
let rolledAt = null; // the seq of the roll last drawn, so each roll animates once
let hintSeq = null; // the seq the shown hint belongs to
let lastError = null; // the last refusal, {id, params, rule}
let endShown = false;
let hearRematch = null; // set once the game is over: draws the rematch offers
let arrived = false; // the first state of this page load came (see comeBackOnArrival, sayArrival)
let warnedWaiting = false; // told that we keep the game waiting (once a wait: see warnWaitedOn)
let moveShown = null; // what the move-seat box was drawn for (see renderMoveSeat)
let connectionLost = null; // the connection's last state said: lost or not (null: never online yet)
let engaged = false; // the player has acted or moved the focus into the tray: it follows the game
const updateLog = createLog($("log"));
const announce = createAnnouncer($("announcer"));
const announceSeats = createSeatAnnouncer($("announcer"));
const announceClock = clockAnnouncer((line) => say($("announcer"), [line]));

await loadWords();
// A link to another seat of a game this browser plays already: its seat would replace ours
// here, and ours be lost without a profile (an audit's crafted link). Asked first; the link
// that gave us our seat, opened again, is not another seat.
if (linked && kept && linked !== kept && linked !== saved.spentLink(gameId) && !offline) {
  if (!confirm(t("seat.other_link"))) {
    token = kept;
    params.delete("token");
    const query = params.toString();
    history.replaceState(history.state, "", `${location.pathname}${query ? `?${query}` : ""}${location.hash}`);
  }
}
setupNotice();
setupAnimationToggle();
const notifyTurn = setupNotify($("notify"));
highlightSameFaces($("roll"));
setupShortcuts();
$("tray").addEventListener("focusin", () => (engaged = true));
const coach = createCoach({ setup: $("coach-setup"), panel: $("coach"), ask: () => send({ type: "coach" }) });
const claimed = offline ? null : await claimAsProfile(gameId, token); // a seat not taken yet: as the profile
if (claimed?.token) keep(claimed.token);
tick(root);
// Back in the seat, the panel goes: the focus follows the game from there (it fell to the
// page's body, an audit found).
$("come-back").addEventListener("click", () => {
  engaged = true;
  send({ type: "back" }) || notice(t("table.offline"));
});
const send = connect(socketUrl, () => token, { onMessage, onStatus });
if (claimed?.failure) notice(claimed.failure.message, claimed.failure.rule);

// The seat's secret (null: none) stays in this browser's storage and out of the address;
// if the storage is off, the address keeps it (or a reload would lose the seat).
function keep(secret) {
  token = secret;
  if (secret) saved.seatToken(gameId, secret);
  else saved.forgetToken(gameId);
  const stored = secret && saved.seatToken(gameId, null) === secret;
  if (secret && !stored) params.set("token", secret);
  else params.delete("token");
  const query = params.toString();
  history.replaceState(history.state, "", `${location.pathname}${query ? `?${query}` : ""}${location.hash}`);
}

function socketUrl() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${location.host}/ws/games/${encodeURIComponent(gameId)}`;
}

function onMessage(message) {
  switch (message.type) {
    case "welcome":
      seat = message.seat;
      if (message.token && token) saved.spentLink(gameId, token); // the link that gave it
      if (seat !== null) keep(message.token ?? token); // a new secret when the link gave the seat
      root.dataset.seat = seat ?? "";
      $("watching").hidden = seat !== null;
      break;
    case "change": // what changed since the version this page holds
      if (!state || message.base !== state.v) {
        send({ type: "sync" }); // a version missed: the whole state again
        break;
      }
      onMessage({ ...state, ...message.set, table: { ...state.table, ...message.table }, ...stamps(message), type: "state" });
      break;
    case "state":
      state = message;
      busy = false;
      syncTime(message);
      comeBackOnArrival();
      render();
      sayArrival();
      break;
    case "presence": // a player came or went
      if (state) {
        message.online.forEach((online, n) => Object.assign(state.seats[n] ?? {}, { online }));
        renderSeats();
      }
      break;
    case "hint":
      if (state && message.seq === state.seq) {
        hintSeq = message.seq;
        renderHint($("hint"), message.rows);
        say($("announcer"), [hintLine(message.rows)]); // the table is not a live region
      }
      break;
    case "coach":
      coach.hear(message);
      break;
    case "rematch":
      hearRematch?.(message.offer);
      break;
    case "error":
      // Before any state, an error is the refusal of the connection itself (bad token,
      // unknown game): the fatal panel shows it once the socket closes.
      if (message.id === "coach_not_yours") {
        coach.refused();
        break;
      }
      // The server's searches were full (an address's share, or all): the coach's advice will
      // not come, and a move waiting for it goes as it is (a review: it waited for ever).
      if (message.id === "too_many_lookups" || message.id === "server_busy") coach.refused();
      if (message.id === "seat_moved") {
        watchFromNowOn(message);
        break;
      }
      lastError = message;
      busy = false;
      if (state) {
        notice(describeError(message), message.rule);
        render();
      }
      break;
  }
}

// What a change brings besides the fields it sets: its version, the new log entries, the time.
const stamps = ({ v, log_start, log, now }) => ({ v, log_start, log, now });

// The bar shows every try and its countdown; a screen reader hears only that the connection
// was lost (and why) and that it is back (a status region re-said at each try chattered on
// for as long as the server was gone).
function onStatus(status, wait, code) {
  const box = $("connection");
  box.dataset.status = status;
  box.dataset.code = code ?? "";
  const why = t(DROPPED[code] ?? "connection.offline");
  box.textContent =
    status === "offline" ? t("connection.retry", { why, seconds: seconds(Math.ceil(wait / 1000)) }) : t(STATUS[status]);
  const lost = status === "offline" || status === "closed";
  if (status !== "connecting" && lost !== connectionLost) {
    if (lost || connectionLost !== null) $("connection-said").textContent = status === "offline" ? why : t(STATUS[status]);
    connectionLost = lost;
  }
  if (status === "closed") showFatal();
}

// A bad or spent link, or an unknown game: say so, and do not try again. A link spent by
// this browser itself (an invite opened again) gives way to the secret it keeps; a kept
// secret that no longer works is forgotten, so the plain game link opens to watch, which
// the panel offers.
function showFatal() {
  if (lastError?.id === "seat_link_used" && kept && kept !== token) {
    location.replace(location.pathname);
    return;
  }
  if (token === kept) saved.forgetToken(gameId);
  $("fatal-text").textContent = lastError ? describeError(lastError) : t("table.closed");
  say($("announcer"), [$("fatal-text").textContent]); // heard, not only shown (an audit)
  $("fatal-watch").hidden = !["seat_link_used", "bad_token"].includes(lastError?.id);
  $("fatal-watch").href = location.pathname;
  $("fatal").hidden = false;
}

// The seat went to another device (a transfer, or the profile's code there): watch.
function watchFromNowOn(message) {
  seat = null;
  keep(null);
  root.dataset.seat = "";
  $("watching").hidden = false;
  notice(describeError(message));
  if (state) render();
}

// A move the person chose: the coach, if on, may warn first and ask to confirm.
function act(action) {
  engaged = true;
  if (!busy) coach.guard(action, () => play(action));
}

// R rolls, S stops, 1–5 keep that face and 6 or W the worms, H asks for the hint (in a rated
// game, says there is none): each only when the move is the player's to make now.
function setupShortcuts() {
  const legal = (action) => seat !== null && state?.table.current === seat && state.actions.includes(action);
  const move = (action) => legal(action) && act(action);
  const keep = (key) => move(`keep ${key === "6" || key === "w" ? "W" : key}`);
  setupKeys(
    $("help-open"),
    [
      { keys: ["r"], words: "keys.roll", run: () => move("roll") },
      { keys: ["s"], words: "keys.stop", run: () => move("stop") },
      { keys: ["1", "2", "3", "4", "5", "6", "w"], words: "keys.keep", run: keep },
      { keys: ["h"], words: "keys.hint", run: hintKey },
      { keys: ["ArrowLeft", "ArrowRight"], words: "keys.arrows" }, // roving.js
    ],
    { announcing: true },
  );
}

// H asks for the hint on the player's turn; in a rated game it says why there is none (the
// keyboard help lists H for every game).
function hintKey() {
  if ($("controls").hidden) return;
  if (state.rated) notice(describeError({ id: "no_help_rated" }));
  else askHint();
}

function play(action) {
  if (busy) return;
  if (!send({ type: "act", action, seq: state.seq })) {
    notice(t("table.offline"));
    return;
  }
  busy = true;
  sentFrom = document.activeElement?.dataset?.testid ?? null;
  render();
}

// Opening (or reloading) a seat's link is coming back: a bot that plays the seat while its
// person was away gives it back. A reconnection of a page left open (after a server restart,
// say) is not: that person takes the seat back with the button.
function comeBackOnArrival() {
  if (!arrived && seat !== null && state.seats[seat]?.away) send({ type: "back" });
}

// A page arriving says nothing of the table (history, not news), except at a rematch it went
// to from the last game's end: that it started, and whose turn it is (an audit heard nothing).
function sayArrival() {
  if (!arrived && saved.arrivingFromRematch(gameId)) say($("announcer"), [t("rematch.started"), $("turn").textContent]);
  arrived = true;
}

function askHint() {
  if (!send({ type: "hint" })) notice(t("table.offline"));
}

function render() {
  const { table, seats, actions } = state;
  const names = seats.map((s) => s.name);
  const mine = seat !== null && table.current === seat && actions.length > 0;
  Object.assign(root.dataset, {
    seq: state.seq,
    status: state.status,
    phase: table.phase,
    current: table.current,
    turn: table.turn,
    over: table.over,
    awaiting: actions.length ? table.current : "", // a person is to move (a test hook, too)
    yourTurn: mine,
    waiting: busy, // an action of this page's is on its way (a test hook, too)
  });
  $("game-title").textContent = names.join(" · ");
  const title = t("table.title", { game: t("game.name"), names: list(names) });
  document.title = mine ? t("table.title_your_turn", { title }) : title;
  notifyTurn(mine, list(names));

  renderWaiting();
  renderAway();
  warnWaitedOn();
  renderGrill($("grill"), table, { skipUnchanged: true });
  renderSeats();
  $("turn").textContent = turnText(state, seat);
  const clock = runningClock();
  fill($("turn-clock"), clock?.deadline != null ? seatClock(clock, clock.seat) : null);
  $("dice").hidden = table.over || state.status !== "playing"; // no turn being played
  const fresh = table.phase === "keep" && rolledAt !== state.seq;
  if (table.phase === "keep") rolledAt = state.seq;
  renderDice({ roll: $("roll"), kept: $("kept"), total: $("total") }, table, {
    keepable: mine ? actions.filter((a) => a.startsWith("keep ")).map((a) => a.slice(5)) : [],
    keep: mine ? (face) => act(`keep ${face}`) : null,
    waiting: busy,
    fresh,
  });
  const helped = !offline && !state.rated && seat !== null && !table.over; // no help in rated games
  coach.update(state, mine, helped && state.status !== "abandoned");
  $("controls").hidden = !mine;
  if (mine) renderControls($("controls"), { table, seats, actions, busy, act, askHint: state.rated ? null : askHint });
  if (hintSeq !== state.seq) $("hint").hidden = true;
  if (!updateLog(state.log, state.log_start, names)) send({ type: "sync" }); // entries were missed
  const playing = state.status === "playing" && !table.over;
  announce({ entries: state.log, start: state.log_start, names, table: playing ? table : null, you: seat });
  announceClock(clock, seat); // after the moves that started it (an audit heard it first)

  if ((table.over || state.status === "abandoned") && !endShown) {
    endShown = true;
    showEnd($("end"), gameId, state, seat, { analysis: !offline }).then(() => {
      if (params.has("replay")) $("end").scrollIntoView();
    });
  }
  if (state.status === "over" && !hearRematch && !offline) {
    const announceRematch = (line) => say($("announcer"), [line]);
    hearRematch = setupRematch($("rematch"), { gameId, token, seat, names, announce: announceRematch });
  }
  renderMoveSeat();
  followFocus(mine);
}

// The focus follows the game once the player takes part: on the control they most likely
// want next (after Roll the first die they may keep, after keeping Roll, when tiles are
// offered the first tile), else on the turn line (the others play) or the end's heading:
// never lost to the page's body when a redraw removes the control it was on. While the
// answer is on its way it stays on the control that sent the action, drawn again greyed
// (aria-disabled: an audit heard the turn line's stale words between every move and the
// next control). A focus the player put anywhere else stays where it is.
function followFocus(mine) {
  if (!engaged) return;
  const now = document.activeElement;
  const lost = !now || now === document.body || !now.isConnected || !now.getClientRects().length;
  const heading = $("end").hidden ? null : $("end").querySelector("h2");
  if (!lost && now !== $("turn") && now !== heading) return;
  const next = (mine && (busy ? sentControl() : nextControl())) || heading || $("turn");
  if (next !== now) next.focus();
}

// The control that sent the action on its way, drawn again (a row's: its Tab stop).
function sentControl() {
  if (!sentFrom) return null;
  const like = `#tray button[data-testid="${sentFrom}"]`;
  return document.querySelector(`${like}[tabindex='0']`) ?? document.querySelector(like);
}

// A row's Tab stop (roving.js): the tile or die the player was on before a redraw, else its first.
function nextControl() {
  const tray = $("tray");
  return (
    tray.querySelector("[data-testid=claims] button[tabindex='0']:enabled") ??
    tray.querySelector("#roll button.die[tabindex='0']") ??
    tray.querySelector("[data-testid=roll-button]:enabled")
  );
}

// The way into this seat on another device (or into this browser's profile's seat here);
// drawn again only when what it is for changes, so a link made stays on screen.
function renderMoveSeat() {
  if (offline) return; // one browser holds the game
  const holder = seat !== null && token;
  const key = holder ? `seat ${seat} ${token}` : `watch ${state.seats.map((s) => s.profile).join()}`;
  if (key === moveShown) return;
  moveShown = key;
  fill($("move-seat"), holder ? moveSeatPanel(gameId, token) : profileSeatButton(gameId, state.seats, keep));
}

function renderSeats() {
  const { table } = state;
  const current = state.status === "playing" && !table.over ? table.current : null;
  const onVote = seat === null ? null : (n) => send({ type: "vote", seat: n }) || notice(t("table.offline"));
  renderPlayers($("players"), table, state.seats, {
    you: seat,
    current,
    clock: runningClock(),
    onVote,
    skipUnchanged: true,
  });
  announceSeats(state.seats, { you: seat, voting: (n) => mayVote(state.seats, n, { you: seat, current }) });
}

// The clocks while the game is played (banks stay on the cards of a finished game otherwise).
const runningClock = () => (state.status === "playing" ? state.clock : null);

// While a bot plays for this page's person (away), say so and offer the seat back.
// Heard once as it begins (an audit: after a reconnect only the bot's moves were said, and
// nothing told of the button 9 tabs away): the panel's words and the button's name.
function renderAway() {
  const away = seat !== null && state.status === "playing" && state.seats[seat].away;
  const begins = away && $("away").hidden;
  $("away").hidden = !away;
  if (away) $("away-text").textContent = t("away.you", { bot: botLabel(state.takeover) });
  if (begins) say($("announcer"), [$("away-text").textContent, $("come-back").textContent]);
}

// Said once a wait (an alert: a screen reader says it at once): we kept a game without a
// clock waiting on our turn so long that the others may now vote a bot in for us.
function warnWaitedOn() {
  const waited = seat !== null && state.seats[seat].waited_on === true;
  if (waited && !warnedWaiting) notice(t("waited_on.you"));
  warnedWaiting = waited;
}

// While people are missing, say who, and show the invite links (of the seats still kept for
// invited people) and what to do about absent people, if this browser made the game.
function renderWaiting() {
  const box = $("waiting");
  box.hidden = state.status !== "open";
  if (box.hidden) return;
  const links = saved.invites(gameId).filter((link) => !state.seats[link.seat].bot && !state.seats[link.seat].open);
  const open = state.seats.some((s) => s.open && !s.claimed);
  refill(
    box, // a seat given to a bot: the focus stays in the box
    h("h2", {}, t("wait.title", { names: state.waiting_for })),
    h(
      "p",
      {},
      [
        t("created.starts_when_taken"),
        open ? t("wait.open_seats") : null,
        t(links.length ? "wait.send_links" : "wait.use_link"),
      ]
        .filter(Boolean)
        .join(" "),
    ),
    links.length ? inviteList(links, (n) => state.seats[n].claimed) : null,
    saved.invites(gameId).length ? absentSeats(gameId, state, token) : null,
  );
}

function setupAnimationToggle() {
  const box = $("animate");
  const apply = () => document.documentElement.classList.toggle("animate", box.checked);
  box.checked = saved.animationOn();
  apply();
  box.addEventListener("change", () => {
    saved.saveAnimation(box.checked);
    apply();
  });
}
