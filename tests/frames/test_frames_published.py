"""Published text → amounts and dates (``regkit.frames.published``): examples, round trips, never an exception."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from regkit.frames.money import MAX_EXACT_CENTS
from regkit.frames.published import amount_cents, parse_amount, parse_date, parse_datetime, published_text

D = Decimal
UTC = dt.timezone.utc
SETTINGS = settings(max_examples=300, deadline=None)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("14102.57", D("14102.57")),
        ("14.102,57", D("14102.57")),
        ("14,102.57", D("14102.57")),
        ("14 102,57", D("14102.57")),
        ("14\u00a0102,57\u00a0€", D("14102.57")),
        ("14'102.57", D("14102.57")),
        ("EUR 14.102,57", D("14102.57")),
        ("14.102,57 EUR", D("14102.57")),
        ("€14,102.57", D("14102.57")),
        ("14.102,57 Euro", D("14102.57")),
        ("Euro 14.102,57", D("14102.57")),
        ("14.102,57 euros", D("14102.57")),
        ("-14.102,57 €", D("-14102.57")),
        ("EUR -14.102,57", D("-14102.57")),
        ("- EUR 14.102,57", D("-14102.57")),
        ("14.102,57- EUR", D("-14102.57")),
        ("\u221214.102,57", D("-14102.57")),
        ("+14.102,57", D("14102.57")),
        ("1.000", D("1000")),
        ("1,000", D("1000")),
        ("1.000.000", D("1000000")),
        ("1.234.567,8", D("1234567.8")),
        ("1.5", D("1.5")),
        ("1,5", D("1.5")),
        ("1,50", D("1.5")),
        ("0,07", D("0.07")),
        ("12", D("12")),
        ("1.000,- EUR", D("1000")),
        ("1.000,-- €", D("1000")),
        ("500,\u2013", D("500")),
        ("  7 EUR  ", D("7")),
        ("1.000,00", D("1000")),
        ("1,000.00", D("1000")),
        ("-0,00", D("0")),
    ],
)
def test_amounts_as_published(text: str, expected: Decimal) -> None:
    assert parse_amount(text) == expected
    assert amount_cents(text) == int(expected * 100)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "EUR",
        "€ -",
        "vierzehn Euro",
        "ca. 14.000 EUR",
        "14.102,57 EUR (vorläufig)",
        "1.2345",
        "1,234,5",
        "1.23.456",
        "12.34,56",
        "1.000 000",
        ",50",
        ".5",
        "1,5,-",
        "1e5",
        "0x10",
        "EUR 5 €",
        "--5",
        "- 5 -",
        "5 USD",
        "14.102,57 14.102,57",
        "١٢",
        "1" * 65,
        "nan",
        "Infinity",
        "1_000",
    ],
)
def test_what_is_not_an_amount(text: str) -> None:
    assert parse_amount(text) is None and amount_cents(text) is None


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (14102.57, D("14102.57")),
        (100, D("100")),
        (-3, D("-3")),
        (0.1, D("0.1")),
        (D("2.50"), D("2.5")),
        (0.1 + 0.2, None),
        (1.005, None),
        (float("nan"), None),
        (float("inf"), None),
        (True, None),
        (False, None),
        (MAX_EXACT_CENTS // 100, D(MAX_EXACT_CENTS // 100)),
        (MAX_EXACT_CENTS, None),
        (10**400, None),
        (1e300, None),
        (D("NaN"), None),
        (D("sNaN"), None),
        (D("1E+999999"), None),
        ([1], None),
        ({"amount": 1}, None),
        (b"12", None),
    ],
)
def test_numbers_as_older_servers_send_them(value: Any, expected: Decimal | None) -> None:
    assert parse_amount(value) == expected


# -- round trip: a Decimal formatted in every supported form parses back to it -----------------------------
amounts = st.decimals(min_value=-D(MAX_EXACT_CENTS) / 100, max_value=D(MAX_EXACT_CENTS) / 100, places=2)


def grouped(whole: str, sep: str) -> str:
    groups = []
    while len(whole) > 3:
        whole, groups = whole[:-3], [whole[-3:], *groups]
    return sep.join([whole, *groups])


def spellings(amount: Decimal) -> list[str]:
    """The amount written in each supported form (an independent formatter, not the parser's inverse)."""
    whole, _, cents = f"{abs(amount):.2f}".partition(".")
    forms = [
        f"{whole}.{cents}",
        f"{whole},{cents}",
        f"{grouped(whole, '.')},{cents}",
        f"{grouped(whole, ',')}.{cents}",
        f"{grouped(whole, ' ')},{cents}",
        f"{grouped(whole, chr(39))}.{cents}",
    ]
    if cents == "00":
        forms += [whole, grouped(whole, "."), grouped(whole, ","), f"{grouped(whole, '.')},-"]
    elif cents.endswith("0"):
        forms += [f"{whole}.{cents[0]}", f"{grouped(whole, '.')},{cents[0]}"]
    negative = amount < 0
    out = []
    for form in forms:
        for template in ("{}", "{} EUR", "EUR {}", "{} €", "€{}", "{} Euro", "Euro {}"):
            if negative:
                trailing = form + (" -" if form.endswith("-") else "-")  # "1.000,--" is the no-cents mark
                out += [template.format("-" + form), "-" + template.format(form), template.format(trailing)]
            else:
                out += [template.format(form), template.format("+" + form)]
    return out


@SETTINGS
@given(amounts)
@example(D("1000.00"))
@example(D("1.50"))
@example(D("-0.01"))
@example(D(MAX_EXACT_CENTS) / 100)
def test_round_trip_of_every_spelling(amount: Decimal) -> None:
    for text in spellings(amount):
        assert parse_amount(text) == amount, text
        assert amount_cents(text) == int(amount * 100), text


@SETTINGS
@given(st.integers(-(MAX_EXACT_CENTS // 100), MAX_EXACT_CENTS // 100))
def test_integers_and_their_floats(euros: int) -> None:
    assert parse_amount(euros) == euros and parse_amount(str(euros)) == euros
    if abs(euros) < 2**53:
        assert parse_amount(float(euros)) == euros


# -- garbage → null, anything → no exception ---------------------------------------------------------------
anything = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.decimals()
    | st.text()
    | st.binary()
    | st.dates()
    | st.datetimes(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)
amount_like = st.text(alphabet="0123456789.,' -+€EURuro\u2212\u2013\u00a0", max_size=24)


@pytest.mark.slow
@SETTINGS
@given(st.one_of(anything, amount_like, st.text(alphabet=st.characters(), max_size=80)))
@example("1" * 1_000_000)
@example("€" * 100_000)
@example("\ud800")
@example("1.000,\ud800")
def test_never_an_exception(value: Any) -> None:
    amount = parse_amount(value)
    assert amount is None or (amount == amount.quantize(D("0.01")) and abs(amount * 100) <= MAX_EXACT_CENTS)
    assert amount_cents(value) == (None if amount is None else int(amount * 100))
    day = parse_date(value)
    assert day is None or isinstance(day, dt.date)
    at = parse_datetime(value)
    assert at is None or at.tzinfo is UTC
    text = published_text(value)
    assert text is None if value is None else isinstance(text, str)
    if isinstance(value, str):
        assert text is value


@SETTINGS
@given(st.text(alphabet=st.characters(exclude_characters="0123456789"), max_size=40))
def test_text_without_a_digit_is_no_amount_and_no_date(text: str) -> None:
    assert parse_amount(text) is None and parse_date(text) is None and parse_datetime(text) is None


@SETTINGS
@given(amounts, amounts, st.sampled_from([" und ", " bis ", " x ", "; ", " / "]))
def test_two_amounts_are_none(a: Decimal, b: Decimal, between: str) -> None:
    assert parse_amount(f"{a}{between}{b}") is None


@SETTINGS
@given(
    st.integers(0, 10**9),
    st.integers(3, 12).flatmap(lambda n: st.from_regex(rf"\A[0-9]{{{n}}}\Z")),
    st.sampled_from(".,"),
)
def test_more_than_two_decimals_is_no_amount_unless_they_are_thousands(whole: int, fraction: str, sep: str) -> None:
    parsed = parse_amount(f"{whole}{sep}{fraction}")
    thousands = len(fraction) == 3 and whole < 1000  # a group of three after a head of one to three digits
    assert parsed == (D(f"{whole}{fraction}") if thousands else None)


# -- dates --------------------------------------------------------------------------------------------------
MONTHS = [
    "Januar",
    "Februar",
    "März",
    "April",
    "Mai",
    "Juni",
    "Juli",
    "August",
    "September",
    "Oktober",
    "November",
    "Dezember",
]


@SETTINGS
@given(st.dates(dt.date(1000, 1, 1), dt.date(9999, 12, 31)))
def test_dates_round_trip_in_every_form(day: dt.date) -> None:
    forms = [
        day.isoformat(),
        f"{day:%d.%m.%Y}",
        f"{day.day}.{day.month}.{day.year}",
        f"{day.day}. {day.month}. {day.year}",
        f"{day.day}. {MONTHS[day.month - 1]} {day.year}",
        f" {day:%d.%m.%Y} ",
        f"{day.isoformat()}T10:00:00Z",
    ]
    for text in forms:
        assert parse_date(text) == day, text
    assert parse_date(day) == day and parse_date(dt.datetime(day.year, day.month, day.day, 23)) == day


@pytest.mark.parametrize(
    "text",
    [
        "31.02.2024",
        "2024-02-30",
        "00.01.2024",
        "1.13.2024",
        "2024-13-01",
        "24.12.24",
        "bis 24.12.2024",
        "24.12.2024 (Frist)",
        "Dezember 2024",
        "20241224",
        "0000-01-01",
    ],
)
def test_what_is_not_a_date(text: str) -> None:
    assert parse_date(text) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2024-05-02T10:00:00Z", dt.datetime(2024, 5, 2, 10, tzinfo=UTC)),
        ("2024-05-02T10:00:00+02:00", dt.datetime(2024, 5, 2, 8, tzinfo=UTC)),
        ("2024-05-02 10:00", dt.datetime(2024, 5, 2, 10, tzinfo=UTC)),
        ("2024-05-02", dt.datetime(2024, 5, 2, tzinfo=UTC)),
        ("02.05.2024, 10:00 Uhr", dt.datetime(2024, 5, 2, 8, tzinfo=UTC)),  # summer time in Germany: UTC+2
        ("15.01.2024 um 10.30 Uhr", dt.datetime(2024, 1, 15, 9, 30, tzinfo=UTC)),  # winter: UTC+1
        ("15. Januar 2024 10:30", dt.datetime(2024, 1, 15, 9, 30, tzinfo=UTC)),
        ("02.05.2024 25:00", None),
        ("2024-05-02T10:00:00+25:00", None),
        ("nächste Woche", None),
        (None, None),
    ],
)
def test_meeting_times(text: str | None, expected: dt.datetime | None) -> None:
    assert parse_datetime(text) == expected


@SETTINGS
@given(st.datetimes(dt.datetime(1900, 1, 1), dt.datetime(2100, 1, 1)))
def test_german_local_times_are_berlin_time(local: dt.datetime) -> None:
    # fold=0: the written time of the hour that autumn repeats (02:00–03:00) cannot say which of the two it is,
    # and the parser reads the first (summer time); hypothesis also draws naive datetimes with fold=1
    local = local.replace(second=0, microsecond=0, fold=0)
    expected = local.replace(tzinfo=ZoneInfo("Europe/Berlin")).astimezone(UTC)
    assert parse_datetime(f"{local:%d.%m.%Y, %H:%M} Uhr") == expected
    assert parse_datetime(expected.isoformat()) == expected
