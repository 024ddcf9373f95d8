"""Simulation: many games between bots, for tournaments and research."""

from pickomino.sim.compare import Comparison, compare
from pickomino.sim.tournament import TournamentResult, run_tournament

__all__ = ["Comparison", "TournamentResult", "compare", "run_tournament"]
