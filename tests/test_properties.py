"""Property tests: random games under every preset, checking invariants step by step.

Games are driven by a seeded :class:`random.Random` drawn from hypothesis (one integer
seed per game), so hypothesis only has to shrink a handful of integers. Every decision is
taken either uniformly among the legal actions or by a "sensible" policy (keep worms,
keep the most points, stop as soon as a tile can be claimed); the mix is chosen per game,
so that some games are long and chaotic, and others are short and full of steals.

Run ``pytest tests/test_properties.py --hypothesis-show-statistics`` to see how often
steals, claim choices and busts with a returned tile occur.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction

import pytest
from hypothesis import currently_in_test_context, event, given, settings
from hypothesis import strategies as st

from pickomino.core import (
    NUM_ACTIONS,
    PRESETS,
    TILES,
    Action,
    Event,
    Game,
    GameOver,
    GameRecord,
    GameState,
    IllegalAction,
    Phase,
    TileReturned,
    TileStolen,
    TileTaken,
    TileTurned,
    format_dice,
    parse_dice,
    sample_roll,
    worms_on,
)
from pickomino.core.rules import FACE_POINTS, MAX_PLAYERS, MIN_PLAYERS, NUM_DICE

# Each property plays 60 to 150 random whole games: the full run (CI).
pytestmark = pytest.mark.slow

DICE_PREFIX = "dice "
KEEP_WORM = Action.parse("keep W")
ROLL = Action.parse("roll")
STOP = Action.parse("stop")
#: Per game, the probability that a decision follows the sensible policy.
#: (Pure random play, 0.0, takes ~2000 moves a game and rarely steals.)
SENSIBLE_MIXES = (0.25, 0.6, 0.9, 1.0)
#: Far beyond any real game here (the longest take ~2000 moves): a game still going is stuck.
MAX_GAME_MOVES = 20_000


# --------------------------------------------------------------------------- driving
@dataclass(frozen=True)
class Setup:
    """One random game: players, rule preset, start player and the seed of its dice/choices."""

    num_players: int
    preset: str
    start_player: int
    seed: int

    def new_game(self) -> Game:
        return Game(self.num_players, PRESETS[self.preset], self.start_player)


@st.composite
def setups(draw: st.DrawFn) -> Setup:
    num_players = draw(st.integers(MIN_PLAYERS, MAX_PLAYERS))
    return Setup(
        num_players=num_players,
        preset=draw(st.sampled_from(sorted(PRESETS))),
        start_player=draw(st.integers(0, num_players - 1)),
        seed=draw(st.integers(0, 2**32 - 1)),
    )


@dataclass(frozen=True)
class Step:
    """One move of a game: the state before it (a copy), the move, its events, and the game
    (whose ``state`` is the state after the move, until the driver is resumed)."""

    before: GameState
    move: str
    events: list[Event]
    game: Game

    @property
    def after(self) -> GameState:
        return self.game.state

    @property
    def is_roll(self) -> bool:
        return self.move.startswith(DICE_PREFIX)

    def features(self) -> set[str]:
        """The notable things this move did (for coverage statistics)."""
        found = {FEATURES[type(e)] for e in self.events if type(e) in FEATURES}
        if self.before.phase is Phase.CLAIM:
            found.add(CLAIM_CHOICE)
        return found


CLAIM_CHOICE = "claim choice"
FEATURES: dict[type, str] = {
    TileStolen: "steal",
    TileReturned: "bust with a returned tile",
    TileTurned: "tile turned face down",
}


def sensible_action(state: GameState, rng: random.Random) -> Action:
    """Keep worms first, else the face worth most; stop as soon as a tile can be claimed."""
    legal = state.legal_actions()
    if state.phase is Phase.KEEP:
        if KEEP_WORM in legal:
            return KEEP_WORM
        return max(legal, key=lambda a: state.roll[a.face] * FACE_POINTS[a.face])
    if state.phase is Phase.ROLL_OR_STOP:
        return STOP if state.has_worm() and state.claimable(state.total) else ROLL
    return rng.choice(legal)  # a claim choice: any of them


def play(setup: Setup, max_steps: int | None = None) -> Iterator[Step]:
    """Play one game (to its end, or ``max_steps`` moves), yielding every move.

    Between two yields the game is not touched, so a consumer may inspect (or probe with
    illegal moves) ``step.game.state`` before asking for the next move.
    """
    rng = random.Random(setup.seed)
    sensible = rng.choice(SENSIBLE_MIXES)
    game = setup.new_game()
    seen: set[str] = set()
    index = 0
    while not game.state.is_over and (max_steps is None or index < max_steps):
        assert index < MAX_GAME_MOVES, f"the game has not ended after {index} moves (R18)"
        state = game.state
        before = state.copy()
        if state.is_chance():
            events = game.roll(sample_roll(state.dice_left, rng))
        else:
            use_sensible = rng.random() < sensible
            action = (
                sensible_action(state, rng) if use_sensible else rng.choice(state.legal_actions())
            )
            events = game.play(action)
        step = Step(before, game.record.moves[-1], events, game)
        seen |= step.features()
        yield step
        index += 1
    if currently_in_test_context():
        for feature in sorted(seen):
            event(feature)
        if game.state.is_over:
            event("game played to its end")


def test_the_driver_reaches_steals_claim_choices_and_busts() -> None:
    """The random games of these properties do steal (R11b), choose among claims (R12) and
    bust with a tile to return (R15, R16): a fixed sample of games shows all of them."""
    seen: set[str] = set()
    for seed in range(12):
        setup = Setup(2 + seed % 6, sorted(PRESETS)[seed % 3], 0, seed)
        for step in play(setup):
            seen |= step.features()
    assert seen == {CLAIM_CHOICE, *FEATURES.values()}


def all_tiles(state: GameState) -> list[int]:
    return sorted([*state.grill, *state.face_down, *(t for s in state.stacks for t in s)])


# ------------------------------------------------------------------------ properties
@settings(max_examples=150, deadline=None)
@given(setups())
def test_every_tile_accounted_for_exactly_once(setup: Setup) -> None:
    """R3/R4: the 16 tiles lie exactly once in grill + face-down + stacks, after every step."""
    game = setup.new_game()
    assert all_tiles(game.state) == list(TILES)
    for step in play(setup):
        assert all_tiles(step.after) == list(TILES), step.move


@settings(max_examples=150, deadline=None)
@given(setups())
def test_only_the_top_of_a_stack_changes_hands(setup: Setup) -> None:
    """R14/R15: per step each stack is unchanged, gains one tile on top (only the current
    player's) or loses its top (another player's only by a TileStolen naming it)."""
    for step in play(setup):
        before, after = step.before, step.after
        stolen = [e for e in step.events if isinstance(e, TileStolen)]
        returned = [e for e in step.events if isinstance(e, TileReturned)]
        won = [e.tile for e in step.events if isinstance(e, TileTaken | TileStolen)]
        for seat, (old, new) in enumerate(zip(before.stacks, after.stacks, strict=True)):
            if new == old:
                continue
            if len(new) == len(old) + 1 and new[:-1] == old:
                assert seat == before.current, f"seat {seat} gained on another's turn"
                assert won == [new[-1]]
                continue
            assert len(new) == len(old) - 1 and new == old[:-1], (seat, old, new)
            if seat == before.current:
                assert returned == [TileReturned(seat, old[-1])]
            else:
                assert [(e.victim, e.tile) for e in stolen] == [(seat, old[-1])]
                assert after.top(before.current) == old[-1]


@settings(max_examples=150, deadline=None)
@given(setups())
def test_worm_totals_match_stacks_and_event_bookkeeping(setup: Setup) -> None:
    """R19/R21: scores() equals the worms on each stack, and per step the worms added and
    taken off by TileTaken / TileStolen / TileReturned events equal the change in scores."""
    game = setup.new_game()
    keeper = [0] * setup.num_players  # the live score keeper of R21, fed by events only
    assert game.state.scores() == keeper
    for step in play(setup):
        for e in step.events:
            if isinstance(e, TileTaken):
                keeper[e.seat] += worms_on(e.tile)
            elif isinstance(e, TileStolen):
                keeper[e.seat] += worms_on(e.tile)
                keeper[e.victim] -= worms_on(e.tile)
            elif isinstance(e, TileReturned):
                keeper[e.seat] -= worms_on(e.tile)
        scores = step.after.scores()
        assert scores == [sum(worms_on(t) for t in stack) for stack in step.after.stacks]
        assert scores == keeper, step.move


@settings(max_examples=150, deadline=None)
@given(setups())
def test_a_face_down_tile_never_comes_back(setup: Setup) -> None:
    """R16: face_down only grows (one TileTurned per new face-down tile), and a face-down tile
    never appears on the grill or in a stack again."""
    gone: set[int] = set()
    for step in play(setup):
        after = step.after
        down = set(after.face_down)
        assert gone <= down, f"{gone - down} came back"
        turned = {e.tile for e in step.events if isinstance(e, TileTurned)}
        assert down - gone == turned
        gone = down
        assert not gone & set(after.grill)
        assert not any(gone & set(stack) for stack in after.stacks)


@settings(max_examples=150, deadline=None)
@given(setups())
def test_game_ends_exactly_when_the_grill_is_empty(setup: Setup) -> None:
    """R18/C9: is_over iff no face-up grill tile is left, and GameOver is emitted exactly
    once, at the step that empties the grill."""
    game_overs = 0
    last: Step | None = None
    for step in play(setup):
        assert not step.before.is_over
        over_events = [e for e in step.events if isinstance(e, GameOver)]
        assert step.after.is_over == (not step.after.grill)
        assert len(over_events) == (1 if step.after.is_over else 0)
        game_overs += len(over_events)
        last = step
    assert last is not None and last.after.is_over
    assert game_overs == 1
    assert not last.after.legal_actions() and not last.after.is_chance()
    (over,) = [e for e in last.events if isinstance(e, GameOver)]
    assert over.ranking == last.after.ranking()


@settings(max_examples=150, deadline=None)
@given(setups())
def test_chance_probabilities_sum_to_one(setup: Setup) -> None:
    """R2/R5: at every chance node the outcomes' Fraction probabilities sum to exactly 1,
    each outcome shows dice_left dice, and the sampled roll is one of them."""
    for step in play(setup):
        state = step.before
        outcomes = state.chance_outcomes()
        if not step.is_roll:
            assert outcomes == ()
            continue
        rolls = _checked_outcomes(outcomes, state.dice_left)
        assert step.events[0].dice in rolls  # type: ignore[union-attr]


Outcomes = tuple[tuple[tuple[int, ...], Fraction], ...]
#: Outcome tuples already checked in full, by id (kept alive here, and immutable, so the
#: very same object needs no re-check: summing 1287 Fractions at every chance node would
#: dominate the runtime).
_CHECKED: dict[int, tuple[Outcomes, int, frozenset[tuple[int, ...]]]] = {}


def _checked_outcomes(outcomes: Outcomes, dice: int) -> frozenset[tuple[int, ...]]:
    """Check one chance node's outcomes; return the set of rolls."""
    cached = _CHECKED.get(id(outcomes))
    if cached is not None and cached[0] is outcomes and cached[1] == dice:
        return cached[2]
    assert all(isinstance(p, Fraction) and p > 0 for _, p in outcomes)
    assert sum(p for _, p in outcomes) == Fraction(1)
    assert all(len(c) == 6 and sum(c) == dice for c, _ in outcomes)
    rolls = frozenset(c for c, _ in outcomes)
    assert len(rolls) == len(outcomes)
    _CHECKED[id(outcomes)] = (outcomes, dice, rolls)
    return rolls


