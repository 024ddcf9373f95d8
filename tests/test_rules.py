"""One test (at least) per rule R1–R21 and worked case C1–C11 (pickomino/i18n/en/rules.md).

Positions are built with ``GameState.from_position`` and dice are typed in, so every
expectation below comes from the rules text, not from the engine.
"""

from fractions import Fraction
from math import comb

import pytest

from pickomino.core import (
    Bust,
    GameOver,
    GameState,
    IllegalAction,
    Phase,
    Rules,
    TileReturned,
    TileStolen,
    TileTaken,
    TileTurned,
    roll_outcomes,
    worms_on,
)
from pickomino.core.errors import BadInput
from pickomino.core.rules import FACE_POINTS, FACE_SYMBOLS
from pickomino.i18n import Words

OFFICIAL, SHORT, BGA = Rules.preset("official"), Rules.preset("short"), Rules.preset("bga")


def names(actions):
    return [action.name for action in actions]


def stop_with(kept, stacks=([], []), **position):
    """Stop a turn in which ``kept`` (e.g. ``"WW44"``) was kept; return the events."""
    return GameState.from_position(stacks, kept=kept, **position).apply("stop")


# ------------------------------------------------------------------ material
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7])
def test_r1_two_to_seven_players(players):
    """R1: 2 to 7 players are accepted."""
    assert GameState(players).num_players == players


@pytest.mark.parametrize("players", [0, 1, 8])
def test_r1_other_player_counts_are_refused(players):
    """R1: fewer than 2 or more than 7 players is refused with the rule named."""
    with pytest.raises(ValueError, match="R1"):
        GameState(players)


def test_r2_eight_dice_and_face_points():
    """R2: 8 dice; faces 1–5 score their value and a worm scores 5."""
    state = GameState(2)
    assert state.dice_left == 8
    assert all(sum(c) == 8 for c, _ in state.chance_outcomes())
    assert FACE_POINTS == (1, 2, 3, 4, 5, 5)
    state.apply_roll("WWW11111")
    state.apply("keep W")
    assert state.total == 15


def test_r2_roll_probabilities_are_multinomial():
    """R2: fair six-sided dice: P(all 8 show a worm) = 6^-8, outcomes = C(8+5, 5)."""
    outcomes = dict(roll_outcomes(8))
    assert len(outcomes) == comb(13, 5)
    assert outcomes[(0, 0, 0, 0, 0, 8)] == Fraction(1, 6**8)
    assert outcomes[(1, 1, 1, 1, 1, 3)] == Fraction(8 * 7 * 6 * 5 * 4, 6**8)
    assert sum(outcomes.values()) == 1


def test_r3_sixteen_tiles_with_worms():
    """R3: tiles 21..36 carry 1, 2, 3, 4 worms in blocks of four."""
    assert GameState(2).grill == tuple(range(21, 37))
    assert [worms_on(t) for t in range(21, 37)] == [1] * 4 + [2] * 4 + [3] * 4 + [4] * 4
    with pytest.raises(ValueError, match="R3"):
        worms_on(37)


def test_r4_setup_and_start_player():
    """R4: all tiles face up, stacks empty, seat 0 starts by default or the chosen seat."""
    state = GameState(4)
    assert state.face_down == () and state.stacks == [[], [], [], []]
    assert state.current == 0
    assert GameState(4, start_player=2).current == 2
    with pytest.raises(ValueError, match="R4"):
        GameState(3, start_player=3)


def test_r4_play_passes_to_the_left():
    """R4/R17: after a turn the next seat in order plays, wrapping around."""
    state = GameState(3, start_player=2)
    state.apply_roll("11111111")
    state.apply("keep 1")  # no dice left, no worm: bust, next player
    assert state.current == 0


# ------------------------------------------------------------------ a turn
def test_r5_roll_all_dice_not_yet_kept():
    """R5: a turn starts by rolling 8 dice; later rolls use only the dice not kept."""
    state = GameState(2)
    assert state.is_chance() and state.dice_left == 8
    state.apply_roll("WW123345")
    state.apply("keep 3")
    state.apply("roll")
    assert state.dice_left == 6
    assert all(sum(c) == 6 for c, _ in state.chance_outcomes())
    with pytest.raises(IllegalAction, match="R5"):
        state.apply_roll("1234WW12")


def test_r6_keep_all_dice_of_one_face():
    """R6: keeping a face keeps every die showing it; faces not rolled are refused."""
    state = GameState(2)
    state.apply_roll("W4444123")
    with pytest.raises(IllegalAction) as refused:
        state.apply("keep 5")
    assert refused.value.rule == "R6"
    state.apply("keep 4")
    assert state.kept_counts() == (0, 0, 0, 4, 0, 0) and state.dice_left == 4


