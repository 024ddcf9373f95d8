// The game's clocks as the page shows them. The server alone keeps time: a state says when
// the running clock runs out (a deadline, in the server's time) and what time it was on the
// server as the state left (`now`). The page counts down from the difference, on its own
// clock, so a browser whose clock is wrong still shows the right time left; it never tells
// the server anything about time.

import { h } from "./dom.js";
import { duration, t } from "./i18n.js";

let offset = 0; // the server's time minus this browser's, in seconds, from the last state
const LOW = 10; // seconds left from which a clock is marked as running low
const SAID_AT = [30, 10]; // seconds left at which a player hears their own clock

/** Takes the server's time from a state (its `now`), as it arrives. */
export function syncTime(state) {
  offset = state.now - Date.now() / 1000;
}

/** Seconds left until `deadline` (server time), never below zero. */
export function timeLeft(deadline) {
  return Math.max(0, deadline - (Date.now() / 1000 + offset));
}

/** 75.2 → "1:16", 3725 → "1:02:05": a clock's face (rounded up: 0:00 only at the end). */
export function clockFace(seconds) {
  const whole = Math.ceil(seconds);
  const [h, m, s] = [Math.floor(whole / 3600), Math.floor((whole % 3600) / 60), whole % 60];
  const pad = (n) => String(n).padStart(2, "0");
  return h ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

/** A time control in words: "1 min a turn", "5 min a game + 10 s a turn". */
export function controlText(clock) {
  if (clock.per_turn != null) return t("clock.per_turn", { time: duration(clock.per_turn) });
  return t("clock.bank", { bank: duration(clock.bank), increment: duration(clock.increment) });
}

/**
 * A seat's clock, or null when it has none to show: the running one (counting down: its
 * `data-deadline` is read by tick()), else the seat's bank, if the game has banks.
 */
export function seatClock(clock, seat) {
  if (!clock) return null;
  if (clock.seat === seat && clock.deadline != null) {
    const node = h("span", { class: "clock running", testid: "clock", role: "timer", data: { deadline: clock.deadline } });
    showLeft(node);
    return node;
  }
  if (!clock.banks) return null;
  const face = clockFace(clock.banks[seat]);
  return h("span", { class: "clock", testid: "bank", title: t("player.bank", { time: face }) }, face);
}

function showLeft(node) {
  const left = timeLeft(Number(node.dataset.deadline));
  node.textContent = clockFace(left);
  node.title = t("player.clock", { time: node.textContent });
  node.classList.toggle("low", left < LOW);
}

/** Counts every running clock in `root` down, a few times a second. */
export function tick(root) {
  setInterval(() => root.querySelectorAll(".clock.running").forEach(showLeft), 250);
}

/**
 * Returns hear(clock, you), for every state: the player's own running clock is said (through
 * `say`) as it starts, with the time left, and once more at 30 and at 10 seconds left. A timer
 * region is silent for a screen reader, and a clock that runs out unheard hands the turn to a
 * bot: a timing barrier (WCAG 2.2.1). Another player's clock is not said.
 */
export function clockAnnouncer(say) {
  let heard = null; // the deadline said last
  let later = [];
  return function hear(clock, you) {
    const deadline = clock && you !== null && clock.seat === you ? (clock.deadline ?? null) : null;
    if (deadline === heard) return;
    later.forEach(clearTimeout);
    later = [];
    heard = deadline;
    if (deadline === null) return;
    const left = timeLeft(deadline);
    say(t("clock.said_yours", { time: duration(Math.ceil(left)) }));
    later = SAID_AT.filter((at) => left > at + 1).map((at) =>
      setTimeout(() => say(t("clock.said_left", { time: duration(at) })), (left - at) * 1000),
    );
  };
}
