"""Simulation: many games between bots, for tournaments and research."""

from pickomino.sim.tournament import TournamentResult, run_tournament

__all__ = ["TournamentResult", "run_tournament"]