def test_r6_only_one_face_per_roll():
    """R6: after keeping, the next step is roll or stop, not another keep."""
    state = GameState(2)
    state.apply_roll("W4444123")
    state.apply("keep 4")
    with pytest.raises(IllegalAction):
        state.apply("keep W")


def test_c1_face_kept_earlier_cannot_be_kept_again():
    """C1: kept WW44 (18); roll 4 4 5 W → the only legal keep is the 5 (total 23)."""
    state = GameState.from_position([[], []], kept="WW44")
    assert state.total == 18
    state.apply("roll")
    state.apply_roll("445W")
    assert names(state.legal_actions()) == ["keep 5"]
    with pytest.raises(IllegalAction, match="R6"):
        state.apply("keep 4")
    state.apply("keep 5")
    assert state.total == 23


def test_r7_c2_roll_with_no_new_face_busts_at_once():
    """R7 / C2: kept WW445 (23); a roll of only 4, 5 and W busts immediately."""
    state = GameState.from_position([[], []], kept="WW445")
    state.apply("roll")
    events = state.apply_roll("45W")
    assert Bust(0, "no_new_face", 23) in events
    assert state.current == 1 and state.phase is Phase.ROLL


@pytest.mark.parametrize(
    ("kept", "roll", "face", "total"),
    [
        ("WWW33", "222", "keep 2", 27),  # no dice left after the keep
        ("1234W", "555", "keep 5", 30),  # all six faces kept, 0 dice could still roll
    ],
    ids=["no dice left", "all six faces kept"],
)
def test_r8_a_turn_that_cannot_roll_ends_as_if_stopped(kept, roll, face, total):
    """R8: with no dice left or all six faces kept the player cannot roll; the turn ends
    and claims at once, without a stop."""
    state = GameState.from_position([[], []], kept=kept)
    state.apply("roll")
    state.apply_roll(roll)
    events = state.apply(face)
    assert TileTaken(0, total, total) in events
    assert state.current == 1


def test_r9_total_is_sum_of_kept_points():
    """R9: the kept total is the sum of points of all kept dice (worm = 5)."""
    state = GameState.from_position([[], []], kept="123WW")
    assert state.total == 1 + 2 + 3 + 5 + 5


def test_r10_c5_stop_without_worm_is_a_bust():
    """R10 / C5: total 24 without a worm busts even though 24 is on the grill."""
    position = GameState.from_position([[], []], kept="55554")
    assert position.total == 24 and 24 in position.grill
    assert Bust(0, "no_worm", 24) in position.apply("stop")


def test_r10_stopping_is_always_allowed_after_a_keep():
    """R10: stop is legal after every keep, even when it will bust."""
    state = GameState(2)
    state.apply_roll("11122233")
    state.apply("keep 1")
    assert names(state.legal_actions()) == ["roll", "stop"]


def test_r10_c11_low_total_busts_only_when_the_turn_ends():
    """R10 / C11: total 22 with a worm, grill 23..36 only, nobody holds 22 → bust on stop;
    rolling again instead is allowed and busts nothing yet."""
    position = GameState.from_position([[], []], face_down=[21, 22], current=1, kept="W5552")
    assert position.total == 22 and position.grill[0] == 23
    rolling = position.copy()
    rolling.apply("roll")
    assert rolling.is_chance() and rolling.current == 1
    events = position.apply("stop")
    assert Bust(1, "too_low", 22) in events


# ------------------------------------------------------------------ claims
def test_r11a_exact_tile_from_the_grill():
    """R11a: the tile equal to the total is taken from the grill."""
    events = stop_with("WW554")
    assert TileTaken(0, 24, 24) in events


def test_r11b_steal_exact_top_tile():
    """R11b: the exact total steals an opponent's top tile (26 not on the grill below)."""
    state = GameState.from_position([[], [25, 26]], face_down=[21, 22, 23, 24], kept="WW5551")
    assert state.total == 26
    events = state.apply("stop")
    assert TileStolen(0, 26, 1, 26) in events
    assert state.stacks == [[26], [25]]


def test_r11b_cannot_steal_a_tile_under_the_top():
    """R11b/R14: a tile under an opponent's top cannot be stolen; the lower grill tile is."""
    blocked = GameState.from_position([[], [24, 30]], kept="WWW4")  # 24 is under 30
    assert names(blocked.claimable(24)) == ["take 23"]