@settings(max_examples=60, deadline=None)
@given(setups())
def test_record_json_round_trip_replays_to_the_same_state(setup: Setup) -> None:
    """Records: at random points (and at the end) record -> JSON -> Game.from_json gives an
    equal state and the same moves; each move is written in its canonical form."""
    probe = random.Random(f"json {setup.seed}")
    checked = 0
    last: Step | None = None
    for step in play(setup):
        last = step
        if probe.random() < 0.02:
            _check_round_trip(step.game)
            checked += 1
    assert last is not None
    _check_round_trip(last.game)
    event("json round trips in a game: " + ("1 to 5" if checked < 5 else "6 or more"))


@settings(max_examples=60, deadline=None)
@given(setups())
def test_every_position_s_text_reads_back_to_the_same_state(setup: Setup) -> None:
    """The position notation round-trips like FEN, in every phase of every turn, the
    game's end included: ``GameState.from_text(state.to_text()) == state``."""
    phases = set()
    last: Step | None = None
    for step in play(setup):
        last = step
        for state in (step.before, step.game.state):
            assert GameState.from_text(state.to_text()) == state, state.to_text()
            phases.add(state.phase)
    assert last is not None and last.game.state.is_over
    event(f"phases seen: {len(phases)}")


def _check_round_trip(game: Game) -> None:
    text = game.to_json()
    loaded = Game.from_json(text)
    assert loaded.state == game.state
    assert loaded.record.moves == game.record.moves
    assert loaded.record.to_dict() == game.record.to_dict()
    assert loaded.to_json() == text
    for move in game.record.moves:  # canonical: reading and writing a move gives it back
        if move.startswith(DICE_PREFIX):
            dice = move.removeprefix(DICE_PREFIX)
            assert format_dice(parse_dice(dice)) == dice
        else:
            assert Action.parse(move).name == move


