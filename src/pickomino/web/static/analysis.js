// The Analysis of a finished game (GET /api/games/{id}/analysis, data only, worded here):
// every player's chance of winning over the turns, each player's account (accuracy, the
// labels of their decisions, and where their chance went: own decisions, luck, the others'
// decisions), the viewer's first, and the decisions with their labels: the notable ones
// (inaccuracy and worse) or all. The labels' words are the game's (game.json), for every face. A decision clicked shows its turn in the replay, with every
// choice's chance of winning, the best and the chosen one marked.
// The review costs the server seconds, so it is made when asked for, not for every visit.

import { postJSON } from "./api.js";
import { lineChart } from "./chart.js";
import { fill, h, keepFocus, twin } from "./dom.js";
import { number, percent, points, t } from "./i18n.js";
import { spacedDice, spokenDice } from "./events.js";
import { actionLabel } from "./words.js";

// Worst last; a decision from "inaccuracy" on is notable. Words written out whole.
export const LABELS = ["best", "good", "inaccuracy", "mistake", "blunder"];
const LABEL_WORDS = {
  best: "analysis.label.best",
  good: "analysis.label.good",
  inaccuracy: "analysis.label.inaccuracy",
  mistake: "analysis.label.mistake",
  blunder: "analysis.label.blunder",
};
const NOTABLE = LABELS.indexOf("inaccuracy");
const ACCOUNT = [
  ["skill", "analysis.skill"],
  ["luck", "analysis.luck"],
  ["others", "analysis.others"],
  ["drift", "analysis.drift"],
];


/** A label as a coloured badge. */
export function labelBadge(label) {
  return h("span", { class: `badge label label-${label}`, testid: "label", data: { label } }, t(LABEL_WORDS[label]));
}

/**
 * The Analysis section: a button that asks for the review (`load()`: a promise of it), then
 * the view. `replay` is the end screen's replay ({show(i), step(), follow(fn)}: follow hears
 * every step it shows); `detail` is a node beside the replay where a clicked decision is
 * explained.
 */
export function analysisSection({ load, names, seat, frames, replay, detail }) {
  const body = h("div", { class: "analysis-body", testid: "analysis-body" });
  const open = h("button", { type: "button", class: "btn primary", testid: "analysis-open" }, t("analysis.open"));
  const title = h("h3", { tabindex: "-1" }, t("analysis.title"));
  // Said when the review arrives (it takes seconds; nothing told a screen reader, an audit
  // found); a failure is an alert.
  const said = h("p", { class: "visually-hidden", role: "status", testid: "analysis-said" });
  open.addEventListener("click", async () => {
    title.focus(); // the button goes: the focus stays in the section, on its heading
    open.remove();
    fill(body, h("p", { class: "placeholder" }, t("analysis.loading")));
    let review;
    try {
      review = await load();
    } catch (error) {
      const why = t("analysis.failed", { why: error.message });
      fill(body, h("p", { class: "error", role: "alert", testid: "analysis-error" }, why));
      return;
    }
    fill(body, ...analysisView(review, { names, seat, frames, replay, detail }));
    requestAnimationFrame(() => (said.textContent = t("analysis.ready")));
  });
  return h(
    "section",
    { class: "analysis", testid: "analysis" },
    title,
    h("p", { class: "muted" }, t("analysis.about")),
    said,
    open,
    body,
  );
}

function analysisView(review, { names, seat, frames, replay, detail }) {
  const chart = chanceChart(review, names, frames);
  chart.mark(replay.step());
  replay.follow(chart.mark);
  const order = review.players.map((player) => player.seat);
  order.sort((a, b) => (a === seat ? -1 : b === seat ? 1 : a - b)); // the viewer's first
  return [
    h("section", { class: "chart-area" }, h("h4", {}, t("analysis.chart_heading")), chart.node),
    h(
      "section",
      { class: "analysis-players" },
      h("h4", {}, t("analysis.players")),
      order.map((n) => playerCard(review.players[n], names)),
      // What the cards' accuracy and rolls mean, on the page (a tooltip is no reading for a
      // keyboard or a phone) and the cards' description for a screen reader.
      h(
        "dl",
        { class: "analysis-terms", testid: "analysis-terms" },
        h("dt", {}, t("analysis.term.accuracy")),
        h("dd", { id: "accuracy-help" }, t("analysis.accuracy_help")),
        h("dt", {}, t("analysis.term.rolls")),
        h("dd", { id: "rolls-help" }, t("analysis.rolls_help")),
      ),
    ),
    decisionList(review, { names, frames, replay, detail }),
  ];
}

