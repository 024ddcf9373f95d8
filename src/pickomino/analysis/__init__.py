"""A game's review: every decision valued in win chance, and the result split into skill and
luck.

The evaluator is the strongest we have (:func:`~pickomino.bots.planners.evaluator_for`):
with the standard rules (any table size, 2 to 7), the win values learned by self-play
(:mod:`pickomino.evaluation`; every way a turn can end valued by the network); under other
rules, the strategist's search (:mod:`.bots.strategist`) with every player playing
their own best (:class:`FairPlanner`), looking the strategist's number of turns ahead. The
exact turn solver gives the value of every point of the turn under best play
(:class:`TurnView`). So at every step of a game each player has a win
chance, and every change of it has one cause:

- a **decision** of the mover changes the mover's chance by ``chosen - best``: minus its
  **cost** (never negative; 0 for the best choice and for a forced move), and the others'
  chances too (the mover's slip is their gain: "the others' play");
- a **roll** changes everyone's chance by what the dice showed against what was expected
  before the roll: **luck** (expected to be 0, since the value before a roll is exactly the
  mean of the values after it, for every player);
- between two turns the valuation looks one turn further ahead: a small **drift**.

So, for every player, ``result - chance at the start = skill + luck + others' play + drift``
exactly (``skill`` is minus the sum of the player's costs), which :class:`PlayerReview`
keeps and the tests check. With three players or more, the win model's chances are shared out
where the search stops (:func:`~pickomino.bots.planners.leaf_values`), so the chances
sum to 1 at every point.

Labels by cost, in points of win chance (1 point = 1%), and by what was at stake in the decision
(its **stake**: its best choice's chance minus its worst's): **best** only for the best choice
(or one of the same value); **inaccuracy** from 2 points, **mistake** from 5, **blunder** from
10 — or from 20%, 40% or 70% of the stake once the cost is at least 0.5, 2 or 3 points
(:data:`LABELS`); **good** for any other choice. These are points at a table of two: at a
table of N every cost counts N/2 times (:func:`weight`), so a label starts at the same share of
a fair chance at every size (a mistake at seven from 1.43 points). Accuracy (the same points at
every size): ``100 * exp(-mean cost / 2 points)`` over the decisions that had a choice (100 when
every choice was best; 37 at a mean cost of 2 points). A result was **mostly luck** when the
dice moved the player's chance at least twice as much as the decisions at the table did (the
player's own and the others', each counted by its size), **mostly skill** in the opposite case,
and **both** in between.

A kept score sheet has only each turn's result: :func:`review_sheet` values each turn's
outcome against the odds of that turn, and cannot value decisions.

>>> from pickomino.core import Game
>>> game = Game(["Ann", "Bob"])
>>> for move in ["dice 1233WWW5", "keep W", "roll", "dice 44455", "keep 4", "stop"]:
...     _ = game.push(move)
>>> game_review = review(game.record)
>>> [(d.action, d.label) for d in game_review.decisions]
[('keep W', 'best'), ('roll', 'best'), ('keep 4', 'best'), ('stop', 'mistake')]
>>> best = game_review.decisions[-1].best
>>> best.action, round(best.value, 2)
('roll', 0.55)

With 27 kept and two dice left, rolling on was better at the start of a game.
>>> ann = game_review.players[0]
>>> round(ann.start + ann.skill + ann.luck + ann.others + ann.drift - ann.result, 12)
0.0
"""

from pickomino.analysis.coach import Advice, Coach
from pickomino.analysis.decisions import (
    ACCURACY_SCALE,
    LABEL_NAMES,
    LABELS,
    WORTH_SHOWING,
    Choice,
    Decision,
    Label,
    PlayerReview,
    Review,
    Roll,
    accuracy,
    decision_at,
    label_of,
    pooled_accuracy,
    review,
    weight,
)
from pickomino.analysis.evaluator import FairPlanner, LearnedPlanner, TurnView, evaluator_for
from pickomino.analysis.sheet_review import SheetReview, TurnLuck, review_sheet

__all__ = [
    "ACCURACY_SCALE",
    "LABELS",
    "LABEL_NAMES",
    "WORTH_SHOWING",
    "Advice",
    "Choice",
    "Coach",
    "Decision",
    "FairPlanner",
    "Label",
    "LearnedPlanner",
    "PlayerReview",
    "Review",
    "Roll",
    "SheetReview",
    "TurnLuck",
    "TurnView",
    "accuracy",
    "decision_at",
    "evaluator_for",
    "label_of",
    "pooled_accuracy",
    "review",
    "review_sheet",
    "weight",
]
