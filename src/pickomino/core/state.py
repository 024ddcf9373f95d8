"""The game as a pure state machine: whose decision it is, what is legal, what an action does.

A state either waits for a dice roll (a chance step: :meth:`GameState.chance_outcomes`
lists every outcome with its exact probability and the driver supplies one with
:meth:`GameState.apply_roll`) or for a player's decision (:meth:`GameState.legal_actions`,
:meth:`GameState.apply`). Illegal input raises :class:`IllegalAction` naming the rule and
leaves the state untouched.

>>> from pickomino.core import GameState
>>> state = GameState(num_players=2)
>>> state.phase, state.current, state.dice_left
(<Phase.ROLL: 'roll'>, 0, 8)
>>> _ = state.apply_roll("1233WWW5")
>>> [a.name for a in state.legal_actions()]
['keep 1', 'keep 2', 'keep 3', 'keep 5', 'keep W']
>>> _ = state.apply("keep W")
>>> state.total, [a.name for a in state.legal_actions()]
(15, ['roll', 'stop'])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from functools import cache

from pickomino.core import actions as A
from pickomino.core.actions import Action
from pickomino.core.dice import (
    ROLLS,
    Counts,
    face_mask,
    format_dice,
    parse_dice,
    points,
    roll_outcomes,
)
from pickomino.core.errors import BadInput, IllegalAction
from pickomino.core.events import (
    Bust,
    BustReason,
    Event,
    GameOver,
    Kept,
    Rolled,
    Standing,
    TileReturned,
    TileStolen,
    TileTaken,
    TileTurned,
)
from pickomino.core.phase import Phase
from pickomino.core.position import Position
from pickomino.core.rules import (
    FACE_POINTS,
    FACE_SYMBOLS,
    HIGHEST_TILE,
    LOWEST_TILE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NUM_DICE,
    TILES,
    WORM,
    Rules,
    worms_on,
)

_ALL_TILES_MASK = (1 << len(TILES)) - 1
_NO_DICE: Counts = (0, 0, 0, 0, 0, 0)
_ALL_FACES = 0b111111
#: Keep actions for each mask of keepable faces.
_KEEP_ACTIONS = tuple(
    tuple(A.ACTIONS[f] for f in range(6) if mask & (1 << f)) for mask in range(64)
)
_ROLL_OR_STOP = (A.ROLL, A.STOP)
_KEEP_IDS = tuple(tuple(action.id for action in actions) for actions in _KEEP_ACTIONS)
_WORMS = {tile: worms_on(tile) for tile in TILES}


def claims_for(
    rules: Rules, grill_mask: int, stacks: Sequence[Sequence[int]], current: int, total: int
) -> tuple[Action, ...]:
    """The claims a total gives ``current`` (R11, R12), from the grill and the stacks alone:
    what :meth:`GameState.claimable` answers, for callers that tabulate it without a whole
    state (the solver's value tables pass only the opponents' top tiles as stacks)."""
    exact = _bit(total) if LOWEST_TILE <= total <= HIGHEST_TILE else 0
    if grill_mask & exact:  # R11a
        return (A.take(total),)
    claims: list[Action] = []
    lower_mask = grill_mask & ((1 << (total - LOWEST_TILE)) - 1) if total > 21 else 0
    if rules.lower_tile == "any":
        claims.extend(A.take(tile) for tile in _tiles_of(lower_mask))
    elif lower_mask:  # R11c: the nearest lower tile
        claims.append(A.take(_highest(lower_mask)))  # type: ignore[arg-type]
    if exact:
        for seat, stack in enumerate(stacks):  # R11b: exact value, an opponent's top
            if seat != current and stack and stack[-1] == total:
                if rules.exact_match_mandatory:  # R12 option
                    return (A.steal(total),)
                claims.append(A.steal(total))
    return tuple(claims)


def _bit(tile: int) -> int:
    return 1 << (tile - LOWEST_TILE)


def _highest(mask: int) -> int | None:
    return mask.bit_length() - 1 + LOWEST_TILE if mask else None


@cache  # at most 2**16 masks; read on every look at the grill (the analysis: thousands a game)
def _tiles_of(mask: int) -> tuple[int, ...]:
    return tuple(tile for tile in TILES if mask & _bit(tile))


class GameState:
    """A Pickomino game in progress; mutable, cheap to :meth:`copy`.

    The grill is kept as a bit mask of face-up tiles (bit 0 is tile 21); a tile that is
    neither face up, face down nor in a stack does not exist, so the 16 tiles are always
    accounted for.
    """

    __slots__ = (
        "rules",
        "num_players",
        "grill_mask",
        "face_down_mask",
        "stacks",
        "current",
        "phase",
        "kept",
        "kept_mask",
        "dice_left",
        "total",
        "roll",
        "claims",
        "turn",
    )

    def __init__(
        self, num_players: int = 2, rules: Rules | None = None, start_player: int = 0
    ) -> None:
        if not isinstance(num_players, int) or not MIN_PLAYERS <= num_players <= MAX_PLAYERS:
            raise BadInput(
                "player_count", "R1", low=MIN_PLAYERS, high=MAX_PLAYERS, given=num_players
            )
        if not isinstance(start_player, int) or not 0 <= start_player < num_players:
            raise BadInput("start_seat", "R4", high=num_players - 1)
        self.rules = rules if rules is not None else Rules()
        self.num_players = num_players
        self.grill_mask = _ALL_TILES_MASK  # R4: all tiles face up
        self.face_down_mask = 0
        self.stacks: list[list[int]] = [[] for _ in range(num_players)]
        self.current = start_player
        self.turn = 1
        self._start_turn()

    @classmethod
    def from_position(
        cls,
        stacks: Sequence[Sequence[int]],
        face_down: Iterable[int] = (),
        current: int = 0,
        rules: Rules | None = None,
        kept: str | Counts = "",
    ) -> GameState:
        """A state at the start of (or, with ``kept``, during) ``current``'s turn.

        ``stacks`` lists each seat's tiles bottom to top; every tile not in a stack and
        not ``face_down`` lies face up on the grill. ``kept`` gives the dice kept so far
        this turn; the state then waits for the player to roll or stop.

        >>> state = GameState.from_position([[22, 30], []], face_down=[36])
        >>> state.grill[-1], state.top(0), state.worms(0)
        (35, 30, 4)
        """
        state = cls(len(stacks), rules, current)
        seen: set[int] = set()
        for tile in [*(t for stack in stacks for t in stack), *face_down]:
            worms_on(tile)  # refuses a number that is not a tile
            if tile in seen:
                raise BadInput("tile_twice", "R3", tile=tile)
            seen.add(tile)
        state.stacks = [list(stack) for stack in stacks]
        state.face_down_mask = sum(_bit(tile) for tile in face_down)
        state.grill_mask = _ALL_TILES_MASK & ~sum(_bit(tile) for tile in seen)
        if not state.grill_mask:
            raise BadInput("grill_empty", "R18")
        counts = parse_dice(kept) if isinstance(kept, str) else tuple(kept)
        if any(counts):
            if len(counts) != 6:
                raise BadInput("six_counts")
            state.kept = list(counts)
            state.kept_mask = face_mask(counts)
            state.dice_left = NUM_DICE - sum(counts)
            state.total = points(counts)
            state.phase = Phase.ROLL_OR_STOP
            if state.dice_left == 0 or all(counts):
                raise BadInput("turn_already_over", "R8")
        return state

    def _start_turn(self) -> None:
        self.phase = Phase.ROLL
        self.kept: list[int] = [0] * 6
        self.kept_mask = 0
        self.dice_left = NUM_DICE  # R5
        self.total = 0
        self.roll: Counts = _NO_DICE
        self.claims: tuple[Action, ...] = ()

    # ----------------------------------------------------------------- views
    @property
    def grill(self) -> tuple[int, ...]:
        """Face-up tiles on the grill, ascending."""
        return _tiles_of(self.grill_mask)

    @property
    def face_down(self) -> tuple[int, ...]:
        """Tiles turned face down (out of the game)."""
        return _tiles_of(self.face_down_mask)

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    def is_chance(self) -> bool:
        """True when the next step is a dice roll rather than a decision."""
        return self.phase is Phase.ROLL

    def top(self, seat: int) -> int | None:
        """The top (stealable) tile of a seat's stack, if any."""
        stack = self.stacks[seat]
        return stack[-1] if stack else None

    def worms(self, seat: int) -> int:
        """A player's score: worms on the tiles in their stack (R19)."""
        return sum(map(_WORMS.__getitem__, self.stacks[seat]))

    def scores(self) -> list[int]:
        return [self.worms(seat) for seat in range(self.num_players)]

    def kept_counts(self) -> Counts:
        return tuple(self.kept)  # type: ignore[return-value]

    def has_worm(self) -> bool:
        return self.kept[WORM] > 0

    def chance_outcomes(self) -> tuple[tuple[Counts, Fraction], ...]:
        """Every possible roll of the remaining dice with its exact probability (R5)."""
        if self.phase is not Phase.ROLL:
            return ()
        return roll_outcomes(self.dice_left)

    def legal_actions(self) -> tuple[Action, ...]:
        """The decisions allowed now, in id order; empty at a chance step or game end."""
        phase = self.phase
        if phase is Phase.KEEP:
            return _KEEP_ACTIONS[ROLLS[self.roll][1] & ~self.kept_mask]
        if phase is Phase.ROLL_OR_STOP:
            return _ROLL_OR_STOP
        return self.claims  # empty unless in Phase.CLAIM

    def legal_action_ids(self) -> list[int]:
        if self.phase is Phase.KEEP:  # the common case, from a table (learning code is hot)
            return list(_KEEP_IDS[ROLLS[self.roll][1] & ~self.kept_mask])
        return [action.id for action in self.legal_actions()]

    def action_mask(self) -> list[bool]:
        """One flag per action id: is that action legal now?"""
        mask = [False] * A.NUM_ACTIONS
        for action_id in self.legal_action_ids():
            mask[action_id] = True
        return mask

    def claimable(self, total: int) -> tuple[Action, ...]:
        """The tiles the current player could claim with ``total`` (R11, R12), in id order.

        Does not look at worms: without a worm nothing can be claimed (R10).
        """
        return claims_for(self.rules, self.grill_mask, self.stacks, self.current, total)

    def endings(self, total: int, worm: bool = True) -> list[tuple[Action | None, GameState]]:
        """Where the current turn would lead if it ended now with ``total`` (and a worm kept
        or not): one ``(claim, next state)`` per tile the player could claim, or a single
        ``(None, state after the bust)``. For planners that value whole positions.

        >>> [(a.name, s.stacks) for a, s in GameState.from_position([[], [27]]).endings(27)]
        [('take 26', [[26], [27]]), ('steal 27', [[27], []])]
        """
        base = self.copy()
        base.total = total
        claims = self.claimable(total) if worm else ()
        if not claims:
            base._bust("no_worm" if not worm else "too_low", [])
            return [(None, base)]
        endings: list[tuple[Action | None, GameState]] = []
        for claim in claims:
            after = base.copy()
            after._claim(claim, [])
            endings.append((claim, after))
        return endings

    # ------------------------------------------------------- turns at a table
    def reportable(self) -> tuple[Action, ...]:
        """The results a turn played with real dice can have had: take any face-up grill tile
        (some total reaches it), steal any opponent's top tile (R11b, R14), or bust (``None``
        is not listed: a bust is always possible)."""
        if self.phase is not Phase.ROLL or self.dice_left != NUM_DICE:
            return ()
        steals = sorted(
            {stack[-1] for seat, stack in enumerate(self.stacks) if seat != self.current and stack}
        )
        return (*(A.take(tile) for tile in self.grill), *(A.steal(tile) for tile in steals))

    def report_turn(self, result: Action | str | None) -> list[Event]:
        """Apply the outcome of a whole turn played with real dice, as a score keeper enters
        it: ``take N``, ``steal N`` or ``None`` for a bust (R15–R17 applied here). Only at
        the start of a turn; a result the rules cannot give raises :class:`IllegalAction`
        with the reason, and nothing changes.

        >>> state = GameState.from_position([[22, 27], [25]])
        >>> [type(e).__name__ for e in state.report_turn(None)]
        ['Bust', 'TileReturned', 'TileTurned']
        """
        if self.phase is not Phase.ROLL or self.dice_left != NUM_DICE:
            raise IllegalAction("R4", "turn_under_way", waiting=self.phase.value)
        events: list[Event] = []
        if result is None:
            self._bust("reported", events)
            return events
        action = Action.coerce(result)
        if action not in self.reportable():
            raise self._report_refusal(action)
        self._claim(action, events)
        return events

    def _report_refusal(self, action: Action) -> IllegalAction:
        if action.kind == "take":
            tile = action.tile
            if tile in self.face_down:
                return IllegalAction("R11", "take_face_down", tile=tile)
            if any(tile in stack for stack in self.stacks):
                return IllegalAction("R11", "take_from_stack", tile=tile)
            return IllegalAction("R11", "not_a_tile", tile=tile)
        if action.kind == "steal":
            tops = [a.tile for a in self.reportable() if a.kind == "steal"]
            return IllegalAction("R14", "steal_not_top", tile=action.tile, tops=tops)
        return IllegalAction("R11", "not_a_result", action=action.name)

    # ------------------------------------------------------------- transitions
    def apply_roll(self, dice: Counts | str) -> list[Event]:
        """Supply the outcome of the pending roll (R5); a bust follows at once if the roll
        shows no face that was not kept yet (R7)."""
        if self.phase is not Phase.ROLL:
            raise IllegalAction("R5", "no_roll_due", waiting=self.phase.value)
        try:
            counts, shown = ROLLS[dice if dice.__class__ is tuple else self._counts(dice)]
        except (KeyError, TypeError):
            counts, shown = _NO_DICE, -1
        if shown < 0 or sum(counts) != self.dice_left:
            raise IllegalAction("R5", "roll_dice_count", count=self.dice_left)
        self.roll = counts
        events: list[Event] = [Rolled(self.current, counts)]
        if shown & ~self.kept_mask:
            self.phase = Phase.KEEP
        else:
            self._bust("no_new_face", events)
        return events

    @staticmethod
    def _counts(dice: object) -> Counts:
        try:
            return parse_dice(dice) if isinstance(dice, str) else tuple(dice)  # type: ignore
        except BadInput as error:
            raise IllegalAction("R5", error.code, **error.params) from None
        except TypeError:
            raise IllegalAction("R5", "not_a_roll", text=str(dice)[:20]) from None

    def apply(self, action: Action | int | str) -> list[Event]:
        """Make a decision (an :class:`Action`, its id or its name) for the current player."""
        if action.__class__ is not Action:
            action = Action.coerce(action)
        for legal in self.legal_actions():  # by identity first: actions are canonical
            if legal is action:
                break
        else:
            if action not in self.legal_actions():  # an equal Action built by the caller
                raise self._refusal(action)
        kind = action.kind
        events: list[Event] = []
        if kind == "keep":
            face = action.face
            count = self.roll[face]
            self.kept[face] = count
            self.kept_mask |= 1 << face
            self.dice_left -= count
            self.total += count * FACE_POINTS[face]
            self.roll = _NO_DICE
            events.append(Kept(self.current, face, count, self.total))
            if self.dice_left == 0 or self.kept_mask == _ALL_FACES:  # R8: ends as if stopped
                self._end_turn(events)
            else:
                self.phase = Phase.ROLL_OR_STOP
        elif kind == "roll":
            self.phase = Phase.ROLL
        elif kind == "stop":
            self._end_turn(events)
        else:
            self._claim(action, events)
        return events

    def _refusal(self, action: Action) -> IllegalAction:
        """Why ``action`` is not legal now, naming the rule."""
        kind, phase = action.kind, self.phase
        if kind == "keep":
            face = FACE_SYMBOLS[action.face]
            if phase is not Phase.KEEP:
                return IllegalAction("R6", "no_keep_now", waiting=phase.value)
            if self.kept_mask & (1 << action.face):
                return IllegalAction("R6", "face_kept", face=face)
            return IllegalAction("R6", "face_not_rolled", face=face)
        if kind == "roll":
            return IllegalAction("R8", "no_roll_now", waiting=phase.value)
        if kind == "stop":
            return IllegalAction("R8", "no_stop_now", waiting=phase.value)
        if phase is not Phase.CLAIM:
            return IllegalAction("R11", "no_claim_now", waiting=phase.value)
        return IllegalAction(
            "R11",
            "claim_not_allowed",
            action=action.name,
            total=self.total,
            choices=[a.name for a in self.claims],
        )

    def _end_turn(self, events: list[Event]) -> None:
        if not self.kept[WORM]:
            self._bust("no_worm", events)  # R10
            return
        claims = self.claimable(self.total)
        if not claims:
            self._bust("too_low", events)  # R13
        elif len(claims) == 1:
            self._claim(claims[0], events)  # R12: a claim exists, it must be taken
        else:
            self.phase = Phase.CLAIM
            self.claims = claims

    def _claim(self, action: Action, events: list[Event]) -> None:
        tile = action.tile
        seat = self.current
        if action.kind == "take":
            self.grill_mask &= ~_bit(tile)
            events.append(TileTaken(seat, tile, self.total))
        else:
            victim = next(
                s
                for s, stack in enumerate(self.stacks)
                if s != seat and stack and stack[-1] == tile
            )
            self.stacks[victim].pop()
            events.append(TileStolen(seat, tile, victim, self.total))
        self.stacks[seat].append(tile)  # R14
        self._next_turn(events)

    def _bust(self, reason: BustReason, events: list[Event]) -> None:
        seat = self.current
        events.append(Bust(seat, reason, self.total))
        stack = self.stacks[seat]
        if stack:  # R15, then R16
            returned = stack.pop()
            self.grill_mask |= _bit(returned)
            events.append(TileReturned(seat, returned))
            highest: int = _highest(self.grill_mask)  # type: ignore[assignment]
            if highest != returned or self.rules.flip_returned_highest:
                self.grill_mask &= ~_bit(highest)
                self.face_down_mask |= _bit(highest)
                events.append(TileTurned(highest))
        self._next_turn(events)  # R17

    def _next_turn(self, events: list[Event]) -> None:
        if not self.grill_mask:  # R18
            self.phase = Phase.OVER
            self.claims = ()
            self.roll = _NO_DICE
            events.append(GameOver(self.ranking()))
            return
        self.current = (self.current + 1) % self.num_players
        self.turn += 1
        self._start_turn()

    # ---------------------------------------------------------------- scoring
    def ranking(self) -> tuple[Standing, ...]:
        """Players from best to worst: most worms, then highest tile (R19, R20).

        Tied players holding no tiles share a rank; call it at any time for the standings.
        """
        keys = [
            (self.worms(seat), max(self.stacks[seat], default=0))
            for seat in range(self.num_players)
        ]
        order = sorted(range(self.num_players), key=lambda s: keys[s], reverse=True)
        return tuple(
            Standing(
                seat=seat,
                rank=1 + sum(other > keys[seat] for other in keys),
                worms=keys[seat][0],
                highest_tile=keys[seat][1] or None,
            )
            for seat in order
        )

    def winners(self) -> list[int]:
        return [standing.seat for standing in self.ranking() if standing.rank == 1]

    # ------------------------------------------------------------ copy/compare
    def copy(self) -> GameState:
        new = GameState.__new__(GameState)
        new.rules = self.rules
        new.num_players = self.num_players
        new.grill_mask = self.grill_mask
        new.face_down_mask = self.face_down_mask
        new.stacks = [list(stack) for stack in self.stacks]
        new.current = self.current
        new.phase = self.phase
        new.kept = list(self.kept)
        new.kept_mask = self.kept_mask
        new.dice_left = self.dice_left
        new.total = self.total
        new.roll = self.roll
        new.claims = self.claims
        new.turn = self.turn
        return new

    def to_text(self) -> str:
        """This position as one line of text that :meth:`from_text` reads back to an equal
        state (:mod:`pickomino.core.position`: the notation)."""
        kept, roll = self.kept_counts(), self.roll
        return Position(
            [list(stack) for stack in self.stacks], list(self.face_down), self.current,
            self.turn, self.phase, kept, roll if any(roll) else None, self.rules,
        ).write()  # fmt: skip

    @classmethod
    def from_text(cls, text: str) -> GameState:
        """The state a position's line describes, built through the engine's own moves, so
        that a position no game can reach is refused.

        >>> state = GameState.from_text("25/28,31 36 1 4 roll - - short")
        >>> state.current, state.top(1), state.grill[-1], state.to_text()
        (1, 31, 35, '25/28,31 36 1 4 roll - - short')
        """
        position = Position.read(text)
        if position.phase is Phase.OVER:
            state = _finished(cls, position)
        else:
            start = cls.from_position(
                position.stacks, position.down, position.current, position.rules
            )
            state = _reach(start, position)
        state.turn = position.turn
        return state

    def with_real_dice(self, kept: str = "", rolled: str | None = None) -> GameState:
        """This state's turn (from its start) with the real dice ``kept`` so far and just
        ``rolled`` (not yet, with ``None``): the score keeper's dice helper and ``advise``.
        A roll that leaves nothing to keep busts, as in the game: the turn has then passed
        on.

        >>> turn = GameState.from_position([[25], [28, 31]]).with_real_dice("WW44", "4455")
        >>> turn.total, turn.phase.value
        (18, 'keep')
        """
        kept_counts = parse_dice(kept)
        if sum(kept_counts) >= NUM_DICE or kept_counts.count(0) == 0:
            raise BadInput("turn_already_over", "R8")
        turn = self.from_position(
            self.stacks, self.face_down, self.current, self.rules, kept=kept_counts
        )
        if rolled is None:
            return turn
        roll = parse_dice(rolled)
        left = NUM_DICE - sum(kept_counts)
        if sum(roll) != left:
            raise BadInput("rolled_count", "R5", given=sum(roll), count=left)
        try:
            if any(kept_counts):
                turn.apply("roll")
            turn.apply_roll(roll)
        except IllegalAction as error:  # pragma: no cover - checked above
            raise BadInput(error.code, error.rule, **error.params) from None
        return turn

    def __deepcopy__(self, memo: dict[int, object]) -> GameState:
        """:meth:`copy`: rules and actions are immutable and shared (``apply`` finds legal
        actions by identity first), so a deep copy need not copy them."""
        return self.copy()

    def to_dict(self) -> dict[str, object]:
        """The public state as plain JSON-able data (for views and comparisons)."""
        return {
            "rules": self.rules.to_dict(),
            "num_players": self.num_players,
            "grill": list(self.grill),
            "face_down": list(self.face_down),
            "stacks": [list(stack) for stack in self.stacks],
            "worms": self.scores(),
            "current": self.current,
            "turn": self.turn,
            "phase": self.phase.value,
            "kept": self.kept_counts(),
            "dice_left": self.dice_left,
            "total": self.total,
            "roll": self.roll,
            "legal_actions": [action.name for action in self.legal_actions()],
        }

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return (
            f"<GameState turn {self.turn}, seat {self.current}, {self.phase.value}, "
            f"total {self.total}, grill {list(self.grill)}>"
        )


