"""The networks the server keeps (of profiles, of games' creators) are hashed under its secret,
so the database alone does not give the addresses back; a server with another secret is
refused rather than compare hashes that never match; profiles claimed before the secret get
their keyed hash when next opened from their network; the upgrade forgets the games' plain
hashes. (``serve``'s words for a secret it cannot use: test_serve.py.)"""

from __future__ import annotations

import hashlib
import stat
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command
from fastapi.testclient import TestClient

from pickomino.web import create_app
from pickomino.web.db import migrations
from pickomino.web.db.database import database_url
from pickomino.web.db.networks import (
    Networks,
    SecretMismatch,
    SecretTooShort,
    SecretUnusable,
    plain_hash,
    read_secret,
    secret_file_for,
)
from pickomino.web.db.store import Store

from .test_profiles import as_profile, claim, from_address, sql

ADDRESS = "203.0.113.7"
SPEC = {"seats": [{"name": "Me"}, {"name": "Bob", "open": True}]}  # waits for a player


def app(database: str, secret_file: Path, replace: bool = False):
    return create_app(database, bot_delay=0, secret_file=str(secret_file), replace_secret=replace)


def kept(database: str) -> tuple[set[str | None], set[str | None]]:
    """The networks the database keeps: the profiles', the games'."""
    claimed = {row[0] for row in sql(database, "SELECT claimed_from FROM profiles")}
    created = {row[0] for row in sql(database, "SELECT created_from FROM games")}
    return claimed, created


def hashes_anyone_can_make(address: str) -> set[str]:
    """What trying every address (and /24) with plain SHA-256 finds, in the forms one would
    try."""
    block = address.rsplit(".", 1)[0] + ".0/24"
    networks = (address, f"{address}/32", block)
    forms = [form for network in networks for form in (network, f"address:{network}")]
    return {hashlib.sha256(form.encode()).hexdigest() for form in forms}


def claim_and_create(client: TestClient, name: str = "Ann") -> dict:
    """``name``'s profile claimed from :data:`ADDRESS`, and a game it created there."""
    profile = claim(client, name, ADDRESS)
    created = from_address(client, ADDRESS).post(
        "/api/games", json=SPEC, headers=as_profile(profile)
    )
    assert created.status_code == 201, created.text
    return profile


@pytest.mark.parametrize(
    ("database", "beside"),
    [
        ("{folder}/games.sqlite3", "{folder}/games.sqlite3.secret"),
        ("sqlite:///{folder}/games.sqlite3", "{folder}/games.sqlite3.secret"),
        (
            "sqlite:///file:{folder}/games.sqlite3?mode=rwc&uri=true",
            "{folder}/games.sqlite3.secret",
        ),
        ("sqlite:///file://{folder}/my%20games.db?uri=true", "{folder}/my games.db.secret"),
        ("sqlite:///file:games.sqlite3?uri=true", "games.sqlite3.secret"),
        ("sqlite:///file:{folder}/g.db?uri=1", "{folder}/g.db.secret"),  # as SQLAlchemy reads it
        ("sqlite:///file:shared?mode=memory&cache=shared&uri=true", None),
        ("sqlite://", None),
    ],
)
def test_the_secret_is_kept_beside_the_sqlite_file_however_it_is_named(
    tmp_path: Path, database: str, beside: str | None
):
    """A reviewer: a database named by a ``file:`` URI got its secret beside the URI's text,
    in the current folder (``file:/srv/games.sqlite3?…``), not beside the file."""
    expected = None if beside is None else Path(beside.format(folder=tmp_path))
    assert secret_file_for(database.format(folder=tmp_path)) == expected


def test_a_server_on_a_file_uri_keeps_its_secret_beside_the_file(tmp_path: Path):
    database = f"sqlite:///file:{tmp_path}/games.sqlite3?mode=rwc&uri=true"
    with TestClient(create_app(database, bot_delay=0)) as client:
        claim_and_create(client)
        for kept_there in ("games.sqlite3", "games.sqlite3-wal", "games.sqlite3.secret"):
            assert stat.S_IMODE((tmp_path / kept_there).stat().st_mode) == 0o600, kept_there


