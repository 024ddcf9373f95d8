"""Players that are programs. Every bot, and a human seat, answers the same question:
given the (fully public) state, which action?

>>> from pickomino.bots import make_bot
>>> make_bot("simple").name
'simple'
"""

# bots are listed in the order they register: the learned bot last
from pickomino.bots.base import BOTS, DIFFICULTIES, Bot, bot_names, make_bot  # noqa: I001
from pickomino.bots.basic import ExpectedBot, RandomBot, SimpleBot

try:
    from pickomino.bots.strategist import StrategistBot  # noqa: I001
    from pickomino.bots.valued import ValuedBot
    from pickomino.bots.learned import LearnedBot
except ModuleNotFoundError as missing:  # pragma: no cover - tested in a subprocess
    # Without NumPy (the offline app, in the browser) the bots that value positions with a
    # network (valued, learned) are not there; random, simple, expected and the strategist
    # play on the pure-Python solver.
    if missing.name != "numpy":
        raise

__all__ = [
    "BOTS",
    "DIFFICULTIES",
    "Bot",
    "bot_names",
    "ExpectedBot",
    "LearnedBot",
    "RandomBot",
    "SimpleBot",
    "StrategistBot",
    "ValuedBot",
    "make_bot",
]