def test_r11b_never_from_ones_own_stack():
    """R11b/R11c: the tile on one's own top is not claimed; the nearest lower one is."""
    state = GameState.from_position([[26], []], kept="WW5551")
    events = state.apply("stop")
    assert TileTaken(0, 25, 26) in events


def test_r11c_nearest_lower_tile_when_exact_is_face_down():
    """R11c: total 30 with 30 face down takes the nearest lower face-up tile."""
    state = GameState.from_position([[], []], face_down=[30, 29], kept="WW5555")
    assert state.total == 30
    assert TileTaken(0, 28, 30) in state.apply("stop")


def test_c3_total_above_36_takes_36_but_cannot_steal_it():
    """C3: total 40 with a worm takes 36 from the grill; 36 on an opponent's top and 35 on
    the grill → takes 35, never steals 36."""
    state = GameState.from_position([[], []], kept="WWWW")
    state.apply("roll")
    state.apply_roll("5555")
    events = state.apply("keep 5")  # 40 with no dice left: the turn ends (R8)
    assert TileTaken(0, 36, 40) in events
    held = GameState.from_position([[], [36]], kept="WWWW")
    held.apply("roll")
    held.apply_roll("5555")
    events = held.apply("keep 5")
    assert TileTaken(0, 35, 40) in events
    assert held.stacks == [[35], [36]]


def test_r12_c4_choice_between_steal_and_lower_tile():
    """R12 / C4 (official): total 27, 27 on an opponent's top, 26 and 25 face up → the
    player chooses: steal 27 or take 26."""
    state = GameState.from_position([[], [27]], kept="WWW552")
    assert state.total == 27
    state.apply("stop")
    assert state.phase is Phase.CLAIM
    assert names(state.legal_actions()) == ["take 26", "steal 27"]
    with pytest.raises(IllegalAction, match="R11"):
        state.apply("take 25")
    events = state.apply("steal 27")
    assert TileStolen(0, 27, 1, 27) in events


def test_c4_exact_match_mandatory_forces_the_steal():
    """C4 (exact_match_mandatory): the steal of 27 is forced."""
    rules = Rules(exact_match_mandatory=True)
    state = GameState.from_position([[], [27]], rules=rules, kept="WWW552")
    events = state.apply("stop")
    assert TileStolen(0, 27, 1, 27) in events


def test_c4_lower_tile_any_offers_every_lower_tile():
    """C4 (lower_tile=any): 25 or 26 may be taken instead; under bga the steal is forced."""
    rules = Rules(lower_tile="any")
    state = GameState.from_position(
        [[], [27]], face_down=[21, 22, 23, 24], rules=rules, kept="WWW552"
    )
    state.apply("stop")
    assert names(state.legal_actions()) == ["take 25", "take 26", "steal 27"]
    bga = GameState.from_position([[], [27]], rules=BGA, kept="WWW552")
    assert TileStolen(0, 27, 1, 27) in bga.apply("stop")


def test_r12_a_single_claim_must_be_taken():
    """R12: with exactly one claim the tile is taken; the player cannot refuse it."""
    state = GameState.from_position([[], []], kept="WW554")
    events = state.apply("stop")
    assert TileTaken(0, 24, 24) in events and state.stacks[0] == [24]


def test_r13_no_claim_is_a_bust():
    """R13: a worm but a total below every available tile busts."""
    state = GameState.from_position([[], []], kept="W11")
    assert Bust(0, "too_low", 7) in state.apply("stop")


def test_r14_won_tile_goes_on_top_and_only_top_is_stealable():
    """R14: a won tile is placed on top of the winner's stack."""
    state = GameState.from_position([[22, 25], []], kept="WW5554")
    state.apply("stop")
    assert state.stacks[0] == [22, 25, 29] and state.top(0) == 29


# ------------------------------------------------------------------ bust
def test_r15_c6_bust_returns_top_tile_and_turns_highest():
    """R15/R16 / C6: bust holding [22, 30]: 30 returns face up, 36 turns face down."""
    state = GameState.from_position([[22, 30], []], kept="11")
    events = state.apply("stop")
    assert events == [Bust(0, "no_worm", 2), TileReturned(0, 30), TileTurned(36)]
    assert 30 in state.grill and state.face_down == (36,)
    assert state.stacks[0] == [22]


def test_c7_returned_highest_tile_stays_face_up():
    """C7: bust holding [25, 36], grill highest is 35 → 36 returns and stays, nothing turns;
    under flip_returned_highest 36 turns face down."""
    state = GameState.from_position([[25, 36], []], kept="11")
    events = state.apply("stop")
    assert TileTurned(36) not in events and not state.face_down
    assert 36 in state.grill
    short = GameState.from_position([[25, 36], []], rules=SHORT, kept="11")
    events = short.apply("stop")
    assert TileTurned(36) in events and short.face_down == (36,)


