"""A kept score sheet reviewed: it holds each turn's result only (``take N``, ``steal N`` or
``bust``), not the dice, keeps or stops, so no decision can be valued. What can be: each
turn's outcome against the odds of that turn. Before the turn, every player's win chance
with the mover playing their best (the review's evaluator); after it, the chances of the
position it left. The difference is the turn's **luck** for every player; it includes how
well the turn was played (a turn played worse than best shows as bad luck), which a sheet
cannot tell apart.

So, for every player, ``result - start = luck + drift`` (the drift as in a game's review).

>>> from pickomino.table.sheet import ScoreSheet
>>> sheet = ScoreSheet(["Ann", "Bob"], entries=["take 33", "bust"])
>>> turns = review_sheet(sheet).turns
>>> [(t.entry, t.came, 0 < t.tile_chance < 1) for t in turns]
[('take 33', True, True), ('bust', False, True)]
>>> turns[0].luck[0] > 0 > turns[1].luck[1]                  # a tile came; a bust did not
True
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pickomino.analysis.evaluator import Chances, FairPlanner, TurnView, evaluator_for
from pickomino.table.sheet import BUST, ScoreSheet

FORMAT = "pickomino-sheet-review"
VERSION = 1


@dataclass(frozen=True)
class TurnLuck:
    """One turn of a sheet: its result, the mover's chance of a tile before it (best play),
    and everyone's win chance before and after it."""

    turn: int
    seat: int
    entry: str
    tile_chance: float
    before: Chances
    after: Chances

    @property
    def came(self) -> bool:
        """Did the turn win a tile?"""
        return self.entry != BUST

    @property
    def luck(self) -> Chances:
        return [after - before for before, after in zip(self.before, self.after, strict=True)]

    def to_dict(self) -> dict[str, object]:
        return {
            "turn": self.turn,
            "seat": self.seat,
            "entry": self.entry,
            "tile_chance": self.tile_chance,
            "came": self.came,
            "before": self.before,
            "after": self.after,
            "luck": self.luck,
        }


@dataclass
class SheetPlayer:
    """One player's sheet in win chance: ``result - start = luck + drift``."""

    seat: int
    start: float = 0.0
    result: float = 0.0
    luck: float = 0.0  # what every turn's outcome did to the player's chance, against the odds
    drift: float = 0.0
    turns: int = 0  # the player's own turns
    tiles: int = 0  # of them, the turns that won a tile
    expected_tiles: float = 0.0  # the sum of their chances of a tile

    def to_dict(self) -> dict[str, object]:
        return {
            "seat": self.seat,
            "start": self.start,
            "result": self.result,
            "luck": self.luck,
            "drift": self.drift,
            "turns": self.turns,
            "tiles": self.tiles,
            "expected_tiles": self.expected_tiles,
        }


@dataclass
class SheetReview:
    seats: list[str]
    turns: list[TurnLuck]
    players: list[SheetPlayer]
    finished: bool = True
    #: what a sheet cannot tell (every decision, and luck apart from play), for the faces
    unknown: tuple[str, ...] = field(default=("decisions", "skill"))

    @property
    def chances(self) -> list[Chances]:
        """Everyone's chance before every turn, and now (a chart's points)."""
        return [turn.before for turn in self.turns] + [[p.result for p in self.players]]

    @property
    def chart_turns(self) -> list[int]:
        """The turn of each point of :attr:`chances` (the last: the turn after the sheet's)."""
        return [turn.turn for turn in self.turns] + [len(self.turns) + 1]

    def to_dict(self, seat: int | None = None) -> dict[str, object]:
        """The review as JSON data; with ``seat``, that player's luck and turns only."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "seats": self.seats,
            "finished": self.finished,
            "unknown": list(self.unknown),
            "players": [p.to_dict() for p in self.players if seat in (None, p.seat)],
            "turns": [t.to_dict() for t in self.turns if seat in (None, t.seat)],
        }


def review_sheet(sheet: ScoreSheet, planner: FairPlanner | None = None) -> SheetReview:
    """Each turn of ``sheet`` against its odds (the sheet is not changed)."""
    replay = ScoreSheet(sheet.names, sheet.rules, sheet.start_player)
    planner = planner or evaluator_for(replay.state)
    players = [SheetPlayer(seat) for seat in range(len(sheet.names))]
    turns: list[TurnLuck] = []
    now: Chances | None = None
    for entry in sheet.entries:
        entry = " ".join(entry.lower().split())
        state = replay.state
        turn_number, seat = state.turn, state.current  # before the entry moves the state on
        view = TurnView(state, planner)
        before = view.chances(state)
        if now is None:
            for player in players:
                player.start = before[player.seat]
        else:
            for player in players:
                player.drift += before[player.seat] - now[player.seat]
        solution = view.solution
        tile_chance = solution.outlook(solution.graph.start, "roll").success
        replay.enter(entry)
        now = view.after_turn(replay.state)
        turn = TurnLuck(turn_number, seat, entry, tile_chance, before, now)
        turns.append(turn)
        for player, luck in zip(players, turn.luck, strict=True):
            player.luck += luck
        mover = players[seat]
        mover.turns += 1
        mover.tiles += turn.came
        mover.expected_tiles += tile_chance
    if now is None:  # nothing entered yet
        now = TurnView(replay.state, planner).chances(replay.state)
        for player in players:
            player.start = now[player.seat]
    for player in players:
        player.result = now[player.seat]
    return SheetReview(list(sheet.names), turns, players, replay.state.is_over)