def _bad_rolls(state: GameState, rng: random.Random) -> list[tuple[int, ...]]:
    """Rolls that are wrong at this chance node: too few/many dice, bad shape, negatives."""
    n = state.dice_left
    bad: list[tuple[int, ...]] = []
    for size in {0, n - 1, n + 1, rng.randint(0, NUM_DICE)} - {n}:
        if 0 <= size <= NUM_DICE:
            bad.append(sample_roll(size, rng) if size else (0,) * 6)
    good = sample_roll(n, rng)
    bad.append(good[:5])
    bad.append((*good, 0))
    bad.append((-1, *good[1:-1], good[-1] + 1))
    return bad


def _assert_refused(state: GameState, attempt: object, call: Callable[[], object]) -> None:
    snapshot = state.to_dict()
    try:
        call()
    except IllegalAction as error:  # a move names its rule; an undo has none to name
        assert error.rule or attempt == "undo", f"{attempt!r}: IllegalAction without a rule"
        assert error.code and str(error), f"{attempt!r}: IllegalAction without words"
    else:
        raise AssertionError(f"{attempt!r} was accepted in phase {state.phase}")
    assert state.to_dict() == snapshot, f"{attempt!r} changed the state"


@settings(max_examples=60, deadline=None)
@given(setups())
def test_illegal_actions_never_change_the_state(setup: Setup) -> None:
    """Every action id not in legal_action_ids(), a roll at a decision node, and wrong-sized
    rolls at a chance node raise IllegalAction with a rule and leave to_dict() unchanged."""
    probe = random.Random(f"illegal {setup.seed}")
    last: Step | None = None
    for step in play(setup):
        last = step
        if step.after.phase is Phase.CLAIM or probe.random() < 0.1:
            _probe_illegal(step.game, probe)
    assert last is not None
    _probe_illegal(last.game, probe)  # the finished game refuses everything


