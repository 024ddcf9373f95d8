"""A game's review in words for the Python faces (the command line and the terminal game),
in any language of :mod:`pickomino.i18n`; the review itself is data
(:mod:`pickomino.analysis`). Chances are shown in percent, costs and luck in points of win
chance (1 point = 1%).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from pickomino.i18n import Words
from pickomino.i18n.text import spaced_dice

if TYPE_CHECKING:
    from pickomino.analysis import Advice, Decision, PlayerReview, Review, SheetReview
    from pickomino.analysis.sheet_review import SheetPlayer
    from pickomino.analysis.totals import PlayerTotals

#: The words of each label (written out: the catalogue tests find every id in the source).
LABEL_WORDS = {
    "best": "analysis.label.best",
    "good": "analysis.label.good",
    "inaccuracy": "analysis.label.inaccuracy",
    "mistake": "analysis.label.mistake",
    "blunder": "analysis.label.blunder",
}
LABEL_COUNTS = {
    "best": "analysis.count.best",
    "good": "analysis.count.good",
    "inaccuracy": "analysis.count.inaccuracy",
    "mistake": "analysis.count.mistake",
    "blunder": "analysis.count.blunder",
}
VERDICTS = {
    "luck": "analysis.verdict.luck",
    "skill": "analysis.verdict.skill",
    "both": "analysis.verdict.both",
}
SITUATIONS = {
    "first": "analysis.situation.first",
    "keep": "analysis.situation.keep",
    "roll": "analysis.situation.roll_or_stop",
    "stop": "analysis.situation.roll_or_stop",
    "take": "analysis.situation.claim",
    "steal": "analysis.situation.claim",
}
INDENT = "  "


def points(value: float, words: Words) -> str:
    """A change of win chance (0..1) in signed points: ``+12.3`` / ``−4.0``."""
    return words.signed(100 * value, 1)


def review_lines(review: Review, words: Words, seat: int | None = None) -> list[str]:
    """Every player's account (or ``seat``'s alone), then the decisions worth a look: the
    inaccuracies and worse (with ``seat``: every decision of theirs that had a choice)."""
    from pickomino.analysis import WORTH_SHOWING

    lines = [words("analysis.intro"), ""]
    for player in review.players:
        if seat in (None, player.seat):
            lines += player_lines(player, review, words) + [""]
    names = review.seats
    if seat is None:
        shown = [d for d in review.decisions if d.label in WORTH_SHOWING]
        lines.append(words("analysis.worth_a_look") if shown else words("analysis.nothing_to_show"))
    else:
        shown = [d for d in review.decisions if d.seat == seat and not d.forced]
        lines.append(words("analysis.all_decisions", name=names[seat]))
    lines += [INDENT + decision_line(decision, names, words) for decision in shown]
    return [*lines, "", words("analysis.legend")]


def player_lines(player: PlayerReview, review: Review, words: Words) -> list[str]:
    """A player's result, accuracy and labels, account, and whether it was luck or skill."""
    name = review.seats[player.seat]
    start = words.percent(player.start, 1)
    result = _result(player, review, words)
    lines = [words("analysis.player", name=name, start=start, result=result)]
    counts = [words(LABEL_COUNTS[label], count=count) for label, count in player.labels.items()]
    decisions = words("analysis.decisions", count=len(player.costs))
    accuracy = words.number(player.accuracy, 1)
    lines.append(words("analysis.accuracy", accuracy=accuracy, decisions=decisions,
                       labels=words.join(counts)))  # fmt: skip
    lines.append(
        words("analysis.account", luck=points(player.luck, words),
              skill=points(player.skill, words), others=points(player.others, words),
              drift=points(player.drift, words))
    )  # fmt: skip
    lines.append(words("analysis.rolls", **player.marks))
    if review.finished:
        lines.append(words("analysis.adjusted", adjusted=words.percent(player.adjusted, 1)))
    lines.append(
        words(VERDICTS[player.verdict], name=name, luck=points(player.luck, words),
              play=points(player.play, words), drift=points(player.drift, words))
    )  # fmt: skip
    return [lines[0], *(INDENT + line for line in lines[1:])]