def test_a_database_file_there_already_keeps_the_mode_its_owner_gave_it(tmp_path: Path):
    database = tmp_path / "games.sqlite3"
    database.touch(mode=0o640)
    database.chmod(0o640)  # whatever the umask
    with TestClient(create_app(str(database), bot_delay=0)) as client:
        claim_and_create(client)
    assert stat.S_IMODE(database.stat().st_mode) == 0o640


def test_the_networks_kept_are_hashed_under_the_secret_beside_the_database(tmp_path: Path):
    database = str(tmp_path / "games.sqlite3")
    with TestClient(create_app(database, bot_delay=0)) as client:
        claim_and_create(client)
        for kept_there in (database, f"{database}-wal"):  # the seats' secrets: its owner's
            assert stat.S_IMODE(Path(kept_there).stat().st_mode) == 0o600, kept_there
    secret = tmp_path / "games.sqlite3.secret"
    assert secret_file_for(database) == secret
    assert stat.S_IMODE(secret.stat().st_mode) == 0o600  # its owner's only
    claimed, created = kept(database)
    assert len(claimed) == len(created) == 1  # the profile's /24 (ratings), the game's address
    assert not (claimed | created) & hashes_anyone_can_make(ADDRESS)
    assert claimed != created

    other = tmp_path / "other.secret"
    other.write_text("another secret, long enough to be one: " + "x" * 40)
    copy = tmp_path / "copy.sqlite3"
    copy.write_bytes(Path(database).read_bytes())
    with TestClient(app(str(copy), other, replace=True)) as client:
        claim(client, "Bob", ADDRESS)
    (bob,) = sql(str(copy), "SELECT claimed_from FROM profiles WHERE name = 'Bob'")
    assert bob[0] not in claimed  # the same network under another secret: another hash


def test_a_server_with_another_secret_is_refused_until_told_to_forget(database, tmp_path: Path):
    first, second = tmp_path / "first.secret", tmp_path / "second.secret"
    with TestClient(app(database, first)) as client:
        claim_and_create(client)
        sheet = from_address(client, ADDRESS).post("/api/sheets", json={"names": ["A", "B"]})
        assert sheet.status_code == 201, sheet.text
    sites = (  # what else is kept of where things were made from
        "SELECT created_site FROM games UNION ALL SELECT created_from FROM sheets"
        " UNION ALL SELECT created_site FROM sheets"
    )
    assert None not in {row[0] for row in sql(database, sites)}
    before = kept(database)
    with pytest.raises(SecretMismatch):
        app(database, second)
    assert kept(database) == before  # nothing forgotten by the refusal
    with TestClient(app(database, first)) as client:  # its own secret: served
        assert client.get("/api/games").status_code == 200

    with TestClient(app(database, second, replace=True)) as client:  # the first one is lost
        assert kept(database) == ({None}, {None})
        assert {row[0] for row in sql(database, sites)} == {None}
        claim_and_create(client, "Cy")  # kept under the new secret from now on
    claimed, created = kept(database)
    for networks in (claimed, created):  # the forgotten, and the one kept since
        assert None in networks and len(networks) == 2
    with pytest.raises(SecretMismatch):
        app(database, first)
    with TestClient(app(database, second, replace=True)):  # its own: nothing to forget
        pass
    assert kept(database) == (claimed, created)


def test_a_profile_claimed_before_the_secret_gets_its_keyed_hash_from_its_network(database):
    """A profile claimed by the version before keeps a plain hash; it is replaced when the
    profile is opened from that network (not from another), so it compares with the spare
    profiles claimed there since."""
    with TestClient(create_app(database, bot_delay=0)) as client:
        old = claim(client, "Old", ADDRESS)
        sql(database, "UPDATE profiles SET claimed_from = :plain", plain=plain_hash(ADDRESS))
        claim(client, "Spare", ADDRESS)
        (spare_hash,) = sql(database, "SELECT claimed_from FROM profiles WHERE name = 'Spare'")

        elsewhere = from_address(client, "198.51.100.9")
        assert elsewhere.get("/api/profiles/me", headers=as_profile(old)).status_code == 200
        assert sql(database, "SELECT claimed_from FROM profiles WHERE name = 'Old'") == [
            (plain_hash(ADDRESS),)
        ]
        here = from_address(client, ADDRESS)
        assert here.get("/api/profiles/me", headers=as_profile(old)).status_code == 200
        assert sql(database, "SELECT claimed_from FROM profiles WHERE name = 'Old'") == [spare_hash]


