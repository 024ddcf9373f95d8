"""benchmarks/profile_summary.py: py-spy's collapsed stacks go to the part of an action that
their innermost named frame belongs to, so the profile's table says what it claims."""

import importlib.util
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "profile_summary.py"
spec = importlib.util.spec_from_file_location("profile_summary", SCRIPT)
assert spec is not None and spec.loader is not None
summary = importlib.util.module_from_spec(spec)
spec.loader.exec_module(summary)

LOOP = "Runner.run (asyncio/runners.py:118)"
ACT = [
    LOOP,
    "play (pickomino/web/api/play_socket.py:131)",
    "Room.act (pickomino/web/game/room.py:9)",
]
STORE = "Store.append_moves (pickomino/web/db/store.py:145)"
BROADCAST = "Audience.broadcast (pickomino/web/game/audience.py:147)"
STATE = "state_message (pickomino/web/game/state_message.py:31)"
SEND = "WebSocketsSansIOProtocol.send (uvicorn/protocols/websockets/websockets_sansio_impl.py:506)"
STACKS = [
    (";".join(frames), count)
    for frames, count in [
        ([*ACT, STORE, "Engine.begin (sqlalchemy/engine/base.py:3)"], 4),
        ([*ACT, STORE, "DefaultDialect.do_commit (sqlalchemy/engine/default.py:954)"], 3),
        ([*ACT, STATE, "GameState.legal_actions (pickomino/core/state.py:258)"], 2),
        ([*ACT, BROADCAST, "dumps (json/__init__.py:231)", "iterencode (json/encoder.py:9)"], 5),
        ([*ACT, BROADCAST, STATE], 1),
        ([LOOP, "Outbox._write (pickomino/web/game/outbox.py:48)", SEND], 6),
        ([LOOP], 7),
        ([], 1),  # a thread caught outside Python: py-spy writes " 1"
    ]
]
LINES = [f"{stack} {count}" for stack, count in STACKS]


def test_each_stack_goes_to_its_innermost_named_part() -> None:
    parts, leaves = summary.summarise(summary.read_stacks(LINES))
    assert parts == {
        "SQLAlchemy (Core: compile, pool, transactions)": 4,
        "SQLite itself (C code)": 3,
        "engine (pickomino.core, table session)": 2,  # the engine, though a state called it
        "JSON encoding (json.dumps)": 5,
        "building the state (state_message, view)": 1,
        "socket writes (transport.write: send())": 6,
        "event loop itself (uvloop's C: poll, reads)": 7,
        "other (no Python frame, unmatched)": 1,
    }
    assert leaves["other (no Python frame, unmatched)"] == {"(no Python frame)": 1}


def test_the_table_gives_shares_and_microseconds_per_action() -> None:
    parts = summary.summarise(summary.read_stacks(LINES))[0]
    rows = summary.table(parts, per_action_us=290).splitlines()
    assert rows[2] == "| event loop itself (uvloop's C: poll, reads) | 24.1% | 70 |"  # 7 of 29
    assert rows[-1] == "| **all** (29 samples) | 100% | 290 |"


def test_the_driver_calls_are_sqlite_and_a_change_is_built_not_parsed() -> None:
    """The store's hot path calls the driver itself (no SQLAlchemy frame below it); the
    protocol module both parses acts and works out changes."""
    commit = "driver_transaction (pickomino/web/db/prepared.py:62)"
    insert = "Prepared.run (pickomino/web/db/prepared.py:49)"
    change = "state_change.<locals>.<dictcomp> (pickomino/web/protocol.py:229)"
    parse = "parse_message (pickomino/web/protocol.py:150)"
    encode = "encode (pickomino/web/protocol.py:174)"
    flush = "MoveWrites.flush (pickomino/web/db/move_writes.py:212)"
    lines = [
        f"{';'.join([LOOP, flush, commit])} 3",
        f"{';'.join([LOOP, flush, insert])} 2",
        f"{';'.join([LOOP, flush])} 1",
        f"{';'.join([*ACT, BROADCAST, change])} 4",
        f"{';'.join([*ACT, parse])} 5",
        f"{';'.join([*ACT, BROADCAST, encode])} 6",
    ]
    assert summary.summarise(summary.read_stacks(lines))[0] == {
        "SQLite itself (C code)": 5,
        "storing: pickomino's store": 1,
        "building the state (state_message, view)": 4,
        "parsing an act (json.loads, pydantic)": 5,
        "JSON encoding (json.dumps)": 6,
    }


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "No such file or directory"),
        ("folder", "Is a directory"),
        (b"\x89PNG\r\n\x1a\n\xff\xfe", "not UTF-8 text (byte 0)"),
        (f"{LINES[0]}\n\xe9t\xe9 3\n".encode("latin-1"), "not UTF-8 text"),
        (b"\x00\x01\x02", "line 1 is not 'frame;frame;... count'"),
        (f"{LINES[0]}\n\n{LINES[1]} samples\n".encode(), "line 3 is not 'frame;frame;... count'"),
    ],
    ids=["missing", "folder", "binary", "latin-1", "control bytes", "a line without a count"],
)
def test_a_file_that_is_not_stacks_is_one_line_naming_it(tmp_path, capsys, content, message):
    """Missing, a folder, binary, not UTF-8, a malformed line: exit 2 and one line on stderr
    naming the file (and the line), not a traceback."""
    path = tmp_path / "stacks.txt"
    if content == "folder":
        path.mkdir()
    elif content is not None:
        path.write_bytes(content)
    with pytest.raises(SystemExit) as exited:
        summary.main([str(path)])
    error = capsys.readouterr().err.splitlines()[-1]
    assert exited.value.code == 2 and f"error: {path}: " in error
    assert message in error
