"""The one play loop: a chance step is rolled by the dice source (a person's rolls too),
a decision is made by the seat's player, until a person must decide (or type in real dice)
or the game is over.

Tournaments, environments, ``selfplay``, the terminal game and the web app all drive
games with these three functions; the web app takes one step at a time through its session,
thinking on a copy of the state in a worker thread and playing the step only if nothing
moved meanwhile (:meth:`pickomino.table.session.Session.plan`).

>>> from pickomino.bots import make_bot
>>> from pickomino.core import GameState
>>> from pickomino.table.dice import SeededDice
>>> state = GameState(2)
>>> _ = advance(state, [make_bot("simple"), make_bot("random")], SeededDice(3))
>>> state.is_over
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from pickomino.core import Action, Counts, Event, Game, GameState, Phase
from pickomino.table.dice import Dice
from pickomino.table.seats import Player

#: The next step of a game: a roll's outcome or an action.
Step = Counts | Action


def next_step(state: GameState, players: Sequence[Player], dice: Dice) -> Step | None:
    """The step the game takes by itself now, or ``None`` when it waits for a person (their
    decision, or the real dice they roll) or is over. Changes nothing."""
    if state.is_over:
        return None
    if state.is_chance():
        return dice.roll(state)
    return players[state.current].choose(state)


def apply(target: Game | GameState, step: Step) -> list[Event]:
    """Play ``step`` on a game (recorded) or a bare state (fast, for simulations)."""
    _state, roll, play = _moves(target)
    return play(step) if step.__class__ is Action else roll(step)  # type: ignore[arg-type]


def advance(target: Game | GameState, players: Sequence[Player], dice: Dice) -> list[Event]:
    """Play on until a person must act or the game ends; returns what happened.

    :func:`next_step` then :func:`apply`, over and over: written out here, as tournaments
    play millions of steps through it."""
    state, roll, play = _moves(target)
    events: list[Event] = []
    while state.phase is not Phase.OVER:
        if state.phase is Phase.ROLL:
            dice_shown = dice.roll(state)
            if dice_shown is None:
                break
            events += roll(dice_shown)
        else:
            action = players[state.current].choose(state)
            if action is None:
                break
            events += play(action)
    return events


def turn_starts(state: GameState, players: Sequence[Player], dice: Dice) -> Iterator[GameState]:
    """Play a game on to its end (or until a person must act), yielding the state at the
    start of every turn, before its first roll: for studies of positions (``scripts/``,
    tests). The state yielded is the game itself: copy it to keep it."""
    while not state.is_over:
        if state.is_chance() and not any(state.kept):
            yield state
        step = next_step(state, players, dice)
        if step is None:
            return
        apply(state, step)


def _moves(
    target: Game | GameState,
) -> tuple[GameState, Callable[[Counts], list[Event]], Callable[[Action], list[Event]]]:
    """The state, and how to roll and play on it: a game records its moves, a state not."""
    if isinstance(target, Game):
        return target.state, target.roll, target.play
    return target, target.apply_roll, target.apply
