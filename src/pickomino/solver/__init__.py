"""Exact single-turn odds: a dynamic programme over (faces kept, dice left, total).

It runs on NumPy (:mod:`pickomino.solver.solve`); where NumPy cannot be imported (the
offline app, in the browser) the same solver in pure Python (:mod:`pickomino.solver.plain`)
answers instead, a few times slower.
"""

from pickomino.solver.turns import Outlook
from pickomino.solver.values import TurnValues

try:
    from pickomino.solver.solve import TurnSolution, solve
except ModuleNotFoundError as missing:  # pragma: no cover - tested in a subprocess
    if missing.name != "numpy":
        raise
    from pickomino.solver.plain import PlainSolution as TurnSolution  # type: ignore[assignment]
    from pickomino.solver.plain import solve  # type: ignore[assignment]

__all__ = ["Outlook", "TurnSolution", "TurnValues", "solve"]
