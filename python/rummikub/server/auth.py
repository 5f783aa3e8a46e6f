"""Seat keys: each seat of a person (or an external bot) is claimed with an unguessable secret.

The server stores only a key's SHA-256: keys are 192 random bits, so a plain hash cannot be brute-forced and
no slow password hash is needed. Comparisons run in constant time.

>>> key = new_key()
>>> digest = hash_key(key)
>>> check_key(key, digest), check_key(key + "x", digest), check_key(key, None)
(True, False, False)
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

__all__ = ["new_key", "hash_key", "check_key", "new_room_id"]

KEY_BYTES = 24


def new_key() -> str:
    """A fresh seat key (``secrets.token_urlsafe(24)``: 32 URL-safe characters)."""
    return secrets.token_urlsafe(KEY_BYTES)


def new_room_id() -> str:
    """A fresh room id (unguessable too, so a room's public page cannot be found by counting)."""
    return secrets.token_urlsafe(9)


def hash_key(key: str) -> str:
    """The stored form of a key (hex SHA-256)."""
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def check_key(key: object, digest: str | None) -> bool:
    """True when ``key`` is the key whose hash is ``digest`` (constant-time; False for a seat without key)."""
    if digest is None or not isinstance(key, str) or len(key) > 256:
        return False
    return hmac.compare_digest(hash_key(key), digest)