/** Everyone's chance of winning at the start and after each turn, as the replay steps. */
function chanceChart(review, names, frames) {
  const last = new Map(review.turns.map((turn, k) => [turn, k])); // a turn's last entry
  const at = (frame, i) => review.chances[i === 0 ? 0 : last.get(frame.turn) ?? review.chances.length - 1];
  return lineChart({
    title: t("analysis.chart_title"),
    stepName: t("chart.turn"),
    labels: frames.map((frame) => String(frame.turn)),
    series: names.map((name, n) => ({
      name,
      className: `seat-${n}`,
      values: frames.map((frame, i) => Math.round(at(frame, i)[n] * 1000) / 10),
    })),
    top: 100,
    step: 25,
    shown: (value) => percent(value / 100),
  });
}

// Mostly luck, mostly skill or both (the server's verdict), in words.
const VERDICTS = {
  luck: "analysis.summary.luck",
  skill: "analysis.summary.skill",
  both: "analysis.summary.both",
};

function playerCard(player, names) {
  const name = names[player.seat];
  const [luck, skill, others, drift] = ["luck", "skill", "others", "drift"].map((part) => points(player[part]));
  const summary = t(VERDICTS[player.verdict], { name, luck, skill, others, drift });
  const marks = Object.fromEntries(Object.entries(player.marks).map(([mark, count]) => [mark, number(count)]));
  return h(
    "article",
    {
      class: `analysis-player seat-${player.seat}`,
      testid: "analysis-player",
      data: { seat: player.seat },
      "aria-label": name, // a card heard by whose it is
    },
    h(
      "header",
      { class: "player-head" },
      h("span", { class: "swatch", "aria-hidden": "true" }),
      h("span", { class: "player-name" }, name),
      h(
        "span",
        { class: "accuracy", testid: "accuracy", "aria-describedby": "accuracy-help" },
        t("analysis.accuracy", { accuracy: number(player.accuracy) }),
      ),
    ),
    h(
      "ul",
      { class: "label-counts", testid: "label-counts" },
      LABELS.map((label) => h("li", { data: { label } }, labelBadge(label), " ", number(player.labels[label]))),
    ),
    h(
      "table",
      { class: "account", testid: "account" },
      h("caption", {}, t("analysis.account")),
      h(
        "tbody",
        {},
        accountRow(t("analysis.start"), percent(player.start)),
        ACCOUNT.map(([key, words]) => accountRow(t(words), points(player[key]), key)),
        accountRow(t("analysis.result"), percent(player.result)),
        accountRow(t("analysis.adjusted"), percent(player.adjusted), "adjusted"),
      ),
    ),
    h("p", { class: "rolls", testid: "analysis-rolls", "aria-describedby": "rolls-help" }, t("analysis.rolls", marks)),
    h("p", { class: "summary", testid: "analysis-summary" }, summary),
  );
}

function accountRow(heading, value, key = null) {
  return h("tr", { data: key ? { part: key } : {} }, h("th", { scope: "row" }, heading), h("td", {}, value));
}

/** The decisions that had a choice: the notable ones, or all with the switch. */
function decisionList(review, { names, frames, replay, detail }) {
  const decisions = review.decisions.filter((decision) => !decision.forced);
  const all = h("input", { type: "checkbox", testid: "analysis-all" });
  const list = h("ol", { class: "decisions", testid: "decisions" });
  let chosen = null; // the move clicked

  function draw() {
    const shown = decisions.filter((d) => all.checked || LABELS.indexOf(d.label) >= NOTABLE);
    fill(
      list,
      shown.length
        ? shown.map((decision) => decisionRow(decision, names, decision.move === chosen, () => pick(decision), toDetail))
        : h("li", { class: "placeholder", testid: "analysis-none" }, t("analysis.none")),
    );
  }

  function pick(decision) {
    chosen = decision.move;
    draw();
    list.querySelector(".decision.selected")?.focus(); // the list is drawn anew: keep the place
    replay.show(frames.findIndex((frame, i) => i > 0 && frame.turn === decision.turn));
    explain(detail, decision, names, toList);
    detail.scrollIntoView({ block: "nearest" });
  }

  // The explanation is far from the list in the page's order (beside the replay): a pair of
  // buttons takes the focus there and back.
  const toDetail = () => detail.querySelector("h4")?.focus();
  // (the picked decision, or the list's first once "all" is unticked and it is not listed)
  const toList = () => (list.querySelector(".decision.selected") ?? list.querySelector("button"))?.focus();

  all.addEventListener("change", draw);
  draw();
  return h(
    "section",
    { class: "analysis-decisions" },
    h("h4", {}, t("analysis.decisions")),
    thresholdLegend(review.thresholds, review.weight, names.length),
    h("label", { class: "toggle" }, all, h("span", {}, t("analysis.all"))),
    list,
  );
}

