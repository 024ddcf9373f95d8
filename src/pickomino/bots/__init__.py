"""Players that are programs. Every bot, and a human seat, answers the same question:
given the (fully public) state, which action?

>>> from pickomino.bots import make_bot
>>> make_bot("simple").name
'simple'
"""

from pickomino.bots.base import BOTS, Bot, make_bot
from pickomino.bots.basic import RandomBot, SimpleBot

__all__ = ["BOTS", "Bot", "RandomBot", "SimpleBot", "make_bot"]