def totals_lines(players: Sequence[PlayerTotals], games: int, words: Words) -> list[str]:
    """Each player's games added up: the wins against those expected, accuracy and labels,
    luck and marked rolls."""
    lines = [words("analysis.totals.intro", games=words("analysis.totals.games", count=games))]
    for player in players:
        played = words("analysis.totals.games", count=player.games)
        wins = {
            part: words.number(getattr(player, part), 1) for part in ("result", "start", "adjusted")
        }
        lines += ["", words("analysis.totals.player", name=player.name, games=played, **wins)]
        counts = [words(LABEL_COUNTS[label], count=player.labels[label]) for label in LABEL_COUNTS]
        decisions = words("analysis.decisions", count=len(player.costs))
        accuracy = words.number(player.accuracy, 1)
        lines.append(INDENT + words("analysis.accuracy", accuracy=accuracy, decisions=decisions,
                                    labels=words.join(counts)))  # fmt: skip
        per_game = points(player.luck / player.games, words)
        lines.append(INDENT + words("analysis.totals.luck", luck=points(player.luck, words),
                                    per_game=per_game))  # fmt: skip
        marks = {
            mark: player.marks[mark] for mark in ("very_lucky", "lucky", "unlucky", "very_unlucky")
        }
        lines.append(INDENT + words("analysis.rolls", **marks))
    return [*lines, "", words("analysis.legend")]


def _result(player: PlayerReview | SheetPlayer, review: Review | SheetReview, words: Words) -> str:
    if not review.finished:
        return words("analysis.result.open", chance=words.percent(player.result, 1))
    if player.result == 1:
        return words("analysis.result.won")
    return words("analysis.result.shared" if player.result > 0 else "analysis.result.lost")


def decision_line(decision: Decision, names: Sequence[str], words: Words) -> str:
    """``Turn 12, Ann (kept W W 5 5 = 20, rolled 3 4 4): keep 4, mistake, −6.3 points;
    best: keep 3 (58.1% against 51.8%)``."""
    kind = decision.action.split()[0] if decision.kept else "first"
    situation = words(
        SITUATIONS[kind], kept=spaced_dice(decision.kept), total=decision.total,
        roll=spaced_dice(decision.roll),
    )  # fmt: skip
    said = {
        "turn": decision.turn, "name": names[decision.seat], "situation": situation,
        "action": decision.action, "label": words(LABEL_WORDS[decision.label]),
    }  # fmt: skip
    if decision.best.action == decision.action:
        return words("analysis.decision", **said)
    return words(
        "analysis.decision_cost", **said, cost=words.number(100 * decision.cost, 1),
        best=words.action(decision.best.action), better=words.percent(decision.best.value, 1),
        chosen=words.percent(decision.chosen, 1),
    )  # fmt: skip


def sheet_review_lines(review: SheetReview, words: Words, seat: int | None = None) -> list[str]:
    """What a score sheet allows (and what not), every player's luck (or ``seat``'s), then
    each turn's outcome against its odds."""
    lines = [words("analysis.sheet.intro"), ""]
    names = review.seats
    for player in review.players:
        if seat not in (None, player.seat):
            continue
        start = words.percent(player.start, 1)
        result = _result(player, review, words)
        lines.append(words("analysis.player", name=names[player.seat], start=start, result=result))
        lines.append(
            INDENT
            + words(
                "analysis.sheet.player", luck=points(player.luck, words),
                turns=words("analysis.sheet.turns", count=player.turns), tiles=player.tiles,
                expected=words.number(player.expected_tiles, 1), drift=points(player.drift, words),
            )
        )  # fmt: skip
    lines += ["", words("analysis.sheet.each_turn")]
    for turn in review.turns:
        if seat in (None, turn.seat):
            lines.append(
                INDENT
                + words(
                    "analysis.sheet.turn", turn=turn.turn, name=names[turn.seat],
                    entry=words.action(turn.entry), chance=words.percent(turn.tile_chance, 0),
                    luck=points(turn.luck[turn.seat], words),
                )
            )  # fmt: skip
    return lines


#: The coach's sentence for a move that busts, and for any other.
COACH_WORDS = {True: "coach.busts", False: "coach.costs"}


def coach_sentence(advice: Advice, words: Words) -> str:
    """What the coach says before a costly move (and that choosing it again plays it)."""
    return words(
        COACH_WORDS[advice.bust is not None], action=advice.action, reason=advice.bust or "",
        cost=words.number(100 * advice.cost, 1), best=words.action(advice.best),
        better=words.percent(advice.better, 1), chosen=words.percent(advice.chosen, 1),
    )  # fmt: skip
