"""``as_of``: a company as it stood on a date, read from its histories.

Each fact is the newest version of its history that had started on that day (``valid_from <= date``; a
version with an unknown start counts as older than every dated one) — exactly the row of
:func:`~regkit.frames.history` whose ``[valid_from, valid_to)`` contains the date. Of two versions on the same
start date the later one wins, matching its empty-interval predecessor. ``existed`` and ``status`` follow
:mod:`regkit.frames.status`: ``existed`` is True from incorporation up to and on the newest date the record carries,
False before incorporation and from ``terminated_at`` on, and after the newest date True — or ``None``
(unknown) when the record says the company is removed but gives no termination date (``if snap.existed:`` treats
unknown as not known to exist; test ``snap.existed is None`` to find those). On or after the newest date the status
is the record's own (``active`` / ``liquidation``), so a snapshot then agrees with the record. The representatives
are the roles active that day (``start_date <= date < end_date``; a role whose start is on or after its end is
active on no day, :mod:`regkit.frames.mandates`).

After a company's termination the facts are those it had when it was deleted (``existed`` is False); where its
existence is unknown they are those it had on its newest date; before its incorporation they are usually null. Where a nullable current member is null today (``capital``:
none registered any more) the histories do not say when the last version ended, so it is still shown.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from typing import Any

import pandas as pd

from ._columns import iso_date
from ._input import as_dict, is_company, wrong_kind
from .histories import _start, derived_marks, versions
from .money import capital_eur
from .roles import representatives
from .status import status_on

__all__ = ["CompanyAsOf", "as_of", "version_on"]


def version_on(company: Mapping[str, Any], history_field: str, day: str) -> Mapping[str, Any] | None:
    """The version of ``history_field`` in force on ``day`` (``YYYY-MM-DD``), or None."""
    found = None
    for entry in versions(company, history_field)[0]:
        start = _start(history_field, entry)
        if start is not None and start > day:
            break
        found = entry
    return found


@dataclass(frozen=True)
class CompanyAsOf:
    """A company on one date. Attributes are plain Python values (None where unknown or absent)."""

    company_id: str
    date: pd.Timestamp
    existed: bool | None
    status: str | None
    name: str | None
    legal_form: str | None
    address: str | None
    street: str | None
    postal_code: str | None
    city: str | None
    country: str | None
    purpose: str | None
    capital_amount: float | None
    capital_currency: str | None
    capital_eur: float | None
    register_type: str | None
    register_number: str | None
    register_court: str | None
    register_company_id: str | None
    representatives: pd.DataFrame = field(repr=False, compare=False)

    def to_series(self) -> pd.Series:
        """The facts (everything but ``representatives``) as a Series, plus ``active_representatives``."""
        facts = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "representatives"}
        facts["active_representatives"] = len(self.representatives)
        return pd.Series(facts, dtype=object, name=self.company_id)

    def to_dict(self) -> dict[str, Any]:
        """The facts as a dict (``representatives`` as a list of row dicts)."""
        data = asdict(self)
        data["representatives"] = self.representatives.to_dict("records")
        return data

    def _repr_html_(self) -> str:
        facts = self.to_series()
        if facts["existed"] is None:
            facts["existed"] = "unknown"  # shown, not left out as other null facts are
        rows = "".join(
            f"<tr><th style='text-align:left'>{html.escape(str(k))}</th><td>{html.escape(str(v))}</td></tr>"
            for k, v in facts.items()
            if v is not None
        )
        roles = self.representatives[["name", "role", "start_date", "authority"]].to_html(index=False)
        return f"<div><table>{rows}</table><p>Representatives active then</p>{roles}</div>"


def as_of(company: Any, date: Any, *, person_city: bool = False) -> CompanyAsOf:
    """The company as it stood on ``date``.

    Parameters
    ----------
    company : record or dict
        One company.
    date : date-like
        A ``datetime.date``, ``datetime``, ``Timestamp`` or ``datetime64``, ISO ``"2010-06-30"`` (a time after
        it is ignored) or German ``"30.06.2010"``, read day first (``"01.02.2024"`` is 1 February).
    person_city : bool, default False
        Passed to :func:`~regkit.frames.representatives` (the city as tie-breaker in derived person keys).

    Returns
    -------
    CompanyAsOf
        ``company_id``, ``date`` (Timestamp), ``existed`` (bool, or None where unknown: after the record's
        newest date, for a company the record says is removed without a termination date — it is True up to and
        on that date, False before incorporation and from ``terminated_at`` on), ``status`` (str or None:
        inferred, see :mod:`regkit.frames.status`; None before incorporation and where ``existed`` is None),
        ``name``, ``legal_form``, ``address`` (the formatted one-line address), ``street``, ``postal_code``,
        ``city``, ``country``, ``purpose``, ``capital_amount`` (float, in
        ``capital_currency``), ``capital_currency``, ``capital_eur`` (float or None: DEM at 1.95583, USD →
        None), ``register_type``, ``register_number``, ``register_court``, ``register_company_id``, and
        ``representatives``: the frame of :func:`~regkit.frames.representatives` restricted to the roles
        active on ``date`` (same columns and dtypes). ``to_series()`` / ``to_dict()`` convert it.

    Raises
    ------
    ValidationError
        ``date`` is none of those forms (``"yesterday"``, ``"02/01/2024"``) or a day the calendar does not have
        (``"2024-02-31"``); the message shows the value, the suggestion the forms read.

    Examples
    --------
    >>> company = {"id": "DE-HRB-X1-1", "incorporated_at": "1990-01-01", "terminated_at": None,
    ...     "representation": [], "insolvencies": [],
    ...     "names": [{"name": "A GmbH", "legal_form": "gmbh", "start_date": "1990-01-01"}],
    ...     "name": {"name": "A GmbH", "legal_form": "gmbh", "start_date": "1990-01-01"},
    ...     "capitals": [{"amount": 50000.0, "currency": "DEM", "start_date": "1990-01-01"},
    ...                  {"amount": 25600.0, "currency": "EUR", "start_date": "2002-03-01"}],
    ...     "capital": {"amount": 25600.0, "currency": "EUR", "start_date": "2002-03-01"},
    ...     "addresses": [], "address": None, "purposes": [], "purpose": None, "registers": [], "register": None}
    >>> then = as_of(company, "1999-12-31")
    >>> then.existed, then.status, then.capital_amount, then.capital_currency, then.capital_eur
    (True, 'active', 50000.0, 'DEM', 25564.59)

    A removed company whose record dates no end: it existed on its newest date, after it nobody can tell. Nor
    before an incorporation date that is not the register's but derived (a record of a world imported from
    OffeneRegister, whose ``derived`` holds ``incorporated_at``: the earliest date the record holds): ``None``.

    >>> removed = dict(company, status="inactive")
    >>> as_of(removed, "2002-03-01").existed, as_of(removed, "2002-03-02").existed
    (True, None)
    """
    if not is_company(company):
        raise wrong_kind(
            "one company record (client.get_company(id)) or its raw answer (record.raw, a CompanyV1 dict)",
            company,
            "pass client.get_company(company_id), or its .raw; for many companies on one date, call as_of for each",
            function="as_of",
        )
    data = as_dict(company)
    day = iso_date(date, "date")
    existed, status = status_on(data, day)
    if existed is False and day < (data.get("incorporated_at") or "") and "incorporated_at" in derived_marks(company):
        existed = None  # before an incorporation date the import derived (its earliest date): nobody can tell
    name = version_on(data, "names", day) or {}
    address = version_on(data, "addresses", day) or {}
    purpose = version_on(data, "purposes", day) or {}
    capital = version_on(data, "capitals", day) or {}
    register = version_on(data, "registers", day) or {}
    roles = representatives(company, active_on=day, person_city=person_city)  # the record: its derived marks too
    roles = roles[roles["is_active"].to_numpy(bool)].reset_index(drop=True)
    return CompanyAsOf(
        company_id=data["id"],
        date=pd.Timestamp(day),
        existed=existed,
        status=status,
        name=name.get("name"),
        legal_form=name.get("legal_form"),
        address=address.get("formatted_value"),
        street=address.get("street"),
        postal_code=address.get("postal_code"),
        city=address.get("city"),
        country=address.get("country"),
        purpose=purpose.get("purpose"),
        capital_amount=None if capital.get("amount") is None else float(capital["amount"]),
        capital_currency=capital.get("currency"),
        capital_eur=capital_eur(capital.get("amount"), capital.get("currency")),
        register_type=register.get("register_type"),
        register_number=register.get("register_number"),
        register_court=register.get("register_court"),
        register_company_id=register.get("company_id"),
        representatives=roles,
    )
