"""`pickomino analyse` (issue 17): a saved game or a kept score sheet, as text, JSON and a
chart; one player's decisions; clear errors; the file only read; in Dutch from the
catalogue."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner

from pickomino.analysis import WORTH_SHOWING, review, review_sheet
from pickomino.bots import make_bot
from pickomino.cli import main
from pickomino.core import Game
from pickomino.i18n import Words
from pickomino.i18n.review import decision_line, sheet_review_lines
from pickomino.table import SeededDice, advance
from pickomino.table.sheet import ScoreSheet

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
ENGLISH = Words("en")
SHEET_ENTRIES = ["take 25", "bust", "take 33", "steal 33", "bust", "take 36"]


@cache
def game_text(moves: int | None = 120) -> str:
    """Ann (simple) against Bob (random): the first ``moves`` moves (``None``: the whole
    game; most tests need no more, and the shorter takes a fraction of the time)."""
    game = Game(["Ann", "Bob"])
    advance(game, [make_bot("simple"), make_bot("random", 4)], SeededDice(4))
    if moves is not None:
        game.truncate(moves)
    return game.to_json()


@pytest.fixture
def record(tmp_path) -> Path:
    path = tmp_path / "game.json"
    path.write_text(game_text())
    return path


@pytest.fixture
def whole_game(tmp_path) -> Path:
    path = tmp_path / "whole.json"
    path.write_text(game_text(None))
    return path


@pytest.fixture
def sheet(tmp_path) -> Path:
    path = tmp_path / "sheet.json"
    path.write_text(json.dumps(ScoreSheet(["Ann", "Bob", "Cy"], entries=SHEET_ENTRIES).to_dict()))
    return path


@cache
def reviewed(moves: int | None = 120):
    return review(Game.from_json(game_text(moves)).record)


def analyse(*args: str):
    return CliRunner().invoke(main, ["analyse", *map(str, args)], prog_name="pickomino")


# ------------------------------------------------------------------------ a game
def test_the_text_gives_every_player_s_account_and_the_decisions_worth_a_look(whole_game):
    result = analyse(whole_game)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    game_review = reviewed(None)
    assert lines[0] == ENGLISH("analysis.intro") and lines[-1] == ENGLISH("analysis.legend")
    for player in game_review.players:
        name = game_review.seats[player.seat]
        account = next(i for i, line in enumerate(lines) if line.startswith(f"{name}: "))
        accuracy = ENGLISH.number(player.accuracy, 1)
        assert lines[account + 1].startswith(f"  Accuracy {accuracy} over")
        assert f"luck {ENGLISH.signed(100 * player.luck, 1)}," in lines[account + 2]
        assert lines[account + 3] == "  " + ENGLISH("analysis.rolls", **player.marks)
        adjusted = ENGLISH.percent(player.adjusted, 1)
        assert lines[account + 4] == f"  Result without the luck of the dice: {adjusted}"
        assert name in lines[account + 5] and "(looking further ahead: " in lines[account + 5]
    worth = [d for d in game_review.decisions if d.label in WORTH_SHOWING]
    assert worth  # a random player leaves some
    listed = [line for line in lines if line.startswith("  Turn ")]
    assert listed == ["  " + decision_line(d, game_review.seats, ENGLISH) for d in worth]


def test_json_is_the_review_s_data(record):
    result = analyse(record, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data == json.loads(json.dumps(reviewed().to_dict()))
    assert data["format"] == "pickomino-review" and data["finished"] is False
    assert {d["label"] for d in data["decisions"]} <= {"best", "good", "inaccuracy", "mistake",
                                                        "blunder"}  # fmt: skip


@pytest.mark.parametrize("seat", ["1", "bob", "BOB"])
def test_seat_picks_one_player_by_number_or_name(record, seat):
    result = analyse(record, "--seat", seat, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert [p["seat"] for p in data["players"]] == [1]
    assert data["decisions"] and {d["seat"] for d in data["decisions"]} == {1}
    text = analyse(record, "--seat", seat).output
    assert not text.count("Ann: ") and "Bob: " in text
    listed = [line for line in text.splitlines() if line.startswith("  Turn ")]
    assert len(listed) == sum(not d.forced for d in reviewed().decisions if d.seat == 1)


@pytest.mark.parametrize("seat", ["2", "-1", "Cy", ""])
def test_a_seat_that_is_not_at_the_table_is_refused(record, seat):
    result = analyse(record, "--seat", seat)
    assert result.exit_code == 2
    said = " ".join(result.output.split())
    assert "no player" in said and "0 to 1" in said and "Ann or Bob" in said


def test_analysing_leaves_the_record_as_it_was(record):
    before, modified = record.read_bytes(), record.stat().st_mtime_ns
    assert analyse(record).exit_code == 0
    assert record.read_bytes() == before and record.stat().st_mtime_ns == modified


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json", "the file is not valid JSON"),
        ("[" * 100_000, "the file is not valid JSON"),  # an audit: RecursionError
        ('{"v": ' + "9" * 5000 + "}", "the file is not valid JSON"),  # ValueError: digits
        ('{"format": "chess"}', "pickomino-record"),
        (
            '{"format": "pickomino-record", "version": 1, "rules": {}, "seats": ["A", "B"],'
            ' "start_player": 0, "moves": ["dice 12345555", "stop"]}',
            "move 2 (stop) cannot be played",
        ),
        ('{"format": "pickomino-sheet", "version": 1, "names": ["A"]}', "2 to 7 players"),
    ],
)
def test_a_file_that_does_not_load_is_a_clear_error(tmp_path, content, message):
    path = tmp_path / "broken.json"
    path.write_text(content)
    result = analyse(path)
    assert result.exit_code == 1 and message in result.output
    assert result.output.startswith(f"Error: {path}: ")


def test_the_plot_is_checked_before_any_work(tmp_path, record):
    result = analyse(record, "--plot", tmp_path / "missing" / "chart.png")
    assert result.exit_code == 2 and "does not exist" in result.output
    assert "Accuracy" not in result.output
    result = analyse(record, "--plot", tmp_path / "chart.docx")
    assert result.exit_code == 2 and "cannot write a .docx file" in result.output


@pytest.mark.slow  # matplotlib draws
def test_the_plot_draws_every_player_s_chance(tmp_path, record, sheet):
    result = analyse(record, "--json", "--plot", tmp_path / "chart")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "chart.png").read_bytes().startswith(PNG_SIGNATURE)
    assert json.loads(result.stdout)["format"] == "pickomino-review"  # the note went aside
    assert f"Plot written to {tmp_path / 'chart.png'}" in result.stderr
    empty = tmp_path / "empty.json"  # a sheet with nothing entered yet: one point
    empty.write_text(json.dumps(ScoreSheet(["Ann", "Bob"]).to_dict()))
    for source in (sheet, empty):
        result = analyse(source, "--plot", tmp_path / "sheet.svg")
        assert result.exit_code == 0, result.output
        assert (tmp_path / "sheet.svg").read_text().startswith("<?xml")


# ------------------------------------------------------------------- a score sheet
def test_a_score_sheet_is_analysed_as_far_as_it_can_be(sheet):
    result = analyse(sheet)
    assert result.exit_code == 0, result.output
    sheet_review = review_sheet(ScoreSheet.from_dict(json.loads(sheet.read_text())))
    assert result.output.splitlines() == sheet_review_lines(sheet_review, ENGLISH)
    assert result.output.startswith(ENGLISH("analysis.sheet.intro"))
    data = json.loads(analyse(sheet, "--json", "--seat", "cy").output)
    assert data["format"] == "pickomino-sheet-review" and data["unknown"] == ["decisions", "skill"]
    assert [p["seat"] for p in data["players"]] == [2]
    assert [t["entry"] for t in data["turns"]] == ["take 33", "take 36"]


def test_a_sheet_s_review_explains_every_player_s_chance():
    sheet_review = review_sheet(ScoreSheet(["Ann", "Bob", "Cy"], entries=SHEET_ENTRIES))
    assert not sheet_review.finished and len(sheet_review.turns) == len(SHEET_ENTRIES)
    for player in sheet_review.players:
        assert player.start + player.luck + player.drift == pytest.approx(player.result)
        assert player.turns == 2 and player.expected_tiles == pytest.approx(
            sum(t.tile_chance for t in sheet_review.turns if t.seat == player.seat)
        )
    assert [t.came for t in sheet_review.turns] == [True, False, True, True, False, True]


# -------------------------------------------------------------------- languages
def test_analyse_speaks_dutch_from_the_catalogue(words_in, english_of, record):
    dutch = words_in("nl")
    result = CliRunner().invoke(
        main, ["--lang", "nl", "analyse", str(record)], env={"LANGUAGE": None}
    )
    assert result.exit_code == 0, result.output
    game_review = reviewed()
    lines = result.output.splitlines()
    assert lines[0] == dutch("analysis.intro") and lines[-1] == dutch("analysis.legend")
    ann = game_review.players[0]
    now = dutch("analysis.result.open", chance=dutch.percent(ann.result, 1))
    start = dutch.percent(ann.start, 1)
    assert lines[2] == dutch("analysis.player", name="Ann", start=start, result=now)
    worth = [d for d in game_review.decisions if d.label in WORTH_SHOWING]
    assert worth and [line for line in lines if line.startswith("  ")][-len(worth) :] == [
        "  " + decision_line(d, game_review.seats, dutch) for d in worth
    ]
    keys = [key for key in Words("en").messages if key.startswith(("analysis.", "cli.analyse"))]
    assert not [text for text in english_of(keys, dutch) if text in result.output]
    helped = CliRunner().invoke(main, ["--lang", "nl", "analyse", "--help"]).output
    assert " ".join(dutch("cli.analyse.seat").split()) in " ".join(helped.split())


@pytest.mark.slow  # a process of its own
def test_analyse_from_the_shell(record):
    """As a user runs it: the real catalogues, a Dutch decimal comma in the accuracy."""
    done = subprocess.run(
        [sys.executable, "-m", "pickomino", "analyse", str(record), "--lang", "nl"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    accuracy = Words("nl").number(reviewed().players[0].accuracy, 1)
    assert "," in accuracy and accuracy in done.stdout


# ---------------------------------------------------------------- several games
@pytest.fixture
def games(tmp_path, whole_game) -> list[Path]:
    """The whole game of Ann and Bob, and one of BOB (the same player, by name) and Cy."""
    other = Game(["BOB", "Cy"])
    advance(other, [make_bot("expected", 1), make_bot("simple", 2)], SeededDice(9))
    path = tmp_path / "other.json"
    path.write_text(other.to_json())
    return [whole_game, path]


def test_several_games_are_added_up_per_player_by_name(games):
    result = analyse(*map(str, games), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["format"] == "pickomino-totals" and [g["file"] for g in data["games"]] == [
        str(path) for path in games
    ]
    reviews = [review(Game.from_json(path.read_text()).record) for path in games]
    by_name: dict[str, list] = {}
    for game_review in reviews:
        for player in game_review.players:
            by_name.setdefault(game_review.seats[player.seat].casefold(), []).append(player)
    assert [p["name"] for p in data["players"]] == ["Ann", "Bob", "Cy"]
    for total in data["players"]:
        mine = by_name[total["name"].casefold()]
        assert total["games"] == len(mine) and total["decisions"] == sum(len(p.costs) for p in mine)
        assert total["result"] == pytest.approx(sum(p.result for p in mine))
        assert total["luck"] == pytest.approx(sum(p.luck for p in mine))
        assert total["adjusted"] == pytest.approx(sum(p.result - p.luck for p in mine))
        costs = [cost for p in mine for cost in p.costs]
        assert total["accuracy"] == pytest.approx(100 * math.exp(-sum(costs) / len(costs) / 0.02))
        assert total["marks"] == {m: sum(p.marks[m] for p in mine) for m in total["marks"]}
    text = analyse(*map(str, games)).output.splitlines()
    assert text[0] == "2 games: each player's totals, by name; 1 point = 1% of win chance."
    bob = data["players"][1]
    assert any(line.startswith(f"Bob: 2 games, {bob['result']:.1f} won (") for line in text)


def test_one_player_s_totals_by_name_and_bad_requests_refused_before_any_review(games, sheet):
    alone = json.loads(analyse(*map(str, games), "--seat", "bob", "--json").output)
    assert [p["name"] for p in alone["players"]] == ["Bob"]
    nobody = analyse(*map(str, games), "--seat", "Dee")
    assert (
        nobody.exit_code == 2
        and "no player Dee in these games: give a name (Ann, Bob, or Cy)" in nobody.output
    )
    with_sheet = analyse(str(games[0]), str(sheet))
    assert (
        with_sheet.exit_code == 1
        and f"{sheet}: a score sheet is analysed on its own" in with_sheet.output
    )
    plotted = analyse(*map(str, games), "--plot", str(games[0].parent / "chances.png"))
    assert plotted.exit_code == 2 and "--plot draws one game" in plotted.output
    broken = games[0].parent / "broken.json"
    broken.write_text("{not json")
    refused = analyse(str(games[0]), str(broken))
    assert refused.exit_code == 1 and str(broken) in refused.output
    twins = games[0].parent / "twins.json"  # a record made by hand: the faces refuse this
    twins.write_text(json.dumps({**json.loads(games[1].read_text()), "seats": ["Cy", "cy"]}))
    merged = analyse(str(games[0]), str(twins))
    assert merged.exit_code == 1 and f"{twins}: two seats are called Cy" in merged.output


def test_an_annotated_record_carries_its_review_and_replays_like_the_record(record, tmp_path):
    out = tmp_path / "annotated"  # no ending: .json is added
    result = analyse(str(record), "--annotate", str(out))
    assert result.exit_code == 0, result.output
    written = tmp_path / "annotated.json"
    assert result.output.splitlines()[-1] == f"Annotated record saved to {written}"
    annotated = Game.from_json(written.read_text())
    original = Game.from_json(record.read_text())
    assert annotated.record.moves == original.record.moves and annotated.state == original.state
    assert annotated.record.meta["review"] == json.loads(json.dumps(reviewed().to_dict()))
    assert record.read_text() == game_text()  # the record itself is only read


def test_annotate_refuses_a_sheet_several_records_and_an_unwritable_path_before_any_review(
    record, sheet, tmp_path
):
    copy = tmp_path / "copy.json"
    copy.write_bytes(record.read_bytes())
    for args in ([str(sheet)], [str(record), str(copy)]):
        refused = analyse(*args, "--annotate", str(tmp_path / "out.json"))
        assert refused.exit_code == 2 and "--annotate writes one game's record" in refused.output
    nowhere = analyse(str(record), "--annotate", str(tmp_path / "no" / "out.json"))
    assert nowhere.exit_code == 2 and "--annotate" in nowhere.output
    assert not list(tmp_path.glob("**/out.json"))


def test_a_record_given_twice_or_annotated_onto_itself_is_refused_before_any_review(
    record, tmp_path
):
    """An audit: ``analyse a.json a.json`` counted the game twice in the totals, and
    ``--annotate`` onto the record rewrote the file the help says is only read."""
    before = record.read_bytes()
    link = tmp_path / "link.json"
    link.symlink_to(record)
    for args, said in [
        ((str(record), str(link)), f"{record} is given twice: each game counts once"),
        ((str(record), "--annotate", str(record)), "is the record read, which is only read"),
    ]:
        refused = analyse(*args)
        assert refused.exit_code == 2 and said in refused.output, refused.output
    assert record.read_bytes() == before
