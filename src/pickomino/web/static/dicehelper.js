// The dice helper for the real dice: tap the faces just rolled and the ones kept before
// this roll, and the solver on the server says what to keep, or whether to roll again or
// stop, with the odds, for the player whose turn it is on the sheet. The tapped dice are
// cleared when the sheet moves on (an entry, an undo): they belong to one turn.

import { fill, h, keepFocus, whileSending } from "./dom.js";
import { hintLine, renderHint } from "./hint.js";
import { percent, signed, t } from "./i18n.js";
import { notice } from "./notice.js";
import { die, faceName } from "./pieces.js";
import { actionLabel, cited } from "./words.js";

const FACES = ["1", "2", "3", "4", "5", "W"];
const DICE = 8;
// "I kept them" for each face, written out whole.
const KEPT = {
  1: "helper.kept.1",
  2: "helper.kept.2",
  3: "helper.kept.3",
  4: "helper.kept.4",
  5: "helper.kept.5",
  W: "helper.kept.W",
};

/** Builds the helper into `node` for the sheet `api` (sheetlinks.js); returns update(view), to
 * call with every sheet view. */
export function diceHelper(node, api) {
  const dice = { rolled: [], kept: [] };
  const pads = { rolled: pad("rolled", t("helper.rolled")), kept: pad("kept", t("helper.kept_before")) };
  const forWhom = h("span", { testid: "advice-for" });
  const advice = h("div", { class: "advice", testid: "advice", hidden: true });
  // The advice in one sentence for a screen reader: a live region must be there before its
  // words come (the advice's box appears with them, and would be silent), and a whole table
  // read out at once says too much.
  const said = h("p", { class: "visually-hidden", role: "status", testid: "advice-said" });
  const advise = h(
    "button",
    { type: "button", class: "btn primary", testid: "advise-button", on: { click: ask } },
    t("helper.advise"),
  );
  let seen = { count: null, revision: null }; // the sheet as this page shows it

  function pad(which, title) {
    const parts = {
      count: h("span", { class: "pad-count", testid: `${which}-count` }),
      dice: h("div", { class: "dice pad-dice", testid: `${which}-dice` }),
      faces: h(
        "div",
        { class: "pad-faces", testid: `${which}-add` },
        FACES.map((face) =>
          die(face, {
            onClick: () => set(which, [...dice[which], face]),
            label: t("die.add", { face: faceName(face) }),
          }),
        ),
      ),
    };
    parts.clear = h(
      "button",
      {
        type: "button",
        class: "btn small quiet",
        testid: `clear-${which}`,
        on: { click: () => set(which, []) },
      },
      t("helper.clear"),
    );
    parts.node = h(
      "section",
      { class: "dice-pad", testid: `${which}-pad` },
      h("header", { class: "pad-head" }, h("h3", {}, title), parts.count, parts.clear),
      parts.dice,
      parts.faces,
    );
    return parts;
  }

  function set(which, faces) {
    dice[which] = faces;
    advice.hidden = true; // it was about other dice
    said.textContent = "";
    draw();
  }

  // The dice so far, each a button taking it off again; no face to add once all 8 are in. A
  // die tapped away leaves the focus on the pad's next die (or face to add).
  function draw() {
    const full = dice.rolled.length + dice.kept.length >= DICE;
    for (const [which, parts] of Object.entries(pads)) keepFocus(parts.node, () => drawPad(which, parts, full));
  }

  function drawPad(which, parts, full) {
    const faces = dice[which];
    parts.count.textContent = t("dice", { count: faces.length });
    fill(
      parts.dice,
      faces.length
        ? faces.map((face, i) =>
            die(face, {
              className: "small",
              label: t("die.take_off", { face: faceName(face) }),
              onClick: () => set(which, faces.filter((_, j) => j !== i)),
            }),
          )
        : h("span", { class: "placeholder" }, t(which === "rolled" ? "helper.not_rolled" : "dice.nothing_kept")),
    );
    parts.clear.disabled = !faces.length;
    for (const button of parts.faces.children) button.disabled = full;
  }

  // While asking, the button stays focusable (aria-disabled, not disabled: the focus stayed
  // on the page's body, an audit found).
  async function ask() {
    await whileSending(advise, async () => {
      try {
        const report = await api.post("dice", {
          kept: dice.kept.join(""),
          rolled: dice.rolled.length ? dice.rolled.join("") : null,
          ...seen, // advice for the player shown
        });
        said.textContent = "";
        renderAdvice(advice, report, keptFace);
        // on the next frame: the same words again (asked twice) are a change a reader hears
        requestAnimationFrame(() => (said.textContent = adviceLine(report)));
      } catch (failure) {
        notice(failure.message, failure.rule);
      }
    });
  }

  // Following a "keep" advice: the kept face joins the kept dice, ready for the next roll.
  function keptFace(face) {
    dice.kept = [...dice.kept, ...dice.rolled.filter((f) => f === face)];
    set("rolled", []);
  }

  fill(
    node,
    h("summary", { testid: "dice-helper-toggle" }, t("helper.title")),
    h(
      "div",
      { class: "helper-body" },
      h("p", { class: "muted" }, forWhom, " ", t("helper.how")),
      pads.rolled.node,
      pads.kept.node,
      h("div", { class: "buttons" }, advise),
      said,
      advice,
    ),
  );
  draw();

  return function update(view) {
    node.hidden = view.table.over;
    forWhom.textContent = t("helper.for", { name: view.names[view.table.current] });
    if (view.revision !== seen.revision) {
      seen = { count: view.count, revision: view.revision };
      dice.rolled = [];
      dice.kept = [];
      advice.hidden = true;
      said.textContent = "";
      draw();
    }
  };
}

