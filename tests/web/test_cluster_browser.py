"""Three real ``pickomino serve`` processes on one PostgreSQL database, in the browser: two
people on two processes play a game to the end by clicking, each page seeing every move, and
a spectator on the third process sees it all too."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .browser import Pages
from .clicking import DICE_SEED, create_game, play_until_over
from .server_process import ServerProcess
from .test_cluster import database, three_processes

__all__ = ["database"]  # a fixture

pytestmark = pytest.mark.slow


@pytest.fixture
def servers(database: str, tmp_path: Path) -> Iterator[list[ServerProcess]]:
    """The three processes, their games' dice seeded: the game is the same in every run."""
    with three_processes(database, tmp_path, ("--dice-seed", str(DICE_SEED))) as running:
        yield running


@pytest.mark.long
def test_people_on_two_processes_and_a_spectator_on_a_third_play_to_the_end(servers, pages: Pages):
    game = create_game(servers[0], [{"name": "Ann"}, {"name": "Bob"}], start_player=0)
    ann = pages.open(servers[0].url + game["seats"][0]["link"])
    bob = pages.open(servers[1].url + game["seats"][1]["link"])
    spectator = pages.open(servers[2].url + game["url"])
    with pages.checked():
        for page in (ann, bob, spectator):
            expect(page.get_by_test_id("game")).to_have_attribute("data-status", "playing")
        # The spectator's page says whose turn it is; that player's page (on its own
        # process) must show the same version before clicking: every move reaches all.
        play_until_over(spectator, {0: ann, 1: bob})
        final = spectator.get_by_test_id("game").get_attribute("data-seq")
        entries = spectator.get_by_test_id("log").locator("li").count()
        for page in (ann, bob):
            expect(page.get_by_test_id("game")).to_have_attribute("data-over", "true")
            expect(page.get_by_test_id("game")).to_have_attribute("data-seq", final or "")
            expect(page.get_by_test_id("log").locator("li")).to_have_count(entries)
