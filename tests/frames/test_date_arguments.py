"""Date arguments (issue 40): ISO, or German ``DD.MM.YYYY`` read day first, or a ``ValidationError`` — never a
month-first guess. The rule itself (:mod:`regkit.schema.dates`) and the frames that take a date through it.

The graph's, the plots' and the search filters' dates are tested beside their own fixtures
(``tests/graph/test_graph_date_arguments.py``, ``tests/views/test_plot_date_arguments.py``,
``tests/client/test_client_date_filters.py``).
"""

from __future__ import annotations

import datetime as dt
import doctest

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import regkit
import regkit.schema.dates as dates_module
from regkit.errors import ArgumentError, ValidationError
from regkit.frames import as_of, representatives
from regkit.schema import DATE_FORMS, parse_date_argument, validate_date

COMPANY_ID = "DE-HRB-R3101-94644"

#: Days the calendar has, over the whole range ``DD.MM.YYYY`` can write.
days = st.dates(min_value=dt.date(1, 1, 1), max_value=dt.date(9999, 12, 31))

#: Text regkit refuses, each with a word of why the message gives.
REFUSED = {
    "2024-02-31": "February 2024 has 29 days, not 31",
    "31.02.2024": "February 2024 has 29 days, not 31",
    "29.02.2023": "February 2023 has 28 days, not 29",
    "2024-13-01": "no month 13",
    "01.13.2024": "no month 13",
    "yesterday": "words are not read",
    "last year": "words are not read",
    "02/01/2024": "slashed dates",
    "2024/02/01": "slashed dates",
    "2024": "a year or a month is not a day",
    "2024-02": "a year or a month is not a day",
    "20240201": "none of the forms",
    "2024-02-01 noon": "none of the forms",
    "1.2.24": "none of the forms",
    "": "empty",
}


# -- the rule ------------------------------------------------------------------------------------------------


@given(days)
def test_every_day_reads_back_from_german_and_iso(day: dt.date) -> None:
    german = f"{day.day:02d}.{day.month:02d}.{day.year:04d}"
    short = f"{day.day}.{day.month}.{day.year:04d}"
    assert validate_date(german) == validate_date(short) == validate_date(day.isoformat()) == day


@given(days.filter(lambda d: d.day <= 12 and d.day != d.month))
def test_a_day_that_could_be_a_month_is_never_swapped(day: dt.date) -> None:
    german = f"{day.day:02d}.{day.month:02d}.{day.year:04d}"
    swapped = dt.date(day.year, day.day, day.month)
    assert validate_date(german) == day != swapped


@given(days, st.sampled_from(["T10:30", "T23:59:59Z", " 00:00:00+01:00", "T12:00:00.123456-05:00"]))
def test_an_iso_date_time_gives_its_date_as_written(day: dt.date, time: str) -> None:
    assert validate_date(day.isoformat() + time) == day


def test_date_objects_give_their_day() -> None:
    day = dt.date(2024, 2, 1)
    for value in (
        day,
        dt.datetime(2024, 2, 1, 23, 59),
        pd.Timestamp("2024-02-01 23:30", tz="Europe/Berlin"),  # the day as written, not in UTC
        np.datetime64("2024-02-01"),
        np.datetime64("2024-02-01T23:30"),
        "  01.02.2024 ",
        "1. 2. 2024",
    ):
        assert validate_date(value) == day, value


@pytest.mark.parametrize(("text", "why"), REFUSED.items())
def test_other_text_is_refused_showing_the_value_and_the_forms(text: str, why: str) -> None:
    with pytest.raises(ValidationError) as caught:
        validate_date(text, "as_of date")
    assert caught.value.message.startswith(f"as_of date {text!r} is not a date")
    assert why in caught.value.message
    assert caught.value.suggestion == f"pass {DATE_FORMS}"
    assert "DD.MM.YYYY, day first" in str(caught.value)
    assert parse_date_argument(text) is None


