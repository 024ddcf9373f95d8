"""What a test client does with each state it reads: keep the log whole (states after the
first bring only new lines, see ``pickomino.web.protocol.merge_log``)."""

from __future__ import annotations

from pickomino.web.protocol import merge_log


def follow(client: object, message: dict) -> dict:
    """Merge a state's log lines into the client's copy (kept on the client object) and
    give the state a ``full_log``; other messages pass unchanged."""
    if message["type"] == "state":
        log: list[str] = getattr(client, "log", [])
        assert merge_log(log, message), "a state skipped log lines"
        client.log = log  # type: ignore[attr-defined]
        message["full_log"] = list(log)
    return message
