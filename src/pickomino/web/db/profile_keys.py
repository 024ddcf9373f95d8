"""A profile's identity without email or passwords: a random id (public, in the profile's
address) and a random secret key that only the browser holds. The server keeps a hash of the
key, never the key; the browser proves the profile with its **recovery code**, the id and the
key written as groups of Crockford base-32 (no I, L, O or U: nothing to misread when it is
printed or copied by hand onto another device).

>>> code = recovery_code("k7qm3xzp2a", "0" * 26)
>>> code
'K7QM-3XZP-2A00-0000-0000-0000-0000-0000-0000'
>>> parse_code(code.lower().replace("-", " ").replace("0", "o"))
('k7qm3xzp2a', '00000000000000000000000000')
>>> parse_code("K7QM-3XZP") is None  # too short: no profile opens with it
True

The key has 130 random bits, so one fast hash (SHA-256) keeps it as safe as a slow password
hash would: there is nothing to guess.
"""

from __future__ import annotations

import hashlib
import secrets

#: Crockford's base-32 digits, in lower case (ids appear in addresses).
ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"
ID_LENGTH = 10  #: 50 bits: ids are public, they need only not collide
KEY_LENGTH = 26  #: 130 bits of secret
#: What a person may type for a digit that looks like it.
LOOKALIKES = str.maketrans({"o": "0", "i": "1", "l": "1"})


def random_digits(count: int) -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(count))


def new_id() -> str:
    return random_digits(ID_LENGTH)


def new_key() -> str:
    return random_digits(KEY_LENGTH)


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def key_opens(stored_hash: str, key: str) -> bool:
    """Whether ``key`` is the one whose hash is stored (in constant time)."""
    return secrets.compare_digest(stored_hash.encode(), key_hash(key).encode())


def recovery_code(profile_id: str, key: str) -> str:
    """The id and key as one printable code in groups of four."""
    digits = (profile_id + key).upper()
    return "-".join(digits[i : i + 4] for i in range(0, len(digits), 4))


def parse_code(code: str) -> tuple[str, str] | None:
    """``(id, key)`` from a recovery code as typed (any case, spaces or dashes anywhere,
    O for 0 and I or L for 1), or ``None`` when it cannot be one."""
    if len(code) > 100:
        return None
    digits = "".join(char for char in code.lower() if char not in " -").translate(LOOKALIKES)
    if len(digits) != ID_LENGTH + KEY_LENGTH or not set(digits) <= set(ALPHABET):
        return None
    return digits[:ID_LENGTH], digits[ID_LENGTH:]
