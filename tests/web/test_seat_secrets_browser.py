"""A seat's secret in the page: the invite link gives the seat once (the page keeps the new
secret, the address bar shows none); the link's sender is refused and offered to watch; the
seat's holder moves it to another device with a one-time link. Real pages on a real
``pickomino serve``."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import expect

from .browser import PHONE, Pages
from .clicking import create_game
from .server_process import ServerProcess

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server(shared_server: ServerProcess) -> ServerProcess:
    """One server for the module's tests: each opens games and profiles of its own."""
    return shared_server


def test_an_invite_link_seats_once_and_a_one_time_link_moves_the_seat(
    server: ServerProcess, pages: Pages
) -> None:
    game = create_game(server, [{"name": "Ann"}, {"name": "Bob"}])
    invite, bare = server.url + game["seats"][1]["link"], f"{server.url}/games/{game['id']}"
    with pages.checked():
        bob = pages.open(invite)
        root = bob.get_by_test_id("game")
        expect(root).to_have_attribute("data-seat", "1")
        expect(bob).to_have_url(bare)  # the spent link is not kept in the address
        sockets: list[str] = []
        bob.on("websocket", lambda socket: sockets.append(socket.url))
        bob.goto(invite)  # the invite again (from his mail): his own secret seats him
        expect(root).to_have_attribute("data-seat", "1")
        expect(bob).to_have_url(bare)
        assert sockets and not any("token" in url for url in sockets)  # sent in a header

        ann = pages.open(invite)  # the creator, who knows the link she sent
        expect(ann.get_by_test_id("fatal-text")).to_contain_text("link has been used")
        ann.get_by_test_id("fatal-watch").click()
        expect(ann.get_by_test_id("watching-banner")).to_be_visible()
        expect(ann.get_by_test_id("game")).to_have_attribute("data-status", "playing")
        expect(ann.get_by_test_id("game")).to_have_attribute("data-seat", "")

        bob.get_by_test_id("move-seat").locator("summary").click()
        bob.get_by_test_id("move-seat-make").click()
        link = bob.get_by_test_id("move-seat-link").input_value()
        phone = pages.open(link, PHONE)
        expect(phone.get_by_test_id("game")).to_have_attribute("data-seat", "1")
        expect(phone).to_have_url(bare)
        expect(bob.get_by_test_id("watching-banner")).to_be_visible()
        expect(root).to_have_attribute("data-seat", "")
        expect(bob.get_by_test_id("notice-text")).to_contain_text("another device")
        bob.reload()  # its old secret is forgotten: it watches
        expect(bob.get_by_test_id("watching-banner")).to_be_visible()
        again = pages.open(link)  # the one-time link is spent
        expect(again.get_by_test_id("fatal-text")).to_contain_text("link has been used")
        cut = pages.open(f"{bare}?token=abc)")  # a link run into a bracket: refused, not stuck
        expect(cut.get_by_test_id("fatal-text")).to_contain_text("not valid for this game")


def test_a_profile_plays_its_seat_on_another_device_with_its_recovery_code(
    server: ServerProcess, pages: Pages
) -> None:
    bob = httpx.post(f"{server.url}/api/profiles", json={"name": "Bob"}).json()
    game = create_game(server, [{"name": "Ann"}, {"name": "B"}])
    taken = httpx.post(
        f"{server.url}/api/games/{game['id']}/claim",
        headers={
            "Seat-Token": game["seats"][1]["link"].split("token=")[1],
            "Profile-Key": bob["code"],
            "Play-Rated": "yes",  # a rated game (the default): Bob agreed
        },
    ).json()
    with pages.checked():
        laptop = pages.open(server.url + taken["link"])
        expect(laptop.get_by_test_id("game")).to_have_attribute("data-seat", "1")
        phone = pages.open(f"{server.url}/games/{game['id']}")  # the bare address: watching
        expect(phone.get_by_test_id("watching-banner")).to_be_visible()
        expect(phone.get_by_test_id("profile-seat")).to_have_count(0)  # no profile here yet
        phone.evaluate(
            "profile => localStorage.setItem('pickomino.profile', JSON.stringify(profile))", bob
        )  # the recovery code entered on the phone
        phone.reload()
        phone.get_by_test_id("profile-seat").click()
        expect(phone.get_by_test_id("game")).to_have_attribute("data-seat", "1")
        expect(laptop.get_by_test_id("watching-banner")).to_be_visible()


def test_a_link_to_another_seat_does_not_take_this_browser_s_seat_unasked(
    server: ServerProcess, pages: Pages
) -> None:
    """An audit: a crafted link (a fresh invite of another seat of the same game) made the
    player's browser give up its own seat's secret for the link's; without a profile there
    is no way back. The page asks first; the link that gave this browser its seat, opened
    again, is no other seat."""
    # names no profile on the shared server holds (an invited name may not be a profile's)
    game = create_game(server, [{"name": "Oona"}, {"name": "Pip"}, {"name": "Quin"}])
    bobs, cys = (server.url + game["seats"][n]["link"] for n in (1, 2))
    with pages.checked():
        page = pages.new()
        asked: list[str] = []
        page.on("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
        page.goto(bobs)  # Bob's invite: this browser takes his seat
        expect(page.get_by_test_id("game")).to_have_attribute("data-seat", "1")
        page.goto(bobs)  # the same link again: his own seat, nothing asked
        expect(page.get_by_test_id("game")).to_have_attribute("data-seat", "1")
        assert asked == []
        page.goto(cys)  # another seat's: asked, declined
        expect(page.get_by_test_id("game")).to_have_attribute("data-seat", "1")
        assert len(asked) == 1 and "already plays a seat" in asked[0]
    seats = next(g for g in httpx.get(server.url + "/api/games").json() if g["id"] == game["id"])
    assert [seat["claimed"] for seat in seats["seats"]] == [True, True, False]  # Cy's is free
