// The coach, for a seated person who turns it on (remembered by this browser): before a
// move that gives away at least the chosen amount of win chance (from an inaccuracy, a
// mistake — the default — or a blunder on), the page says so in one sentence and asks:
// play it anyway, or choose again. It never plays for you. The values come from the server
// ({type: "coach"}: the player to move only), asked for as soon as it is your move, so the
// check is ready when you choose; a move chosen before they arrive waits for them.

import { labelBadge, LABELS } from "./analysis.js";
import { fill, h } from "./dom.js";
import { percent, t } from "./i18n.js";
import * as saved from "./storage.js";
import { actionLabel } from "./words.js";

/** The labels a warning may start from, and the words of each choice. */
export const WARN_FROM = ["inaccuracy", "mistake", "blunder"];
const FROM_WORDS = {
  inaccuracy: "coach.from.inaccuracy",
  mistake: "coach.from.mistake",
  blunder: "coach.from.blunder",
};

/** What the coach says of `choice` (a choice of the coach message), `best` being the best one. */
export function warning(choice, best) {
  if (choice.busts) {
    return t(choice.action === "stop" ? "coach.busts_stop" : "coach.busts_keep", { reason: choice.busts });
  }
  return t("coach.costly", {
    count: Math.round(choice.cost * 100),
    action: actionLabel(best.action), // as its button says it ("keep W" was heard as letters)
    best: percent(best.value),
    chosen: percent(choice.value),
  });
}

/**
 * `setup` is where the switch goes (shown to seated people only), `panel` where a warning
 * shows; `ask()` sends the request (false when offline).
 */
export function createCoach({ setup, panel, ask }) {
  let settings = saved.coachSettings(WARN_FROM);
  let seq = null; // the state version the advice below is for
  let asked = false; // for that version
  let advice = null; // {best, choices: Map(action → choice)} once heard
  let pending = null; // a move chosen before the advice came: [action, play]
  let mine = false; // the seated person is to move, with a choice to make

  const toggle = h("input", { type: "checkbox", testid: "coach-toggle", checked: settings.on });
  const from = h(
    "select",
    { testid: "coach-threshold", "aria-label": t("coach.from"), title: t("coach.from"), disabled: !settings.on },
    WARN_FROM.map((label) => h("option", { value: label }, t(FROM_WORDS[label]))),
  );
  from.value = settings.from;
  const changed = () => {
    settings = { on: toggle.checked, from: from.value };
    saved.saveCoach(settings);
    from.disabled = !settings.on;
    hide();
    askIfUseful();
  };
  toggle.addEventListener("change", changed);
  from.addEventListener("change", changed);
  // What the coach does, behind a button of its own (a tooltip is no reading for a keyboard
  // or a phone): a popover, closed by Escape or a tap elsewhere.
  const about = h("div", { id: "coach-about", class: "about-popover", popover: "auto", testid: "coach-about" }, t("coach.about"));
  const aboutButton = h(
    "button",
    { type: "button", class: "btn small quiet", popovertarget: "coach-about", testid: "coach-about-button", "aria-label": t("coach.about_button") },
    "?",
  );
  fill(setup, h("label", { class: "toggle" }, toggle, h("span", {}, t("coach.toggle"))), aboutButton, about, from);

  function askIfUseful() {
    if (settings.on && mine && !asked) asked = ask();
  }

  function hide() {
    panel.hidden = true;
    panel.replaceChildren();
  }

  // Play the move, or warn first when it costs at least the chosen amount.
  function check(action, play) {
    const choice = advice.choices.get(action);
    if (!choice || LABELS.indexOf(choice.label) < LABELS.indexOf(settings.from)) {
      play();
      return;
    }
    const sentence = warning(choice, advice.choices.get(advice.best));
    // "Choose again" takes the focus, described by the warning: heard once, with it (the panel
    // was an alert, its buttons read out with the sentence, then again as one took the focus)
    const button = (words, testid, kind, onClick, describedby = null) =>
      h("button", { type: "button", class: `btn ${kind}`, testid, "aria-describedby": describedby, on: { click: onClick } }, t(words));
    const before = document.activeElement; // the move's control: the focus goes back to it
    const again = () => {
      hide();
      if (before?.isConnected) before.focus();
    };
    fill(
      panel,
      h("p", { id: "coach-sentence" }, labelBadge(choice.label), " ", h("span", { testid: "coach-text" }, sentence)),
      h(
        "div",
        { class: "buttons" },
        button("coach.again", "coach-again", "primary", again, "coach-sentence"),
        button("coach.anyway", "coach-anyway", "", () => {
          hide();
          play();
        }),
      ),
    );
    panel.dataset.action = action;
    panel.hidden = false;
    panel.querySelector("[data-testid=coach-again]").focus(); // heard with the warning
  }

  return {
    /** On every state drawn: `isMine` when the seated person is to move; `seated` shows the switch. */
    update(state, isMine, seated) {
      setup.hidden = !seated;
      if (state.seq !== seq) {
        [seq, asked, advice, pending] = [state.seq, false, null, null];
        hide();
      }
      mine = isMine && state.actions.length > 1; // one action: nothing to choose
      askIfUseful();
    },

    /** The server's values of the current choices. */
    hear(message) {
      if (message.seq !== seq) return;
      advice = { best: message.best, choices: new Map(message.choices.map((choice) => [choice.action, choice])) };
      if (pending) {
        const [action, play] = pending;
        pending = null;
        check(action, play);
      }
    },

    /** The server will not coach now (not this seat's move after all): moves go as they are. */
    refused() {
      const waiting = pending;
      pending = null;
      if (waiting) waiting[1]();
    },

    /** `play()` sends the move `action` now, or once confirmed. */
    guard(action, play) {
      hide();
      if (!settings.on || !mine) {
        play();
      } else if (advice) {
        check(action, play);
      } else {
        pending = [action, play];
        askIfUseful();
        if (!asked) this.refused(); // offline: the move fails as it would without the coach
      }
    },
  };
}
