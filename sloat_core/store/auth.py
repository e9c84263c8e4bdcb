"""Staff passcodes (PBKDF2-SHA256 hashes) and the short-lived staff tokens they unlock.

See :mod:`sloat_core.store` for who may do what.
"""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from sloat_core.errors import SloatInputError, StaffRequired  # noqa: F401  (StaffRequired: re-exported)

#: Longest wait imposed after wrong staff passcodes.
MAX_BACKOFF_S = 15 * 60
#: How long a staff unlock lasts.
STAFF_TOKEN_TTL_S = 8 * 3600
#: Default PBKDF2 work factor for new passcode hashes.
PBKDF2_ITERATIONS = 600_000


def _b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode("ascii")


def hash_passcode(passcode: str, *, iterations: int = PBKDF2_ITERATIONS, salt: bytes | None = None) -> str:
    """A PBKDF2-SHA256 hash string ``"pbkdf2_sha256$<iterations>$<salt b64>$<hash b64>"`` for the secrets.

    >>> h = hash_passcode("correct horse", iterations=1000)
    >>> h.startswith("pbkdf2_sha256$1000$"), verify_passcode("correct horse", h), verify_passcode("wrong", h)
    (True, True, False)
    """
    if not isinstance(passcode, str) or not passcode:
        raise SloatInputError("The staff passcode cannot be empty.")
    if not isinstance(iterations, int) or iterations < 1000:
        raise SloatInputError("The passcode hash needs at least 1,000 iterations.")
    salt = salt if salt is not None else secrets.token_bytes(16)
    digest = hashlib.pbkdf2_hmac("sha256", passcode.encode("utf-8"), salt, iterations)
    return f"pbkdf2_sha256${iterations}${_b64(salt)}${_b64(digest)}"


def _parse_hash(passcode_hash: Any) -> tuple[int, bytes, bytes] | None:
    if not isinstance(passcode_hash, str):
        return None
    parts = passcode_hash.strip().split("$")
    if len(parts) != 4 or parts[0] != "pbkdf2_sha256" or not parts[1].isdigit():
        return None
    iterations = int(parts[1])
    if not 1000 <= iterations <= 10_000_000:
        return None
    try:
        salt = base64.b64decode(parts[2], validate=True)
        digest = base64.b64decode(parts[3], validate=True)
    except (ValueError, TypeError):
        return None
    if len(salt) < 8 or len(digest) != 32:
        return None
    return iterations, salt, digest


def verify_passcode(passcode: str, passcode_hash: str) -> bool:
    """Whether `passcode` matches the hash (constant-time comparison). A malformed hash never matches."""
    parsed = _parse_hash(passcode_hash)
    if parsed is None or not isinstance(passcode, str):
        return False
    iterations, salt, digest = parsed
    candidate = hashlib.pbkdf2_hmac("sha256", passcode.encode("utf-8"), salt, iterations)
    return hmac.compare_digest(candidate, digest)


#: Signs staff tokens; new at every start of the process, so tokens never outlive the server.
_TOKEN_KEY = secrets.token_bytes(32)


@dataclass(frozen=True)
class StaffToken:
    """Proof of a staff unlock in this process. Made only by :meth:`CaseStore.unlock_staff`.

    A token built by hand does not carry a valid signature and is refused.
    """

    issued_at: float
    expires_at: float
    nonce: str
    signature: str = field(repr=False)

    @staticmethod
    def _sign(issued_at: float, expires_at: float, nonce: str) -> str:
        msg = f"{issued_at!r}|{expires_at!r}|{nonce}".encode()
        return hmac.new(_TOKEN_KEY, msg, hashlib.sha256).hexdigest()

    @classmethod
    def _issue(cls, now: float) -> "StaffToken":
        nonce = secrets.token_hex(8)
        expires = now + STAFF_TOKEN_TTL_S
        return cls(now, expires, nonce, cls._sign(now, expires, nonce))

    def is_valid(self, now: float | None = None) -> bool:
        """Whether the token was issued by this process and has not expired."""
        now = time.time() if now is None else now
        good = hmac.compare_digest(self.signature, self._sign(self.issued_at, self.expires_at, self.nonce))
        return good and self.issued_at <= now < self.expires_at


def _require_staff(token: Any) -> None:
    if not isinstance(token, StaffToken) or not token.is_valid():
        raise StaffRequired("This needs staff mode: unlock it with the staff passcode.")


@dataclass(frozen=True)
class UnlockResult:
    """The answer to a staff unlock: a token, or a refusal saying why and when to try again."""

    ok: bool
    message: str
    token: StaffToken | None = None
    retry_after_s: float = 0.0
    retry_at: dt.datetime | None = None