/** A threshold (0..1) in points, in as few places as it needs, two at most (at seven, a
 * mistake from 1.43 points, an inaccuracy from 0.14 once at least that share of the stake). */
function thresholdPoints(chance) {
  const value = chance * 100;
  const places = [0, 1].find((p) => Math.abs(Number(value.toFixed(p)) - value) < 1e-6) ?? 2;
  return number(value, places);
}

/** The labels' thresholds; at a table of three or more, what a point weighs there (the
 * server's `weight`: N/2, a point at this table against one at a table of two). */
function thresholdLegend(thresholds, weight, players) {
  return h(
    "p",
    { class: "legend-labels muted", testid: "analysis-legend" },
    weight > 1 ? [t("analysis.legend_players", { players, weight: number(weight, Number.isInteger(weight) ? 0 : 1) }), " "] : [],
    t("analysis.legend"),
    " ",
    LABELS.slice(2)
      .reverse()
      .map((label) => {
        const { cost, share, least } = thresholds[label];
        const words = { points: thresholdPoints(cost), share: percent(share, 0), least: thresholdPoints(least) };
        return h("span", { class: "threshold" }, labelBadge(label), " ", t("analysis.from", words));
      })
      // laid apart on screen; heard apart too (an audit heard "…from 3 mistake from 5…")
      .flatMap((threshold, n) => (n ? [h("span", { class: "visually-hidden" }, "; "), threshold] : [threshold])),
  );
}

function decisionRow(decision, names, selected, onClick, toDetail) {
  return h(
    "li",
    { class: selected ? "picked" : null },
    h(
      "button",
      {
        type: "button",
        class: `decision${selected ? " selected" : ""}`,
        testid: "analysis-decision",
        "aria-pressed": String(selected),
        data: { move: decision.move, turn: decision.turn, seat: decision.seat, label: decision.label },
        on: { click: onClick },
      },
      h("span", { class: `swatch seat-${decision.seat}`, "aria-hidden": "true" }),
      h(
        "span",
        { class: "what" },
        t("analysis.decision", {
          turn: decision.turn,
          name: names[decision.seat],
          action: actionLabel(decision.action),
        }),
      ),
      labelBadge(decision.label),
      h("span", { class: "cost" }, points(-decision.cost)),
    ),
    selected
      ? h("button", { type: "button", class: "btn small quiet goto", testid: "analysis-goto", on: { click: toDetail } }, t("analysis.goto"))
      : null,
  );
}

/** Words with dice in them, as seen ("1 2 W") and as heard ("1, 2 and worm"): `say(dice)`
 * writes them with the dice given. */
const diceWords = (say) => twin(say(spacedDice), say(spokenDice));

/** Where a decision (or a step of a "what if") stands: the dice rolled and kept, the total. */
function diceText({ roll, kept, total }) {
  return diceWords((dice) =>
    roll
      ? t("analysis.dice", { roll: dice(roll), kept: dice(kept), total })
      : t("analysis.dice_kept", { kept: dice(kept), total }),
  );
}

/**
 * "What if": `move` played from `position` (a decision's, as text), then on as the viewer
 * likes (a choice, or a roll of the dice drawn here): everyone's chance of winning at each
 * step, as the review values it (POST /api/positions/explore).
 */
