"""The table layer: seats, dice sources, the one play loop and the session every face uses."""

from __future__ import annotations

import random

import pytest

from pickomino.bots import make_bot
from pickomino.core import BadInput, Game, GameState, IllegalAction, sample_roll
from pickomino.table import (
    KeyedDice,
    Person,
    Seat,
    SeededDice,
    Session,
    StalePlan,
    SystemDice,
    TypedDice,
    advance,
    apply,
    next_step,
    parse_seats,
    players,
    turn_starts,
)


def bot_name(number: int, bot: str) -> str:
    return f"Bot {number} ({bot})"


# ------------------------------------------------------------------ dice sources
def test_seeded_dice_repeat_and_differ_by_seed():
    state = GameState()
    rolls = [SeededDice(seed).roll(state) for seed in (1, 1, 2)]
    assert rolls[0] == rolls[1] and sum(rolls[0]) == 8
    many = {SeededDice(seed).roll(state) for seed in range(40)}
    assert len(many) > 20  # not one fixed roll


def test_keyed_dice_depend_only_on_seed_game_turn_and_roll_of_the_turn():
    """Two states at the same point of a turn get the same roll however they got there;
    the next roll of the turn, another turn or another game gets another."""
    first = GameState.from_position([[], []])
    again = GameState.from_position([[30], [25]], face_down=[36])  # another position
    dice = KeyedDice(seed=7, game=3)
    assert dice.roll(first) == dice.roll(again) == KeyedDice(7, 3).roll(first)
    later = GameState.from_position([[], []], kept="WW")  # the turn's second roll
    later.apply("roll")
    others = {
        dice.roll(later),
        KeyedDice(7, 4).roll(first),
        KeyedDice(8, 3).roll(first),
    }
    assert sum(dice.roll(later)) == 6 and dice.roll(first) not in others


def test_system_dice_roll_the_dice_left():
    state = GameState.from_position([[], []], kept="WW44")
    state.apply("roll")
    assert sum(SystemDice().roll(state)) == 4


def test_typed_dice_wait_for_a_person():
    assert TypedDice().roll(GameState()) is None


# ------------------------------------------------------------------ seats
def test_seats_are_people_and_bots_with_their_players():
    seats = parse_seats("Ann, bot:expert ,Bob,bot:random", bot_name)
    assert seats == [
        Seat("Ann"),
        Seat("Bot 2 (expert)", "expert"),
        Seat("Bob"),
        Seat("Bot 4 (random)", "random"),
    ]
    seated = players(seats, seed=5)
    assert [type(p).__name__ for p in seated] == ["Person", "ValuedBot", "Person", "RandomBot"]
    assert seated[0].choose(GameState()) is None  # a person answers through the session


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "no_seats"),
        ("Ann", "player_count"),
        ("Ann," + ",".join(["bot:easy"] * 7), "player_count"),
        ("Ann,,Bob", "seat_unnamed"),
        ("Ann,bot:", "seat_bot_unnamed"),
        ("Ann,bot:genius", "unknown_bot"),
        ("Mum,mum", "names_twice"),  # the same name, whatever the case (R1 counts people)
        ("3", "seat_is_number"),
        ("Ann,\udcff\udcfe", "name_not_text"),  # bytes a terminal could not read as UTF-8
    ],
)
def test_bad_seats_are_refused_with_what_is_wrong(text, code):
    with pytest.raises(BadInput) as refused:
        parse_seats(text, bot_name)
    assert refused.value.code == code


# ------------------------------------------------------------------ the loop
def test_advance_plays_bots_and_dice_to_the_end_exactly_like_a_hand_written_loop():
    """An independent route: the same bots and the same stream of dice, driven by hand."""
    bots = [make_bot("simple"), make_bot("random", 3)]
    state = GameState(2)
    advance(state, bots, SeededDice(11))
    hand, rng, by_hand = (
        GameState(2),
        random.Random(11),
        [make_bot("simple"), make_bot("random", 3)],
    )
    while not hand.is_over:
        if hand.is_chance():
            hand.apply_roll(sample_roll(hand.dice_left, rng))
        else:
            hand.apply(by_hand[hand.current].choose(hand))
    assert state.is_over and state == hand


def test_advance_stops_where_a_person_must_decide_and_records_a_game():
    """Rolls come from the dice source, a person's too: a person is asked for decisions
    (or, with real dice, for the dice)."""
    game = Game(["Robo", "Ann"])
    events = advance(game, [make_bot("simple"), Person()], SeededDice(2))
    assert game.state.current == 1 and game.state.phase.value == "keep"
    assert events and game.record.moves  # the bot's turn is in the record
    assert next_step(game.state, [make_bot("simple"), Person()], SeededDice(2)) is None
    before = list(game.record.moves)
    assert advance(game, [make_bot("simple"), Person()], TypedDice()) == []  # nothing moves
    assert game.record.moves == before


def test_apply_plays_a_step_on_a_game_or_a_bare_state_alike():
    game, state = Game(2), GameState(2)
    for target in (game, state):
        apply(target, (0, 0, 0, 2, 3, 3))
        apply(target, next_step(target if isinstance(target, GameState) else target.state,
                                [make_bot("simple")] * 2, SeededDice(0)))  # fmt: skip
    assert game.state == state and game.record.moves == ["dice 44555WWW", "keep W"]


def test_turn_starts_yield_every_turn_before_its_first_roll():
    state = GameState(3)
    seen = [
        (start.turn, start.current, start.dice_left)
        for start in turn_starts(state, [make_bot("simple")] * 3, SeededDice(4))
    ]
    assert state.is_over
    assert [turn for turn, _, _ in seen] == list(range(1, state.turn + 1))
    assert all(left == 8 for _, _, left in seen) and [s for _, s, _ in seen[:4]] == [0, 1, 2, 0]


