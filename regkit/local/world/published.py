"""Event details as the insolvency announcements publish them: amounts and dates as text.

The live service extracts an event's ``details`` from the announcement's wording, so the amounts
(``distribution_available``, ``distribution_claims_total``) and dates (``claims_filing_deadline``,
``closed_at``) are strings in no fixed format. The world writes them in the forms announcements use, at
shares close to what is published, and a few that say nothing parseable, so that a client's tolerant parser
meets every path. The proceeding-level members stay typed (euros as numbers, ISO dates).

The choice of form is drawn from the event's own id, not from the world's random stream: the rest of the
world stays byte-identical whatever forms are chosen here.
"""

from __future__ import annotations

import random
from datetime import date
from typing import Any

__all__ = ["AMOUNT_FORMS", "DATE_FORMS", "UNPARSEABLE", "amount_text", "date_text", "publish_details"]

#: How an announcement writes an amount, with its share in per cent (``{de}`` is the German number
#: ``14.102,57``, ``{de_plain}`` the same without grouping, ``14102,57``, ``{en}`` the plain ``14102.57``).
AMOUNT_FORMS: dict[str, int] = {
    "{de} €": 30,
    "{de} EUR": 24,
    "EUR {de}": 14,
    "{de}": 13,
    "{en}": 11,
    "{de_plain} Euro": 5,
}
#: How an announcement writes a date, with its share in per cent (``{dmy}`` is ``31.03.2024``).
DATE_FORMS: dict[str, int] = {"{dmy}": 58, "{iso}": 39}
#: Wordings that state no value (what is left of 100 % above: 3 %).
UNPARSEABLE: dict[str, tuple[str, ...]] = {
    "amount": ("siehe Bekanntmachung", "wird nachgereicht", "nicht beziffert"),
    "date": ("siehe Bekanntmachung", "wird gesondert bekannt gemacht"),
}
_UNPARSEABLE_SHARE = 3
_AMOUNTS = ("distribution_available", "distribution_claims_total")
_DATES = ("claims_filing_deadline", "closed_at")


def _german(value: float, *, grouped: bool) -> str:
    text = f"{value:,.2f}" if grouped else f"{value:.2f}"
    return text.replace(",", "\0").replace(".", ",").replace("\0", ".")


def amount_text(value: float, form: str) -> str:
    """Write ``value`` euros in ``form`` (a key of :data:`AMOUNT_FORMS`).

    Examples
    --------
    >>> [amount_text(14102.57, form) for form in AMOUNT_FORMS]
    ['14.102,57 €', '14.102,57 EUR', 'EUR 14.102,57', '14.102,57', '14102.57', '14102,57 Euro']
    """
    return form.format(de=_german(value, grouped=True), de_plain=_german(value, grouped=False), en=f"{value:.2f}")


def date_text(day: str, form: str) -> str:
    """Write the ISO date ``day`` in ``form`` (a key of :data:`DATE_FORMS`).

    Examples
    --------
    >>> date_text("2024-03-31", "{dmy}"), date_text("2024-03-31", "{iso}")
    ('31.03.2024', '2024-03-31')
    """
    parsed = date.fromisoformat(day)
    return form.format(iso=parsed.isoformat(), dmy=parsed.strftime("%d.%m.%Y"))


def _draw(rng: random.Random, forms: dict[str, int]) -> str | None:
    """A form by its share, or ``None`` (unparseable) for the remaining per cent."""
    choices = [*forms, None]
    weights = [*forms.values(), _UNPARSEABLE_SHARE]
    return rng.choices(choices, weights)[0]


def publish_details(details: dict[str, Any], event_id: str) -> dict[str, Any]:
    """Return ``details`` with its amounts and dates written as published text.

    Both amounts of one announcement share its style; each value may independently be a wording that
    states no value. ``None`` stays ``None``.
    """
    rng = random.Random(f"published-text:{event_id}")
    published = dict(details)
    style = rng.choices(list(AMOUNT_FORMS), list(AMOUNT_FORMS.values()))[0]
    for member in _AMOUNTS:
        value = details[member]
        if value is not None:
            unparseable = rng.randrange(100) < _UNPARSEABLE_SHARE
            published[member] = rng.choice(UNPARSEABLE["amount"]) if unparseable else amount_text(value, style)
    for member in _DATES:
        value = details[member]
        if value is not None:
            form = _draw(rng, DATE_FORMS)
            published[member] = rng.choice(UNPARSEABLE["date"]) if form is None else date_text(value, form)
    return published