def test_r16_c8_bust_with_nothing_to_return_turns_nothing():
    """R16 / C8: a bust holding nothing returns nothing and turns nothing."""
    state = GameState.from_position([[], [30]], kept="11")
    events = state.apply("stop")
    assert events == [Bust(0, "no_worm", 2)]
    assert state.grill == tuple(t for t in range(21, 37) if t != 30)


def test_r17_after_a_bust_play_passes_on():
    """R17: after a bust the next player rolls all 8 dice."""
    state = GameState.from_position([[22], [], []], current=1, kept="11")
    state.apply("stop")
    assert state.current == 2 and state.dice_left == 8 and state.total == 0


# ------------------------------------------------------------------ end
def test_r18_c9_taking_the_last_grill_tile_ends_the_game():
    """R18 / C9: the player takes the last face-up grill tile → the game ends at once."""
    others = [t for t in range(21, 37) if t != 24]
    state = GameState.from_position([[], others[:8]], face_down=others[8:], kept="WW554")
    events = state.apply("stop")
    assert isinstance(events[-1], GameOver)
    assert state.is_over and not state.legal_actions() and not state.is_chance()


def test_r18_bust_can_end_the_game_under_flip_returned_highest():
    """R18: the check runs after every turn; a bust can empty the grill (short game)."""
    state = GameState.from_position(
        [[21], [22, 23, 24, 25]], face_down=range(27, 37), rules=SHORT, current=1, kept="11"
    )
    # grill: 26 only; seat 1 busts: 25 returns, the highest (26) turns face down
    events = state.apply("stop")
    assert not state.is_over and state.grill == (25,)
    assert TileTurned(26) in events
    last = GameState.from_position(
        [[21], [22, 23, 24, 25, 26]], face_down=range(28, 37), rules=SHORT, current=1, kept="11"
    )
    # grill: 27 only; seat 1 busts: 26 returns, 27 turns, then 26 is the only tile
    assert TileTurned(27) in last.apply("stop") and last.grill == (26,)
    only = GameState.from_position(
        [[21], [22, 23, 24, 25, 27]], face_down=range(28, 37), rules=SHORT, current=1, kept="11"
    )
    # grill: 26 only; 27 returns and is the highest: turned (short game) → grill is 26 only
    only.apply("stop")
    assert only.grill == (26,) and not only.is_over


def test_r18_game_goes_on_while_a_face_up_tile_remains():
    """R18: a bust that returns a tile never ends the game under official rules."""
    state = GameState.from_position(
        [[21, 22, 23], [24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34]],
        face_down=[35],
        current=0,
        kept="11",
    )
    events = state.apply("stop")  # 23 returns; highest face-up is 36 → turned
    assert TileTurned(36) in events
    assert state.grill == (23,) and not state.is_over


def test_r19_score_is_worms_not_numbers():
    """R19: a player's score counts worms: [21, 36] is 1 + 4 = 5."""
    state = GameState.from_position([[21, 36], [29]])
    assert state.scores() == [5, 3]


def test_r20_c10_tie_on_worms_broken_by_highest_tile():
    """R20 / C10: 7–7; the player holding 34 beats the player whose highest is 33."""
    state = GameState.from_position([[22, 28, 33], [21, 25, 34]])  # 1+2+4 vs 1+2+4
    ranking = state.ranking()
    assert state.scores() == [7, 7]
    assert [s.seat for s in ranking] == [1, 0]
    assert [s.rank for s in ranking] == [1, 2]
    assert state.winners() == [1]


def test_r20_tied_players_without_tiles_share_the_win():
    """R20: tied players holding no tiles share the win."""
    state = GameState.from_position([[], [], [21]])
    ranking = state.ranking()
    assert ranking[0].seat == 2 and ranking[0].rank == 1
    assert {(s.seat, s.rank) for s in ranking[1:]} == {(0, 2), (1, 2)}
    empty = GameState(3)
    assert empty.winners() == [0, 1, 2]


def test_r20_game_over_event_carries_the_ranking():
    """R20: the GameOver event lists every seat, best first."""
    state = GameState.from_position(
        [[21, 22, 23], [25, 26]], face_down=list(range(27, 37)), current=1, kept="WW554"
    )
    events = state.apply("stop")  # seat 1 takes 24, the last grill tile
    over = events[-1]
    assert isinstance(over, GameOver)
    assert [s.seat for s in over.ranking] == [1, 0]  # 1+2+2 = 5 worms vs 3


