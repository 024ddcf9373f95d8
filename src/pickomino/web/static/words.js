// The game's data in words: action names as buttons say them, what the turn is about, bots,
// presets, and a rule named as a link to the rules page.

import { h, inOfflineApp } from "./dom.js";
import { t } from "./i18n.js";

// Message ids written out whole, so that a search for an id finds where it is used.
const KEEP = {
  1: "act.keep.1",
  2: "act.keep.2",
  3: "act.keep.3",
  4: "act.keep.4",
  5: "act.keep.5",
  W: "act.keep.W",
};
const ACTS = { roll: "act.roll", stop: "act.stop", take: "act.take", steal: "act.steal" };

/** "keep W" → "Keep the worms", "steal 27" → "Steal 27", "roll" → "Roll". */
export function actionLabel(action) {
  const [verb, what] = action.split(" ");
  if (verb === "keep") return t(KEEP[what]);
  return ACTS[verb] ? t(ACTS[verb], { tile: what }) : action;
}

// What the player to move is doing: [said to them, said to the others].
const DOING = {
  roll: ["doing.you.roll", "doing.other.roll"],
  keep: ["doing.you.keep", "doing.other.keep"],
  roll_or_stop: ["doing.you.roll_or_stop", "doing.other.roll_or_stop"],
  claim: ["doing.you.claim", "doing.other.claim"],
};

/** "Turn 12 · Bob chooses dice to keep", or the instruction when it is your move (or that a
 * bot plays it: you are away, or out of time). */
export function turnText(state, you) {
  const { table, seats } = state;
  if (state.status === "open") return t("doing.open");
  if (table.over) return t("end.title", { count: table.turn });
  if (state.status === "abandoned" && state.stopped_after != null) return t("doing.stopped", { count: state.stopped_after });
  if (state.status === "abandoned") return t("doing.abandoned", { turn: table.turn });
  const [yours, theirs] = DOING[table.phase];
  let doing = t(theirs, { name: seats[table.current].name });
  if (table.current === you) {
    doing = seats[you].stand_in ? t("doing.you.bot", { bot: botLabel(state.takeover) }) : t(yours);
  }
  return t("doing.turn", { turn: table.turn, doing });
}

/** A bot's level or kind ("hard", "expected") in words. */
export const botLabel = (bot) => t(`bot.${bot}`);

/** A preset's name in words ("official" → "Official rulebook"); "Custom" for no preset. */
export const presetLabel = (name) => (name ? t(`preset.${name}`) : t("rules.custom"));

/** The name of the preset these rules are ({flip_returned_highest: true, …} → "short"), if any. */
export const presetName = (rules, presets) =>
  Object.keys(presets).find((name) =>
    Object.entries(rules).every(([key, value]) => presets[name][key] === value),
  );

/** The rules page: the server's, or the offline app's own (beside its pages). */
export const rulesPage = () => (inOfflineApp() ? "./rules.html" : "/rules");

/** A rule's badge: a link to the rule on the rules page, in a tab of its own. */
export function ruleLink(rule) {
  return h(
    "a",
    {
      class: "rule",
      href: `${rulesPage()}#${rule}`,
      target: "_blank",
      rel: "noopener",
      testid: "rule-link",
      title: t("rule.read", { rule }),
    },
    t("rule.badge", { rule }),
  );
}

/** A text (or its nodes) with the rule behind it, as a list of children: ["…", " ", <a>R10</a>]. */
export const cited = (text, rule) => (rule ? [text, " ", ruleLink(rule)] : [text]);
