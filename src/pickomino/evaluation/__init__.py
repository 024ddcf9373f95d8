"""Win chances of positions from a value function learned by self-play: every player's
chance to win from a turn's start, for the exact turn solver to value a turn's endings by.

>>> from pickomino.core import GameState
>>> from pickomino.evaluation import shipped_network, win_chances
>>> chances = win_chances([GameState(2)], shipped_network(2))[0]
>>> round(float(chances.sum()), 9), bool(0.4 < chances[0] < 0.7)
(1.0, True)
"""

from pickomino.evaluation.network import WinNetwork, network_for, shipped_network
from pickomino.evaluation.values import turn_tables, win_chances

__all__ = ["WinNetwork", "network_for", "shipped_network", "turn_tables", "win_chances"]
