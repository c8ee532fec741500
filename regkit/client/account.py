"""The account: what storing Transparenzregister credentials sends, and the records of credentials and credits
with their HTML summaries."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from regkit.common.html import summary_html
from regkit.schema.formatting import MISSING, count_text, date_text

from .arguments import validation
from .records import (
    Record,
    text_or_missing,
    timestamp_of,
)
from .transport.operation import Operation, operation

__all__ = ["store_credentials_op", "CredentialRecord", "CreditsRecord", "credits_html", "credentials_html"]


_CREDENTIAL_HINTS = {
    401: "the Transparenzregister rejected this username and password (the API key is fine); check them",
    402: "storing Transparenzregister credentials needs a paid plan",
    409: "the account holds the maximum number of credential sets; overwrite an existing name instead",
}


def store_credentials_op(username: Any, password: Any, name: Any) -> Operation:
    """The operation of ``store_credentials`` (arguments checked; nothing is sent; sent again only after a
    429 ``rate_limited``)."""
    name = validation.credential_name(name, storing=True)
    username, password = validation.credentials(username, password)
    return operation(
        "store_credentials",
        body={"username": username, "password": password, "name": name},
        idempotent=False,
        hints=_CREDENTIAL_HINTS,
        unknown_hint="store them again: it overwrites the set of that name",
    )


class CredentialRecord(Record):
    """A stored credential set as the interface confirms it (never with the password)."""

    kind = "credentials"

    def _label(self) -> str:
        return str(self.raw.get("name", ""))

    def _repr_html_(self) -> str:
        """The summary Jupyter shows: the set's name and dates (never the login or the password)."""
        return credentials_html(self.raw)


class CreditsRecord(Record):
    """The account's credits (``GET /v1/credits``)."""

    kind = "credits"

    def _label(self) -> str:
        return f"used={self.raw.get('used_credits')} remaining={self.raw.get('remaining_credits')}"

    def _repr_html_(self) -> str:
        """The summary Jupyter shows: remaining, used of included, overage, the plan and its period."""
        return credits_html(self.raw)


def credits_html(c: Mapping[str, Any]) -> str:
    """The account's credits in this period."""
    period = c.get("period") or {}
    kind = {"billing_cycle": "billing cycle", "rolling_30_days": "rolling 30 days"}.get(str(period.get("type")), "")
    facts = [
        ("Used", f"{count_text(c.get('used_credits'))} of {count_text(c.get('included_credits'))} included"),
        ("Overage", count_text(c.get("overage_credits"))),
        ("Plan", "paid" if c.get("paid") else "free"),
        ("Period", f"{kind or MISSING}, resets {date_text(_day(period.get('reset_at')))}"),
    ]
    return summary_html(f"Credits: {count_text(c.get('remaining_credits'))} remaining", facts, kind="credits")


def _day(stamp: Any) -> Any:
    return stamp[:10] if isinstance(stamp, str) else stamp


def credentials_html(c: Mapping[str, Any]) -> str:
    """A stored credential set as the interface confirms it: its name and dates (never the login or password)."""
    facts = [
        ("Stored", date_text(timestamp_of(c.get("created_at")))),
        ("Updated", date_text(timestamp_of(c.get("updated_at")))),
    ]
    return summary_html(
        f"Credentials \u201c{text_or_missing(c.get('name'))}\u201d",
        facts,
        subtitle="Transparenzregister login, stored by the service",
        kind="credentials",
    )
