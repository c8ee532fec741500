"""Encryption at rest of stored Transparenzregister credentials (Fernet).

The Fernet key comes from the configuration, else ``REGKIT_LOCAL_SECRET_KEY``, else a key file that is
generated once (mode 0600, in a 0700 directory that is never the state file's). Only Fernet tokens reach
the state file; every decryption is logged at INFO on ``regkit.local.vault``: the user's name (never the
API key), the credential name and the purpose — never the username or password.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import os
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from .config import SECRET_KEY_ENV, default_key_path
from .exceptions import ApiError

if TYPE_CHECKING:  # cryptography is imported when a credential is first sealed or opened, not at start
    from cryptography.fernet import Fernet

__all__ = ["Vault", "iso_time"]

logger = logging.getLogger(__name__)


def iso_time(timestamp: float) -> str:
    """``2026-06-30T12:00:00Z`` for a Unix time."""
    return dt.datetime.fromtimestamp(timestamp, dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


class Vault:
    """Encrypts and decrypts credential sets.

    Parameters
    ----------
    state_path : Path
        The state file (the generated key file must live elsewhere).
    secret_key : str or bytes, optional
        A Fernet key (``Fernet.generate_key()``).
    key_path : str or Path, optional
        Where to keep a generated key (default :func:`regkit.local.config.default_key_path`).
    """

    def __init__(
        self, state_path: Path, secret_key: str | bytes | None = None, key_path: os.PathLike[str] | str | None = None
    ):
        self._state_dir = Path(state_path).resolve().parent
        self._secret_key = secret_key
        self._key_path = Path(key_path) if key_path is not None else None
        self._fernet: Fernet | None = None
        self._lock = threading.Lock()

    def _key_file(self) -> bytes:
        path = self._key_path or default_key_path()
        if path.resolve().parent == self._state_dir:
            raise ValueError(
                f"The key file {path} must not live beside the state file; choose another directory "
                f"or set {SECRET_KEY_ENV}."
            )
        if path.exists():
            return path.read_bytes().strip()
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        from cryptography.fernet import Fernet

        key = Fernet.generate_key()
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:  # another process was faster
            return path.read_bytes().strip()
        with os.fdopen(fd, "wb") as handle:
            handle.write(key + b"\n")
        logger.info("Generated a new credentials key in %s", path)
        return key

    def fernet(self) -> Fernet:
        """The cipher, resolving the key on first use."""
        with self._lock:
            if self._fernet is None:
                from cryptography.fernet import Fernet

                key = self._secret_key or os.environ.get(SECRET_KEY_ENV) or self._key_file()
                try:
                    self._fernet = Fernet(key)
                except (ValueError, TypeError):
                    raise ValueError(
                        "The credentials key is not a Fernet key; create one with "
                        "`python -c 'from cryptography.fernet import Fernet; "
                        "print(Fernet.generate_key().decode())'`."
                    ) from None
            return self._fernet

    def seal(self, username: str, password: str) -> bytes:
        """Encrypt one credential set."""
        return self.fernet().encrypt(json.dumps({"username": username, "password": password}).encode("utf-8"))

    def unseal(self, token: bytes, *, name: str, user: str, purpose: str) -> tuple[str, str]:
        """Decrypt one credential set (logged), returning ``(username, password)``.

        Parameters
        ----------
        token : bytes
            What :meth:`seal` returned.
        name : str
            The credential set's name.
        user : str
            The user's name for the log (:func:`regkit.local.models.users.user_name`), never the API key.
        purpose : str
            Why it is decrypted, for the log (e.g. ``production extract of DE-HRB-R1504-115946``).

        Raises
        ------
        ApiError
            500 ``internal_error`` when the key cannot decrypt it (the key changed since it was stored).
        """
        from cryptography.fernet import InvalidToken

        try:
            plain = json.loads(self.fernet().decrypt(token))
        except InvalidToken:
            logger.error(
                "Stored credentials %r of user %s cannot be decrypted with the configured key (for %s)",
                name,
                user,
                purpose,
            )
            raise ApiError(
                "internal_error",
                "The stored credentials cannot be decrypted with this register's key; store them again.",
            ) from None
        logger.info("Decrypted stored Transparenzregister credentials %r of user %s for %s", name, user, purpose)
        return plain["username"], plain["password"]
