"""Names as people see them: look-alikes of a name (UTS #39's confusable skeleton after
NFKC) are that name, invisible characters are refused, and the bots' labels are theirs:
for profiles, invited names and names joining from the lobby."""

from __future__ import annotations

import string
import unicodedata

import pytest
from confusable_homoglyphs.confusables import confusables_data
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st
from pydantic import TypeAdapter, ValidationError

from pickomino.web.forms import Name, name_keys

from .clients import create, invalid, refused_http
from .test_profiles import claim
from .test_protocol import fast_app

NAME = TypeAdapter(Name)


def collide(one: str, other: str) -> bool:
    return bool(name_keys(one) & name_keys(other))


def lookalikes(char: str) -> list[str]:
    """The characters Unicode's confusables.txt says look like ``char`` (as the library
    ships it), those NFKC leaves as they are (NFKC comes first: it reads a long s as s)."""
    glyphs = (glyph["c"].strip("\u200e\u200f") for glyph in confusables_data.get(char, []))
    return [g for g in glyphs if len(g) == 1 and unicodedata.normalize("NFKC", g) == g]


@given(st.data(), st.text(string.ascii_letters, min_size=1, max_size=12))
def test_a_name_and_each_of_its_lookalikes_are_one_name(data, name):
    variant = "".join(
        data.draw(st.sampled_from([char, *lookalikes(char)]), label=char) for char in name
    )
    assert collide(name, variant), (name, variant)
    assert collide(name.upper(), name.lower())


@given(st.data(), st.text(string.ascii_letters, min_size=1, max_size=12))
def test_compatibility_forms_are_one_name(data, name):
    fullwidth = "".join(chr(ord(char) + 0xFEE0) for char in name)
    assert collide(name, fullwidth)


def hidden_characters() -> st.SearchStrategy[str]:
    """Characters nobody sees: format, control, separators other than the space, private
    use; and from Unicode's names, the variation selectors, fillers and blanks."""
    by_category = st.characters(categories=["Cc", "Cf", "Co", "Zl", "Zp", "Zs"])
    named = [
        chr(code)
        for code in range(0x110000)
        if "HANGUL" in (name := unicodedata.name(chr(code), ""))
        and "FILLER" in name
        or any(word in name for word in ("VARIATION SELECTOR", "PATTERN BLANK", "GRAPHEME JOINER"))
    ]
    return by_category.filter(lambda c: c != " ") | st.sampled_from(named)


@given(hidden_characters(), st.integers(1, 2))  # inside: the ends are stripped of spaces
def test_every_invisible_character_is_refused(char, where):
    name = "Ann"[:where] + char + "Ann"[where:]
    with pytest.raises(ValidationError) as refusal:
        NAME.validate_python(name)
    assert refusal.value.errors()[0]["type"] in ("unprintable_name", "string_too_short")


LOOKALIKES_OF_ANN = [
    "\u0410nn",  # Cyrillic A
    "\uff21\uff4e\uff4e",  # fullwidth
    "\u0391nn",  # Greek Alpha
    "A\u0578\u0578",  # Armenian vo
    "A\u0578n",
    " ANN ",
]
INVISIBLE_ANNS = ["Ann\u2800", "Ann\u3164", "Ann\ufe0f", "\u115fAnn", "A\u034fnn", "Ann\u200b"]
BOT_LABELS = ["Bot: expert", "bot:hard", "BOT:  Easy", "Botti: vaikea", "Bot difficile", "Bot: Ann"]


@pytest.fixture
def client(database: str):
    with TestClient(fast_app(database)) as test_client:
        yield test_client


@pytest.mark.parametrize("lookalike", LOOKALIKES_OF_ANN)
def test_a_lookalike_of_a_profile_is_refused_as_profile_invitee_and_lobby_name(client, lookalike):
    claim(client, "Ann")
    answer = client.post("/api/profiles", json={"name": lookalike})
    refused_http(answer, 409, "profile_name_taken", name=lookalike.strip())
    invite = client.post("/api/games", json={"seats": [{"name": "Bob"}, {"name": lookalike}]})
    refused_http(invite, 409, "invited_name_is_profile", name=lookalike.strip())
    game = create(client, {"seats": [{"name": "Bob"}, {"name": "Guest", "open": True}]})
    join = client.post(f"/api/games/{game['id']}/join", json={"name": lookalike})
    refused_http(join, 409, "name_is_profile", name=lookalike.strip())
    same = client.post("/api/games", json={"seats": [{"name": "Ann"}, {"name": lookalike}]})
    invalid(same, "same_name")


