"""Credentials, monitors and credits: the account side of :class:`regkit.Client`."""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import quote

from regkit.schema.interface import PRICES

from . import validation
from .records import CredentialRecord, CreditsRecord, MonitorRecord
from .transport.call import Operation

__all__ = ["AccountMethods"]

_CREDENTIAL_HINTS = {
    401: "the Transparenzregister rejected this username and password (the API key is fine); check them",
    402: "storing Transparenzregister credentials needs a paid plan",
    409: "the account holds the maximum number of credential sets; overwrite an existing name instead",
}


class AccountMethods:
    """The credential, monitor and credit methods of :class:`regkit.Client` (a mixin; see there).

    Nothing here is ever cached: stored credentials are sent once and never written anywhere,
    monitors and credits are always asked afresh.
    """

    def store_credentials(self, username: str, password: str, name: str = "default") -> CredentialRecord:
        """Store Transparenzregister credentials under ``name`` (free).

        The interface checks them with the Transparenzregister first.  The password goes out in
        this one request body and nowhere else: the endpoint is never cached and never logged.
        ``name="sandbox"`` is reserved and refused before sending.
        """
        name = validation.credential_name(name, storing=True)
        username, password = validation.credentials(username, password)
        op = Operation(
            "store_credentials",
            "POST",
            "/v1/transparenzregister/credentials",
            body={"username": username, "password": password, "name": name},
            price=PRICES["credentials_store"],
            idempotent=False,
            hints=_CREDENTIAL_HINTS,
            unknown_hint="store them again: it overwrites the set of that name",
        )
        answer = self._call(op)  # type: ignore[attr-defined]
        return CredentialRecord(answer.data or {"name": name}, self._meta(answer))  # type: ignore[attr-defined]

    def list_monitors(self) -> list[MonitorRecord]:
        """The monitors of this API user, active and disabled (free; never cached)."""
        op = Operation("list_monitors", "GET", "/v1/monitor", price=PRICES["monitor_list"])
        answer = self._call(op)  # type: ignore[attr-defined]
        meta = self._meta(answer)  # type: ignore[attr-defined]
        return [MonitorRecord(item, meta) for item in answer.data.get("items", [])]

    def create_monitor(
        self, entity_type: str, entity_id: str, preferences: Sequence[str] | str, update_frequency: str | None = None
    ) -> MonitorRecord:
        """Create a monitor (25 credits weekly, 50 daily; person monitors are always weekly).

        Never retried: after an ambiguous failure the error has ``outcome_unknown=True`` and
        says to check :meth:`list_monitors` first.
        """
        body = validation.monitor(entity_type, entity_id, preferences, update_frequency)
        price = PRICES["monitor_daily" if body.get("update_frequency") == "daily" else "monitor_weekly"]
        hint = (
            f"check client.list_monitors() for a monitor on {body['entity_id']} before creating it "
            "again; one that exists is a 409, not a second charge"
        )
        op = Operation(
            "create_monitor", "POST", "/v1/monitor", body=body, price=price, idempotent=False, unknown_hint=hint
        )
        answer = self._call(op)  # type: ignore[attr-defined]
        return MonitorRecord(answer.data, self._meta(answer))  # type: ignore[attr-defined]

    def delete_monitor(self, entity_id: str) -> None:
        """Delete this user's monitor on ``entity_id``, a company id or person UUID (free)."""
        kind = "company" if str(entity_id).strip().startswith("DE-") else "person"
        path = f"/v1/monitor/{quote(validation.entity_id(kind, entity_id))}"
        hints = {404: "there is no monitor on this entity; see client.list_monitors()"}
        op = Operation("delete_monitor", "DELETE", path, price=PRICES["monitor_delete"], hints=hints)
        self._call(op)  # type: ignore[attr-defined]

    def get_credits(self) -> CreditsRecord:
        """The account's credits as the interface counts them (free; never cached)."""
        op = Operation("get_credits", "GET", "/v1/credits", price=PRICES["credits"])
        answer = self._call(op)  # type: ignore[attr-defined]
        return CreditsRecord(answer.data, self._meta(answer))  # type: ignore[attr-defined]