@pytest.mark.parametrize("value", [20240201, 2024.5, ["2024-02-01"], b"2024-02-01", object()])
def test_a_value_of_another_type_is_an_argument_error(value: object) -> None:
    with pytest.raises(ArgumentError, match=r"^until must be a date, not "):
        validate_date(value, "until")
    with pytest.raises(TypeError):  # ArgumentError is a TypeError too
        validate_date(value, "until")


@pytest.mark.parametrize("missing", [None, pd.NaT, np.datetime64("NaT"), float("nan")])
def test_missing_is_none_where_optional_and_an_error_where_required(missing: object) -> None:
    assert validate_date(missing, "date", optional=True) is None
    with pytest.raises(ValidationError, match=r"^date is required"):
        validate_date(missing, "date")


def test_the_published_text_reader_stays_lenient() -> None:
    """The reader of published text shares the patterns but never raises: a day that does not exist is null."""
    from regkit.frames.published_dates import parse_date

    assert parse_date("01.02.2024") == validate_date("01.02.2024")
    assert parse_date("5. März 2024") == dt.date(2024, 3, 5)  # a month name: published text only
    assert parse_date("31.02.2024") is None and parse_date("yesterday") is None


def test_doctests() -> None:
    result = doctest.testmod(dates_module, optionflags=doctest.ELLIPSIS)
    assert result.attempted and not result.failed


# -- through the frames ----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def record() -> object:
    """A real record of the bundled world, fetched through the client."""
    client = regkit.Client(cache="memory")
    try:
        yield client.get_company(COMPANY_ID)
    finally:
        client.close()


def test_record_as_of_reads_a_german_date_day_first(record: object) -> None:
    german, iso = record.as_of("01.02.2024"), record.as_of("2024-02-01")
    assert german.date == iso.date == pd.Timestamp("2024-02-01")
    assert german.to_series().equals(iso.to_series())
    pd.testing.assert_frame_equal(german.representatives, iso.representatives)


@pytest.mark.parametrize("text", ["2024-02-31", "yesterday", "02/01/2024"])
def test_record_as_of_refuses_what_is_no_date(record: object, text: str) -> None:
    with pytest.raises(ValidationError, match=rf"^date {text!r} is not a date") as caught:
        record.as_of(text)
    assert "YYYY-MM-DD" in caught.value.suggestion and "DD.MM.YYYY" in caught.value.suggestion


def test_a_company_exists_on_its_incorporation_day_in_both_spellings(record: object) -> None:
    born = dt.date.fromisoformat(record["incorporated_at"])
    eve = born - dt.timedelta(days=1)
    for day in (born, eve):
        german = f"{day.day:02d}.{day.month:02d}.{day.year}"
        assert record.as_of(german).existed == record.as_of(day.isoformat()).existed == (day == born)


def test_every_company_of_the_world_exists_from_its_incorporation_day_written_in_german(world_companies) -> None:
    """The invariant over the companies whose incorporation day could be misread as a month (day <= 12)."""
    ambiguous = [c for c in world_companies if int(c["incorporated_at"][8:10]) <= 12][:300]
    assert ambiguous
    for company in ambiguous:
        born = dt.date.fromisoformat(company["incorporated_at"])
        eve = born - dt.timedelta(days=1)
        assert as_of(company, born.strftime("%d.%m.%Y")).existed, company["id"]
        assert not as_of(company, eve.strftime("%d.%m.%Y")).existed, company["id"]


def test_representatives_active_on_reads_german_dates(world_companies) -> None:
    company = next(c for c in world_companies if len(c["representation"]) > 2)
    german = representatives(company, active_on="01.02.2015")
    pd.testing.assert_frame_equal(german, representatives(company, active_on="2015-02-01"))
    with pytest.raises(ValidationError, match=r"^active_on '2015-02-30' is not a date"):
        representatives(company, active_on="2015-02-30")