def test_r21_worm_count_follows_wins_steals_and_returns():
    """R21: the worm count rises with a won tile and falls when one is stolen or returned."""
    state = GameState.from_position([[], [33]], kept="WWWW553")  # 33, 1 die left
    assert state.scores() == [0, 4]
    state.apply("stop")
    state.apply("steal 33")
    assert state.scores() == [4, 0]
    bust = GameState.from_position([[21, 33], [22]], current=0, kept="11")
    bust.apply("stop")
    assert bust.scores() == [1, 1]


def test_an_actions_face_and_tile_are_read_only_where_they_exist():
    """Typed accessors instead of ``value``: a keep has a face, a claim a tile, and asking
    one for the other is a clear refusal, not a ``None`` that fails later."""
    from pickomino.core.actions import ACTIONS

    for action in ACTIONS:
        if action.kind == "keep":
            assert FACE_SYMBOLS[action.face] == action.name.split()[1] and not action.claims
            with pytest.raises(BadInput, match="claims no tile"):
                _ = action.tile
        elif action.kind in ("take", "steal"):
            assert action.name == f"{action.kind} {action.tile}" and action.claims
            with pytest.raises(BadInput, match="keeps no face"):
                _ = action.face
        else:
            for accessor in ("face", "tile"):
                with pytest.raises(BadInput):
                    getattr(action, accessor)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("-/- - 0 1 roll - -", "position_fields"),  # seven fields
        ("-/- - 0 1 wait - - official", "position_phase"),
        ("-/- - 0 1 roll - 1234WWW5 official", "position_roll"),  # dice rolled, not keeping
        ("-/- - 0 1 keep - - official", "position_roll"),  # keeping, no dice rolled
        ("-/- - 0 1 keep 1W 111111 official", "position_unreachable"),  # nothing to keep: R7
        ("-/- - 0 1 roll_or_stop - - official", "position_unreachable"),  # nothing kept yet
        ("-/- - 0 1 claim WWWW - official", "position_unreachable"),  # 20: one claim (R12)
        ("-/- - 0 1 over - - official", "position_unreachable"),  # tiles on the grill (R18)
        ("25/25 - 0 1 roll - - official", "tile_twice"),
        ("-/- - 2 1 roll - - official", "start_seat"),
        ("-/- - 0 0 roll - - official", "position_number"),
        ("-/- - 0 ² roll - - official", "position_number"),  # a digit int() cannot read
        ("-/- - 0 " + "9" * 5000 + " roll - - official", "position_number"),  # an audit
        ("9" * 5000 + "/- - 0 1 roll - - official", "not_tiles"),  # a traceback, not a refusal
        ("-/- - 0 1 roll - - fast", "unknown_preset"),
    ],
)
def test_a_position_no_game_can_reach_is_refused(text, code):
    with pytest.raises(BadInput) as refused:
        GameState.from_text(text)
    assert refused.value.code == code


def test_a_position_reads_back_in_every_phase_including_a_turn_ended_by_its_last_keep():
    """Worked positions (the property test covers random games): a claim after all eight
    dice were kept (R8), a finished game, custom rules."""
    for text in (
        "22,30/-/25 36 0 7 keep 44WW 4455 official",
        "-/- - 1 2 claim 44555WWW - bga",
        "25/28,31 36 1 4 roll WW - official,lower_tile=any",
        "21,22,23,24,25,26,27,28,29,30,31/32,33,34 35,36 0 40 over 4WW - short",
    ):
        state = GameState.from_text(text)
        assert state.to_text() == text
        assert GameState.from_text(state.to_text()) == state


def test_an_option_without_its_value_says_what_values_it_takes():
    """An audit: ``official,flip_returned_highest`` said "a preset may only come first"."""
    for text, code, said in [
        ("official,flip_returned_highest", "option_bool", "true or false"),
        ("lower_tile", "option_choice", "nearest or any"),
    ]:
        with pytest.raises(BadInput) as refused:
            Rules.parse(text)
        assert refused.value.code == code and refused.value.params["given"] == '""'
        assert said in Words("en").error(refused.value)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("official,lower_tile=any,lower_tile=nearest", "option_repeated"),
        ("lower_tile=any, lower_tile = any", "option_repeated"),  # even when they agree
        ("lower_tile=any,short", "preset_not_first"),
    ],
)
def test_rules_written_ambiguously_are_refused(text, code):
    """An option given twice says two things at once: which one holds is no way to read it."""
    with pytest.raises(BadInput) as refused:
        Rules.parse(text)
    assert refused.value.code == code