def _probe_illegal(game: Game, rng: random.Random) -> None:
    state = game.state
    moves = list(game.record.moves)
    legal = set(state.legal_action_ids())
    for action_id in range(NUM_ACTIONS):
        if action_id not in legal:
            _assert_refused(state, action_id, lambda a=action_id: game.play(a))
    if state.is_chance():
        assert not legal
        for roll in _bad_rolls(state, rng):
            _assert_refused(state, roll, lambda r=roll: state.apply_roll(r))  # type: ignore[misc]
            if min(roll) >= 0 and len(roll) == 6:  # also written out, and through the Game
                text = format_dice(roll)  # type: ignore[arg-type]
                move = DICE_PREFIX + text
                _assert_refused(state, text, lambda t=text: state.apply_roll(t))
                _assert_refused(state, move, lambda m=move: game.push(m))
    else:
        roll = sample_roll(state.dice_left or NUM_DICE, rng)
        _assert_refused(state, roll, lambda: state.apply_roll(roll))
        _assert_refused(state, "game.roll", lambda: game.roll(roll))
    assert game.record.moves == moves, "a refused move was recorded"


@settings(max_examples=150, deadline=None)
@given(setups(), st.integers(1, 1500), st.integers(1, 3))
def test_undo_equals_replay_without_the_last_decision(
    setup: Setup, prefix: int, undos: int
) -> None:
    """Game.undo() after a random prefix gives the state of replaying the record without
    its last decision and the rolls after it (which is also the state before that decision);
    repeated up to three times."""
    decided_from: list[GameState] = []  # the state before each decision, in order
    game: Game | None = None
    for step in play(setup, max_steps=prefix):
        game = step.game
        if not step.is_roll:
            decided_from.append(step.before)
    assert game is not None
    for _ in range(undos):
        moves = list(game.record.moves)
        if not decided_from:  # only a roll so far: nothing to undo
            _assert_refused(game.state, "undo", game.undo)
            return
        cut = max(i for i, move in enumerate(moves) if not move.startswith(DICE_PREFIX))
        record = GameRecord(
            seats=list(game.seats),
            rules=game.record.rules,
            start_player=game.record.start_player,
            moves=moves[:cut],
        )
        expected = Game.from_record(record).state
        assert game.undo() == moves[cut:]
        assert game.record.moves == moves[:cut]
        assert game.state == expected
        assert game.state == decided_from.pop()
        assert len(game.history) == cut
