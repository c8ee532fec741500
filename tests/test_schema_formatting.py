"""The display formatters every table, card and summary uses (regkit.schema.formatting)."""

from __future__ import annotations

import datetime as dt
import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from regkit.schema import (
    count_text,
    credits_text,
    date_text,
    euro_text,
    more_text,
    number_text,
    percent_text,
    plural,
    value_text,
)
from regkit.schema.formatting import MISSING, is_missing

MISSING_VALUES = [None, float("nan"), np.nan, pd.NA, pd.NaT, np.datetime64("NaT")]


@pytest.mark.parametrize("value", MISSING_VALUES)
def test_every_missing_value_shows_as_a_dash(value: object) -> None:
    for text in (count_text(value), euro_text(value), percent_text(value), date_text(value), value_text(value)):
        assert text == MISSING == "–"


def test_money_reads_as_a_reader_writes_it() -> None:
    assert euro_text(25_000) == "€25,000"
    assert euro_text(1_234_567.49) == "€1,234,567"
    assert euro_text(-3_500_000) == "-€3,500,000"
    assert euro_text(25_600.5, 2) == "€25,600.5"
    assert euro_text(25_600.25, 2) == "€25,600.25"
    assert euro_text(0.4) == "€0"  # never "-€0"
    assert euro_text(-0.4) == "€0"
    assert euro_text(math.inf) == MISSING


def test_counts_shares_credits_and_dates() -> None:
    assert (count_text(0), count_text(999), count_text(1000), count_text(np.int64(2_500_000))) == (
        "0",
        "999",
        "1,000",
        "2,500,000",
    )
    assert (percent_text(1), percent_text(0.125), percent_text(0.00004), percent_text(2 / 3, 1)) == (
        "100 %",
        "12.5 %",
        "0 %",
        "66.7 %",
    )
    assert credits_text(0) == "0 credits" and credits_text(0, cached=True) == "0 credits, cached"
    assert credits_text(1) == "1 credit" and credits_text(20_000) == "20,000 credits"
    assert (plural(1, "person", "people"), plural(2, "person", "people"), plural(0, "role"), plural(1, "role")) == (
        "1 person",
        "2 people",
        "0 roles",
        "1 role",
    )
    assert plural(12_345, "company", "companies") == "12,345 companies"
    assert more_text(1_500) == "… and 1,500 more" and more_text(3, "batch.errors") == "… and 3 more (batch.errors)"
    assert date_text(pd.Timestamp("2014-12-31")) == "2014-12-31"
    assert date_text(dt.datetime(2024, 3, 1, 9, 30, tzinfo=dt.timezone.utc)) == "2024-03-01 09:30"


def test_cells_of_any_type() -> None:
    assert value_text(np.bool_(False)) == "no" and value_text(True) == "yes"
    assert value_text(np.float64(3.14159)) == "3.14" and value_text(7) == "7"
    assert (
        value_text(np.int32(-4200)) == "-4,200"
        and value_text(np.uint8(7)) == "7"
        and value_text(np.float32(0.5)) == "0.5"
    )
    assert value_text(["Prokura", None]) == "Prokura, –"
    assert value_text("HRB 12345") == "HRB 12345"
    assert number_text(1234.5, 1) == "1,234.5" and number_text(1234.5) == "1,234"  # half to even
    assert not is_missing(np.array([1.0, np.nan]))  # an array is a value


@given(st.integers(min_value=-(10**15), max_value=10**15))
def test_grouped_digits_read_back_as_the_number(n: int) -> None:
    text = count_text(n)
    assert int(text.replace(",", "")) == n
    groups = text.lstrip("-").split(",")
    assert all(len(g) == 3 for g in groups[1:]) and 1 <= len(groups[0]) <= 3


@given(st.floats(min_value=-1e12, max_value=1e12, allow_nan=False))
def test_money_rounds_to_the_nearest_euro(x: float) -> None:
    text = euro_text(x)
    sign, number = ("-", text[2:]) if text.startswith("-€") else ("", text.removeprefix("€"))
    assert text.startswith(("€", "-€")) and number[:1].isdigit()
    assert abs(float(sign + number.replace(",", "")) - x) <= 0.5 + 1e-6 * abs(x)