@pytest.mark.parametrize("name", INVISIBLE_ANNS)
def test_an_invisible_character_is_refused_everywhere(client, name):
    invalid(client.post("/api/profiles", json={"name": name}), "unprintable_name")
    invite = client.post("/api/games", json={"seats": [{"name": "Bob"}, {"name": name}]})
    invalid(invite, "unprintable_name")
    game = create(client, {"seats": [{"name": "Bob"}, {"name": "Guest", "open": True}]})
    invalid(client.post(f"/api/games/{game['id']}/join", json={"name": name}), "unprintable_name")


@pytest.mark.parametrize(
    "name",
    [
        "Nguye\u0302\u0303n",  # Vietnamese, decomposed: two marks on one letter
        "שָׁלוֹם",  # Hebrew with its points
        "བསྒྲུབས",  # Tibetan: a stack of subjoined letters and a vowel sign
        "हिन्दी",  # Devanagari
        "x\u0301\u0300\u0302\u0303n",  # four marks on one letter: the most allowed
    ],
)
def test_letters_with_their_marks_are_names(name):
    assert NAME.validate_python(name) == name


def test_a_letter_under_a_pile_of_marks_is_refused_everywhere(client):
    name = "A" + "\u0301\u0316" * 11  # "Zalgo": 22 marks spilling over the lines around it
    invalid(client.post("/api/profiles", json={"name": name}), "stacked_marks", ctx={"most": 4})
    invite = client.post("/api/games", json={"seats": [{"name": "Bob"}, {"name": name}]})
    invalid(invite, "stacked_marks")
    game = create(client, {"seats": [{"name": "Bob"}, {"name": "Guest", "open": True}]})
    invalid(client.post(f"/api/games/{game['id']}/join", json={"name": name}), "stacked_marks")
    with pytest.raises(ValidationError):  # one mark more than the most allowed
        NAME.validate_python("x\u0301\u0300\u0302\u0303\u0304n")


@pytest.mark.parametrize("label", BOT_LABELS)
def test_the_bots_labels_are_reserved(client, label):
    invalid(client.post("/api/profiles", json={"name": label}), "reserved_name")
    invite = client.post("/api/games", json={"seats": [{"name": "Bob"}, {"name": label}]})
    invalid(invite, "reserved_name")
    game = create(client, {"seats": [{"name": "Bob"}, {"name": "Guest", "open": True}]})
    invalid(client.post(f"/api/games/{game['id']}/join", json={"name": label}), "reserved_name")


@pytest.mark.parametrize(
    "name", ["Bot 2", "Botond", "Robo", "Zoë", "Ann-Marie", "Анна", "Mary Ann"]
)
def test_ordinary_names_stay_free(client, name):
    assert client.post("/api/profiles", json={"name": name}).status_code == 201


def test_small_capitals_are_the_letters_they_look_like():
    """An audit: "ᴀnn" and "Aɴɴ" passed as other names than "Ann": Unicode's confusables.txt
    leaves many small capitals out. Each Latin one stands for its letter, but the two the
    file likens to another letter ("ᴋ" to the kra "ĸ", "ᴍ" to a turned "ʍ"): as it says."""
    for lookalike in ("ᴀnn", "Aɴɴ", "ᴀɴɴ"):
        assert collide("Ann", lookalike), lookalike
    checked = 0
    for letter in string.ascii_uppercase.replace("K", "").replace("M", ""):
        try:
            small = unicodedata.lookup(f"LATIN LETTER SMALL CAPITAL {letter}")
        except KeyError:
            continue
        assert collide(f"{letter}ob", f"{small}ob"), (letter, small)
        checked += 1
    assert checked == 23
    assert not collide("Ann", "ʀnn")  # a small capital R is an R, not an A