async function whatIf(panel, names, position, move, said) {
  let step;
  try {
    step = await postJSON("/api/positions/explore", { position, move });
  } catch (failure) {
    fill(panel, h("p", { class: "error", testid: "what-if-error" }, t("analysis.failed", { why: failure.message })));
    return;
  }
  const go = (next) => () => whatIf(panel, names, step.position, next, said);
  const roll = () => {
    const faces = [];
    while (faces.length < step.dice_left) {
      const [byte] = crypto.getRandomValues(new Uint8Array(1));
      if (byte < 252) faces.push("12345W"[byte % 6]); // 252 = 6 × 42: every face alike
    }
    return `dice ${faces.join("")}`;
  };
  const next =
    step.phase === "over"
      ? h("p", {}, t("analysis.what_if_over"))
      : step.choices.length
        ? step.choices.map((choice) =>
            h(
              "button",
              { type: "button", class: "btn", testid: "what-if-choice", data: { action: choice.action }, on: { click: go(choice.action) } },
              `${actionLabel(choice.action)} · ${percent(choice.win, 1)}`,
            ),
          )
        : h(
            "button",
            { type: "button", class: "btn primary", testid: "what-if-roll", on: { click: () => go(roll())() } },
            t("analysis.what_if_roll", { name: names[step.current] }),
          );
  const told = (dice) =>
    move.startsWith("dice ") ? t("analysis.what_if_rolled", { roll: dice(move.slice(5)) }) : t("analysis.what_if_played", { action: actionLabel(move) });
  const heading = h("h5", {}, move.startsWith("dice ") ? diceWords(told) : told(spacedDice));
  const chances = names.map((name, n) => t("analysis.what_if_chance", { name, chance: percent(step.chances[n], 1) }));
  // the clicked button goes with the step: the focus moves to the next step's first control
  keepFocus(panel, () => fill(
    panel,
    heading,
    step.phase === "over" ? null : h("p", { class: "muted" }, t("analysis.what_if_mover", { name: names[step.current] }), " · ", diceText(step)),
    h(
      "ul",
      { class: "what-if-chances", testid: "what-if-chances" },
      names.map((name, n) => h("li", { class: `seat-${n}`, data: { seat: n } }, chances[n])),
    ),
    h("div", { class: "what-if-next" }, next),
  ));
  // Heard: the step and the chances, in one line (the whole panel, live, re-read every choice)
  said.textContent = "";
  requestAnimationFrame(() => (said.textContent = [told(spokenDice), ...chances].join(". ")));
}

/** A decision explained beside the replay: its dice, every choice's chance, best and chosen marked. */
function explain(node, decision, names, back) {
  const dice = diceText(decision);
  const best = decision.choices[0];
  const panel = h("section", { class: "what-if", testid: "what-if" });
  const said = h("p", { class: "visually-hidden", role: "status", testid: "what-if-said" });
  node.hidden = false;
  fill(
    node,
    h("h4", { tabindex: "-1" }, t("turn.heading", { turn: decision.turn, name: names[decision.seat] })),
    h("p", { class: "muted" }, dice),
    h(
      "table",
      { class: "hint-table", testid: "analysis-choices" },
      h("caption", {}, t("analysis.choices")),
      h(
        "thead",
        {},
        h("tr", {}, ["hint.choice", "hint.win_chance", "analysis.what_if"].map((key) => h("th", { scope: "col" }, t(key)))),
      ),
      h(
        "tbody",
        {},
        decision.choices.map((choice) =>
          h(
            "tr",
            {
              class: choice === best ? "best" : "",
              testid: "analysis-choice",
              data: { action: choice.action, best: choice === best, chosen: choice.action === decision.action },
            },
            h(
              "th",
              { scope: "row" },
              actionLabel(choice.action),
              choice === best ? h("span", { class: "badge" }, t("analysis.best")) : null,
              choice.action === decision.action ? h("span", { class: "badge chosen" }, t("analysis.chosen")) : null,
            ),
            h("td", {}, percent(choice.value)),
            h(
              "td",
              {},
              h(
                "button",
                {
                  type: "button",
                  class: "btn small",
                  testid: "what-if-open",
                  // each named by its choice (a list of buttons all called "What if?" says nothing)
                  "aria-label": t("analysis.what_if_played", { action: actionLabel(choice.action) }),
                  on: { click: () => whatIf(panel, names, decision.position, choice.action, said) },
                },
                t("analysis.what_if"),
              ),
            ),
          ),
        ),
      ),
    ),
    h(
      "p",
      { testid: "analysis-verdict" },
      labelBadge(decision.label),
      " ",
      decision.action === best.action
        ? t("analysis.was_best")
        : t("analysis.gave_away", { points: number(decision.cost * 100, 1) }),
    ),
    decision.position ? panel : null,
    decision.position ? said : null,
    h("button", { type: "button", class: "btn small quiet", testid: "analysis-back", on: { click: back } }, t("analysis.back")),
  );
}