// The offline app advises without win chances (they need the evaluator's network): then
// the turn's odds alone.
const odds = (o) =>
  [
    o.win == null ? null : t("helper.win_chance", { chance: percent(o.win) }),
    t("helper.tile_chance", { chance: percent(o.tile) }),
    t("helper.worms", { worms: signed(o.expected_worms) }),
    t("helper.bust_risk", { risk: percent(o.bust) }),
  ]
    .filter(Boolean)
    .join(" · ");

// The best choice: the whole turn's outlook when nothing is rolled yet, else the first ranked.
const bestOf = (report) => (report.phase === "roll" ? { action: "roll", ...report } : report.choices[0]);

/** The advice in a sentence: the bust, or the best choice with its chance (or worms). */
function adviceLine(report) {
  if (report.phase === "bust") return t("helper.bust", { reason: report.reason });
  const best = bestOf(report);
  return hintLine([{ action: best.action, win: best.win, worms: best.expected_worms }]);
}

// Bust, the outlook of a whole turn (nothing rolled yet), or every choice ranked, the best
// one spelled out above the table.
function renderAdvice(node, report, keptFace) {
  node.hidden = false;
  if (report.phase === "bust") {
    const text = t("helper.bust", { reason: report.reason });
    fill(node, h("p", { class: "advice-best bust", testid: "advice-bust" }, cited(text, report.rule)));
    return;
  }
  const best = bestOf(report);
  const keeps = report.choices.filter((c) => c.action.startsWith("keep "));
  const table = h("div", { class: "hint" });
  renderHint(
    table,
    report.choices.map((c) => ({
      action: c.action,
      win: c.win,
      tile: c.tile,
      worms: c.expected_worms,
      bust: c.bust,
    })),
  );
  fill(
    node,
    h(
      "p",
      { class: "advice-best", testid: "advice-best", data: { action: best.action } },
      h("span", { class: "badge" }, t("hint.best")),
      h("strong", {}, actionLabel(best.action)),
      h("span", { class: "odds" }, odds(best)),
    ),
    report.choices.length > 1 ? table : null,
    keeps.length && report.rolled
      ? h(
          "div",
          { class: "buttons kept-choices" },
          h("span", { class: "muted" }, t("helper.kept_them")),
          keeps.map((c) => {
            const face = c.action.slice(5);
            return h(
              "button",
              {
                type: "button",
                class: "btn small",
                testid: "kept-choice",
                data: { face },
                on: { click: () => keptFace(face) },
              },
              t(KEPT[face]),
            );
          }),
        )
      : null,
  );
}
