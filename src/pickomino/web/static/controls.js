// The buttons of the person to move: Roll, Stop and Hint, and the tiles to choose from
// when a turn ends with several claims. Keeping dice is done by tapping the dice.

import { fill, h } from "./dom.js";
import { t } from "./i18n.js";
import { tile, wormsOn } from "./pieces.js";
import { roving } from "./roving.js";
import { actionLabel } from "./words.js";

/**
 * `actions` are the legal action names; `busy` is true while an action is on its way (so
 * a double tap cannot send it twice); `act(name)` sends one; `askHint()` asks the solver
 * (no Hint button without it: a rated game).
 */
export function renderControls(node, { table, seats, actions, busy, act, askHint }) {
  const can = (action) => actions.includes(action);
  const claims = actions.filter((a) => a.startsWith("take ") || a.startsWith("steal "));
  // With tiles to choose from, the turn can only end: no Roll or Stop to grey out.
  fill(
    node,
    claims.length
      ? roving(
          h(
            "div",
            { class: "claims", testid: "claims" },
            claims.map((action) => claimButton(action, table, seats, busy, act)),
          ),
          t("claim.group"),
        )
      : null,
    h(
      "div",
      { class: "buttons" },
      claims.length ? null : button(actionLabel("roll"), "roll-button", can("roll"), busy, () => act("roll"), "primary"),
      claims.length ? null : button(actionLabel("stop"), "stop-button", can("stop"), busy, () => act("stop")),
      askHint ? button(t("controls.hint"), "hint-button", !busy, false, askHint, "quiet") : null,
    ),
  );
}

// `waiting`: a move is on its way; the button is greyed, yet keeps a focus (aria-disabled, not
// disabled, which would drop it to the page's body) and `act` does nothing meanwhile.
function button(label, testid, enabled, waiting, onClick, kind = "") {
  return h(
    "button",
    {
      type: "button",
      class: `btn ${kind}`,
      testid,
      disabled: !enabled,
      "aria-disabled": waiting ? "true" : null,
      on: { click: onClick },
    },
    label,
  );
}

// "steal 27" names the player it is taken from, read from the top of the stacks.
function claimButton(action, table, seats, busy, act) {
  const [verb, text] = action.split(" ");
  const number = Number(text);
  const victim = table.stacks.findIndex((stack) => stack.at(-1) === number);
  const caption = verb === "steal" ? t("claim.steal_from", { name: seats[victim]?.name }) : t("claim.take");
  return h(
    "button",
    {
      type: "button",
      class: `claim ${verb}`,
      testid: "claim",
      data: { action },
      "aria-disabled": busy ? "true" : null,
      on: { click: () => act(action) },
    },
    tile(number, wormsOn(number)),
    h("span", { class: "caption" }, caption),
  );
}