def test_the_upgrade_forgets_the_games_plain_hashes(database):
    with TestClient(create_app(database, bot_delay=0)) as client:
        claim_and_create(client)
    store = Store(database)
    try:
        with store.engine.begin() as db:
            command.downgrade(migrations.alembic_config(db), "0008")  # the version before
            plain = sa.text("UPDATE games SET created_from = :plain")  # as it kept them
            db.execute(plain, {"plain": plain_hash(ADDRESS)})
        migrations.upgrade(store.engine)
    finally:
        store.close()
    assert kept(database)[1] == {None}


@pytest.mark.parametrize(
    "write, refusal, why",
    [
        (lambda path: path.write_text("short"), SecretTooShort, None),  # serve words it
        (lambda path: path.write_bytes(b"\xff" * 80), SecretUnusable, "ascii"),
        (lambda path: (path.parent.rmdir(), path.parent.write_text("")), SecretUnusable, "exists"),
    ],
    ids=["too short", "not text", "its folder a file"],
)
def test_a_secret_file_that_cannot_be_used_is_refused_before_the_database_is_opened(
    tmp_path: Path, write, refusal: type[SecretUnusable], why: str | None
):
    folder = tmp_path / "secrets"
    folder.mkdir()
    secret = folder / "server.secret"
    write(secret)
    database = tmp_path / "games.sqlite3"
    with pytest.raises(refusal, match=why) as refused:
        app(str(database), secret)
    assert refused.type is refusal
    assert not database.exists()  # checked before the work


def test_spare_profiles_claimed_before_the_secret_still_compare_once_one_is_opened(database):
    """A review's finding: two spares claimed from one network before the secret, one then
    opened from it and the other from elsewhere: the first got the keyed hash, the second
    kept the plain one, and the two no longer compared as one person's. Every profile of the
    network gets it at once."""
    with TestClient(create_app(database, bot_delay=0)) as client:
        spares = [claim(client, name, ADDRESS) for name in ("Spare1", "Spare2")]
        sql(database, "UPDATE profiles SET claimed_from = :plain", plain=plain_hash(ADDRESS))
        here = from_address(client, ADDRESS)
        assert here.get("/api/profiles/me", headers=as_profile(spares[0])).status_code == 200
        elsewhere = from_address(client, "198.51.100.9")
        assert elsewhere.get("/api/profiles/me", headers=as_profile(spares[1])).status_code == 200
    claimed = kept(database)[0]
    assert len(claimed) == 1 and plain_hash(ADDRESS) not in claimed


def test_servers_starting_together_make_one_secret_and_agree_on_it(tmp_path: Path):
    """A review's race: the file was made empty, then written; a server reading it between
    was refused, and a crash between left an empty secret for good. And on SQLite two first
    starts both recorded the fingerprint (one failed on the key)."""
    for round_ in range(20):
        path, database = tmp_path / f"{round_}.secret", str(tmp_path / f"{round_}.sqlite3")
        Store(database).close()  # the schema first: the race is the secret's, not the tables'
        with ThreadPoolExecutor(8) as pool:
            read = list(pool.map(read_secret, [path] * 8))
        assert len(set(read)) == 1 and not list(tmp_path.glob(".*"))  # no file left over
        engines = [sa.create_engine(database_url(database)) for _ in range(8)]
        try:
            with ThreadPoolExecutor(8) as pool:
                list(pool.map(Networks, engines, read))
        finally:
            for engine in engines:
                engine.dispose()