# ------------------------------------------------------------------ the session
def session(*seats: Seat, dice=None) -> Session:
    return Session(Game([seat.name for seat in seats]), list(seats), dice or SeededDice(1), 1)


def test_a_person_rolls_keeps_and_the_bot_steps_in_its_turn():
    table = session(Seat("Ann"), Seat("Robo", "medium"))
    assert table.waiting_person() == 0 and table.actions() == ["roll"]
    table.decide("roll")
    assert table.state.phase.value == "keep" and table.actions()[0].startswith("keep")
    while table.waiting_person() == 0:
        table.decide(table.actions()[-1])  # keep the last face / stop / a claim
    assert table.is_bot_turn() and table.actions() == []
    with pytest.raises(IllegalAction) as refused:
        table.decide("roll")  # a person's command in the bot's turn
    assert refused.value.code == "bots_turn" and refused.value.rule == "R4"
    turn = table.state.turn
    while table.is_bot_turn() and table.state.turn == turn:
        table.step()
    assert table.waiting_person() == 0 or table.state.is_over


def test_a_person_may_name_the_dice_only_when_the_dice_are_real():
    """A server's player must not choose their roll: naming dice is refused unless the
    table plays with real dice, typed in."""
    table = session(Seat("Ann"), Seat("Bob"))
    with pytest.raises(IllegalAction) as refused:
        table.decide("dice WWWWWWWW")
    assert refused.value.code == "dice_not_typed" and table.game.record.moves == []
    real = session(Seat("Ann"), Seat("Bob"), dice=TypedDice())
    assert real.decide("roll") == []  # nothing rolled: the real dice are awaited
    real.decide("dice 1233WWW5")
    assert real.state.phase.value == "keep" and real.game.record.moves == ["dice 12335WWW"]
    with pytest.raises(IllegalAction):
        real.decide("dice 11111111")  # no roll is due now (R5)


# ------------------------------------------------------------------ a bot's step in parts
def test_a_bots_step_planned_thought_out_and_played_is_the_step_it_takes_at_once():
    """Plan, think, play: the same moves as :meth:`Session.step`; thinking changes nothing."""
    at_once, in_parts = (session(Seat("Robo", "medium"), Seat("Bot", "easy")) for _ in range(2))
    for _ in range(12):
        at_once.step()
        plan = in_parts.plan()
        step = plan.think()
        assert in_parts.game.record.moves == at_once.game.record.moves[:-1]  # not played yet
        in_parts.play(plan, step)
    assert in_parts.game.record.moves == at_once.game.record.moves
    assert in_parts.state == at_once.state


def test_a_plan_the_game_moved_on_from_is_refused_and_changes_nothing():
    table = session(Seat("Robo", "medium"), Seat("Bot", "easy"))
    plan = table.plan()
    step = plan.think()
    table.step()  # another step was played meanwhile (a catch-up, another process)
    moves, state = list(table.game.record.moves), table.state.copy()
    with pytest.raises(StalePlan):
        table.play(plan, step)
    assert table.game.record.moves == moves and table.state == state


@pytest.mark.parametrize("holder", [None, "hard"])
def test_a_plan_for_a_seat_that_changed_hands_is_refused(holder):
    """The person took their seat back (``None``), or another bot stands in now: the seat's
    holder now has the decision, even if it would decide the same."""
    table = session(Seat("Ann"), Seat("Bob"))
    table.stand_in(0, "easy")
    plan = table.plan()
    step = plan.think()
    table.stand_in(0, holder)
    with pytest.raises(StalePlan):
        table.play(plan, step)
    assert table.game.record.moves == []
    table.stand_in(0, "easy")  # back to a bot: a new bot, so the old plan is still refused
    with pytest.raises(StalePlan):
        table.play(plan, step)
    fresh = table.plan()
    table.play(fresh, fresh.think())  # a plan for the seat's holder now is played
    assert len(table.game.record.moves) == 1


def test_a_plan_may_be_played_with_a_legal_action_instead_of_its_thought():
    """A face whose bot failed plays a legal action of the plan's state instead."""
    table = session(Seat("Robo", "medium"), Seat("Bob"))
    table.step()  # the roll: a decision is due
    plan = table.plan()
    first = plan.state.legal_actions()[0]
    table.play(plan, first)
    assert table.game.record.moves[-1] == first.name


def test_only_a_bots_turn_is_planned_and_real_dice_are_not_thought_out():
    with pytest.raises(IllegalAction) as refused:
        session(Seat("Ann"), Seat("Robo", "medium")).plan()  # Ann's turn
    assert refused.value.code == "not_a_bot_turn" and refused.value.rule == "R4"
    real = session(Seat("Robo", "medium"), Seat("Ann"), dice=TypedDice())
    plan = real.plan()
    with pytest.raises(IllegalAction) as refused:
        plan.think()  # somebody must type in the dice
    assert refused.value.code == "dice_wanted" and refused.value.rule == "R5"


def test_a_plan_is_thought_out_on_its_own_copy_while_the_game_goes_on():
    """Thinking touches nothing of the session: its state may change meanwhile (in a face,
    another thread), and the plan still thinks about the game as it stood."""
    table = session(Seat("Robo", "medium"), Seat("Bot", "easy"))
    table.step()  # the first roll: Robo decides next
    plan = table.plan()
    table.step()  # the game goes on before the plan is thought out
    assert plan.state != table.state
    step = plan.think()
    assert step in plan.state.legal_actions()
