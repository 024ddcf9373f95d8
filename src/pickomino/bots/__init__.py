"""Players that are programs. Every bot, and a human seat, answers the same question:
given the (fully public) state, which action?

>>> from pickomino.bots import make_bot
>>> make_bot("simple").name
'simple'
"""

from pickomino.bots.base import BOTS, DIFFICULTIES, Bot, bot_names, make_bot
from pickomino.bots.basic import ExpectedBot, RandomBot, SimpleBot
from pickomino.bots.learned import LearnedBot
from pickomino.bots.strategist import StrategistBot

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
    "make_bot",
]
