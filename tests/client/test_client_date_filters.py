"""Dates in search filters (issue 40): a German ``DD.MM.YYYY`` is read day first and sent as ISO, never as typed;
what is no date is a ``ValidationError`` and nothing is sent.

The rule itself is tested in ``tests/frames/test_date_arguments.py``.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import numpy as np
import pandas as pd
import pytest

from regkit.client.arguments.filter_fields import COMPANY_FILTERS
from regkit.client.arguments.validation import filters
from regkit.errors import ValidationError


def _sent_filters(register: Any) -> list[dict[str, Any]]:
    """The filters of the last request that reached the register, as sent."""
    return json.loads(register.counter.bodies[-1])["filters"]


def test_a_german_date_is_sent_as_iso(inprocess: Any, world: Any) -> None:
    client = inprocess.client()
    german = client.search_insolvencies(filters={"opened_at": ("01.02.2020", "31.12.2020")}, per_page=100)
    assert inprocess.counter.count("POST") == 1
    assert _sent_filters(inprocess.register) == [{"field": "opened_at", "min": "2020-02-01", "max": "2020-12-31"}]
    expected = sorted(
        p["id"] for p in world.insolvencies.values() if "2020-02-01" <= (p["opened_at"] or "") <= "2020-12-31"
    )
    assert german.total_results == len(expected) > 0
    iso = client.search_insolvencies(filters={"opened_at": ("2020-02-01", "2020-12-31")}, per_page=100)
    assert inprocess.counter.count("POST") == 1  # the same search: one cache entry, nothing sent again
    assert [r["id"] for r in iso] == [r["id"] for r in german]


def test_a_company_search_date_is_sent_as_iso(inprocess: Any) -> None:
    client = inprocess.client()
    client.search_companies(filters={"incorporated_at": ("1.2.2015", None)})
    assert _sent_filters(inprocess.register) == [{"field": "incorporated_at", "min": "2015-02-01"}]


@pytest.mark.parametrize(
    ("value", "why"),
    [
        ("2024-02-31", "February 2024 has 29 days"),
        ("yesterday", "words are not read"),
        ("02/01/2024", "slashed dates"),
        ("2024", "a year or a month is not a day"),
        (20240201, "must be a date"),
    ],
)
def test_no_date_sends_nothing(inprocess: Any, value: Any, why: str) -> None:
    client = inprocess.client()
    with pytest.raises(ValidationError, match=r"^filter opened_at\.min ") as caught:
        client.search_insolvencies(filters={"opened_at": (value, None)})
    assert why in caught.value.message
    assert "DD.MM.YYYY, day first" in caught.value.suggestion and "nothing was sent" in caught.value.suggestion
    with pytest.raises(ValidationError):
        list(client.iter_insolvencies(filters={"opened_at": value}))
    assert inprocess.counter.count() == 0 and inprocess.used() == 0


def test_the_filter_normalisation_takes_every_date_kind() -> None:
    for value in (
        "01.02.2024",
        "1.2.2024",
        "2024-02-01",
        "2024-02-01T09:00:00Z",
        dt.date(2024, 2, 1),
        dt.datetime(2024, 2, 1, 9),
        pd.Timestamp("2024-02-01"),
        np.datetime64("2024-02-01"),
    ):
        assert filters({"opened_at": (value, None)}) == [{"field": "opened_at", "min": "2024-02-01"}], value
    assert filters({"incorporated_at": ("01.02.2015", "28.02.2015")}, COMPANY_FILTERS) == [
        {"field": "incorporated_at", "min": "2015-02-01", "max": "2015-02-28"}
    ]
    # min after max is refused in calendar order, whichever way the days were written
    with pytest.raises(ValidationError, match="min 2024-02-10 is after max 2024-02-09"):
        filters({"opened_at": ("10.02.2024", "2024-02-09")})
