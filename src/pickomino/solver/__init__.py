"""Exact single-turn odds: a dynamic programme over (faces kept, dice left, total).

Needs numpy (a dependency of the package; the core does not use it).
"""

from pickomino.solver.solve import Outlook, TurnSolution, solve
from pickomino.solver.values import TurnValues

__all__ = ["Outlook", "TurnSolution", "TurnValues", "solve"]