# ----------------------------------------------------- a position's text, as a state
def _reach(start: GameState, position: Position) -> GameState:
    """From the start of the turn to the position's phase with its dice, by the engine's
    moves; refused if the moves lead elsewhere (a bust, a claim taken at once)."""
    phase, kept = position.phase, position.kept
    written = format_dice(kept)
    if phase is Phase.KEEP:
        rolled = format_dice(position.rolled) if position.rolled else ""
        state = start.with_real_dice(written, rolled)
    elif phase is Phase.ROLL:
        state = start.with_real_dice(written)
        if any(kept):
            state.apply("roll")
    elif phase is Phase.CLAIM and _ends_turn(kept):
        state = _keep_last(start, kept)
    elif any(kept):  # roll_or_stop, claim: with dice kept
        state = start.with_real_dice(written)
        if phase is Phase.CLAIM:
            state.apply("stop")
    else:
        state = start
    if state.phase is not phase or state.current != start.current:
        raise BadInput("position_unreachable", phase=phase.value)
    return state


def _ends_turn(kept: Counts) -> bool:
    """No dice left, or every face kept: the turn ended with the keep (R8)."""
    return sum(kept) >= NUM_DICE or all(kept)


def _keep_last(start: GameState, kept: Counts) -> GameState:
    """The turn whose last keep (of the highest face kept) ended it (R8): the dice before,
    a roll that shows that face as often (and faces already kept for any other dice left),
    and the keep."""
    face = max(f for f, count in enumerate(kept) if count)
    before = [*kept[:face], 0, *kept[face + 1 :]]
    rolled = [0] * 6
    rolled[face] = kept[face]
    extra = NUM_DICE - sum(before) - kept[face]
    if extra:  # all six faces kept with dice to spare: they show a face kept before
        rolled[next(f for f, count in enumerate(before) if count)] += extra
    state = start.with_real_dice(format_dice(before), format_dice(rolled))
    if state.current == start.current and state.phase is not Phase.OVER:
        state.apply(A.keep(face))
    return state


def _finished(cls: type[GameState], position: Position) -> GameState:
    """A finished game: every tile in a stack or face down (R18)."""
    kept, down = position.kept, position.down
    held = sorted([*(tile for stack in position.stacks for tile in stack), *down])
    if held != list(TILES) or sum(kept) > NUM_DICE:
        raise BadInput("position_unreachable", phase=Phase.OVER.value)
    state = cls(len(position.stacks), position.rules, position.current)
    state.stacks = [list(stack) for stack in position.stacks]
    state.face_down_mask = sum(_bit(tile) for tile in down)
    state.grill_mask = 0
    state.phase, state.claims, state.roll = Phase.OVER, (), _NO_DICE
    state.kept, state.dice_left, state.total = list(kept), NUM_DICE - sum(kept), points(kept)
    return state
