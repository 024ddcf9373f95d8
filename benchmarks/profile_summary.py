"""Where the web server's CPU goes: py-spy's collapsed stacks (``--format raw``, as
``web_load.py --profile OUT`` writes them) grouped into the parts of an action, as a table of
shares and, given the server's CPU per action, microseconds per action.

Each sample goes to the part of its innermost frame that names one (scanning from the leaf
towards the root), so the engine called while building a state counts as the engine, and
``json.dumps`` called by the audience counts as JSON encoding; a frame of SQLAlchemy whose
callee is SQLite's C code (``do_execute``, ``do_commit``) counts as SQLite itself, the rest of
SQLAlchemy as its overhead. A stack whose leaf is the asyncio runner is time in the event
loop's own C code (uvloop: polling, reading sockets, running callbacks); one that matches
nothing is "other".

Run: ``.venv/bin/python benchmarks/profile_summary.py OUT [--per-action-us 450]``
(``--stacks N`` also prints the N heaviest leaves of each part, to see what is inside).
"""

from __future__ import annotations

import argparse
import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from pathlib import Path

#: The store's calls of the driver itself (SQLite's C code below them), and the protocol's
#: module (parsing acts, working out changes, encoding).
DRIVER = r"\(pickomino/web/db/prepared\.py"
PROTOCOL = r"\(pickomino/web/protocol\.py"
#: (part, pattern on a stack's leaf frame "function (file:line)"): time in C code below a
#: Python frame, which py-spy shows as that frame; tried first
LEAF_RULES: list[tuple[str, str]] = [
    ("SQLite itself (C code)", r"^DefaultDialect\.do_(execute|executemany|commit|rollback) "
                               rf"|^(Prepared\.run|driver_transaction) {DRIVER}"),
    ("socket writes (transport.write: send())", r"^WebSocketsSansIOProtocol\.send \(uvicorn/"),
    ("event loop itself (uvloop's C: poll, reads)", r"^Runner\.run \(asyncio/runners\.py"),
]  # fmt: skip
#: (part, pattern on any frame), tried in this order on each frame from the leaf up
RULES: list[tuple[str, str]] = [
    ("SQLAlchemy (Core: compile, pool, transactions)", r"\(sqlalchemy/"),
    ("storing: pickomino's store", r"\(pickomino/web/db/"),
    ("JSON encoding (json.dumps)", rf"\(json/encoder\.py|^dumps \(json/|^encode {PROTOCOL}"),
    ("building the state (state_message, view)", rf"^state_(change|body)\W.*{PROTOCOL}"),
    ("parsing an act (json.loads, pydantic)", rf"\((json|pydantic)/|{PROTOCOL}"),
    ("logging", r"\(logging/"),
    ("engine (pickomino.core, table session)", r"\(pickomino/(core|table)/"),
    ("building the state (state_message, view)", r"/game/(state_message|view|coach_message)\.py"),
    ("fan-out to sockets (audience, outbox)", r"\(pickomino/web/game/(audience|outbox)\.py"),
    ("room: commits, seating, clocks, absence", r"\(pickomino/web/game/"),
    ("socket handler (play_socket)", r"\(pickomino/web/api/play_socket\.py"),
    ("WebSocket protocol (uvicorn, websockets)", r"\((uvicorn|websockets)/|\(starlette/websockets"),
    ("ASGI (FastAPI, Starlette, middleware)", r"\((fastapi|starlette|anyio)/|/web/guard/"),
    ("asyncio (tasks, queues, timeouts)", r"\(asyncio/"),
    ("other pickomino.web", r"\(pickomino/web/"),
]  # fmt: skip
OTHER = "other (no Python frame, unmatched)"


def part_of(frames: list[str]) -> str:
    """The part of one stack (root first): that of its leaf if a leaf rule matches it, else
    that of its innermost frame matching a rule."""
    for part, pattern in LEAF_RULES if frames else []:
        if re.search(pattern, frames[-1]):
            return part
    for frame in reversed(frames):
        for part, pattern in RULES:
            if re.search(pattern, frame):
                return part
    return OTHER


def read_stacks(lines: Iterable[str]) -> list[tuple[list[str], int]]:
    """``frame;frame;... count`` lines (py-spy's raw format) as (frames, samples); a thread
    caught outside Python has no frames (the line is `` count``). ``ValueError`` naming the
    first line that is neither that nor blank."""
    stacks = []
    for number, line in enumerate(lines, 1):
        stack, _, count = line.rstrip().rpartition(" ")
        if not count:  # a blank line
            continue
        if not count.isdecimal():
            raise ValueError(f"line {number} is not 'frame;frame;... count': {line[:60]!r}")
        stacks.append((stack.split(";") if stack else [], int(count)))
    return stacks


def summarise(stacks: list[tuple[list[str], int]]) -> tuple[Counter[str], dict[str, Counter[str]]]:
    """Samples per part, and per part the samples of each leaf frame."""
    parts: Counter[str] = Counter()
    leaves: dict[str, Counter[str]] = defaultdict(Counter)
    for frames, count in stacks:
        part = part_of(frames)
        parts[part] += count
        leaves[part][frames[-1] if frames else "(no Python frame)"] += count
    return parts, leaves


def table(parts: Counter[str], per_action_us: float | None = None) -> str:
    """A Markdown table: each part's share of the samples (and of the CPU per action)."""
    total = sum(parts.values()) or 1
    unit = " | µs per action" if per_action_us else ""
    rows = [f"| part of the server's CPU | share{unit} |", "|---|---|" + ("---|" if unit else "")]
    for part, samples in sorted(parts.items(), key=lambda item: -item[1]):
        share = samples / total
        cost = f" | {share * per_action_us:.0f}" if per_action_us else ""
        rows.append(f"| {part} | {share:.1%}{cost} |")
    cost = f" | {per_action_us:.0f}" if per_action_us else ""
    rows.append(f"| **all** ({total} samples) | 100%{cost} |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("stacks", type=Path, help="py-spy's raw (collapsed) stacks")
    parser.add_argument("--per-action-us", type=float, help="the server's CPU per action (µs)")
    parser.add_argument("--stacks", dest="top", type=int, default=0, help="leaves per part")
    args = parser.parse_args(argv)
    try:
        stacks = read_stacks(args.stacks.read_text(encoding="utf-8").splitlines())
    except OSError as error:
        parser.error(f"{args.stacks}: {error.strerror or error}")
    except UnicodeDecodeError as error:  # before ValueError, which it is
        parser.error(f"{args.stacks}: not UTF-8 text (byte {error.start}), not py-spy's stacks")
    except ValueError as error:
        parser.error(f"{args.stacks}: {error}")
    parts, leaves = summarise(stacks)
    print(table(parts, args.per_action_us))
    for part, _ in parts.most_common() if args.top else []:
        print(f"\n{part}:")
        for leaf, samples in leaves[part].most_common(args.top):
            print(f"  {samples:6d}  {leaf}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
