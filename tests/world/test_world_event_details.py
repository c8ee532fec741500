"""Insolvency event details in the bundled world are published text, in the forms announcements use.

filled-gaps.md ("Insolvency event history"): an event's ``details`` amounts (``distribution_available``,
``distribution_claims_total``) and dates (``claims_filing_deadline``, ``closed_at``) are nullable *strings* in
no fixed format; the local register serves several forms so a client's tolerant parser meets every path, the
null path included. At the proceeding level the same members stay a number (euros) and ISO dates.

The forms and how to read them are written out here, independently of the generator.
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import date

import pytest

GERMAN = r"\d{1,3}(?:\.\d{3})*,\d{2}"
#: Each amount form the world must contain, with a pattern whose group is the number.
AMOUNT_FORMS = {
    "14.102,57 €": rf"({GERMAN}) €",
    "14.102,57 EUR": rf"({GERMAN}) EUR",
    "EUR 14.102,57": rf"EUR ({GERMAN})",
    "14.102,57": rf"({GERMAN})",
    "14102.57": r"(\d+\.\d{2})",
    "14102,57 Euro": r"(\d+,\d{2}) Euro",
}
DATE_FORMS = {"2024-03-31": r"(\d{4})-(\d{2})-(\d{2})", "31.03.2024": r"(\d{2})\.(\d{2})\.(\d{4})"}
AMOUNTS = ("distribution_available", "distribution_claims_total")
DATES = ("claims_filing_deadline", "closed_at")


def amount_form(text: str) -> tuple[str, float] | None:
    """``(form, euros)`` of a published amount, or ``None`` when the text states no amount."""
    for form, pattern in AMOUNT_FORMS.items():
        match = re.fullmatch(pattern, text)
        if match:
            number = match.group(1)
            if "," in number:
                number = number.replace(".", "").replace(",", ".")
            return form, float(number)
    return None


def date_form(text: str) -> tuple[str, str] | None:
    """``(form, ISO date)`` of a published date, or ``None`` when the text states no date."""
    for form, pattern in DATE_FORMS.items():
        match = re.fullmatch(pattern, text)
        if match:
            parts = match.groups()
            year, month, day = parts if form == "2024-03-31" else parts[::-1]
            return form, date(int(year), int(month), int(day)).isoformat()
    return None


@pytest.fixture(scope="module")
def published(world):
    """``(member, text, proceeding, event)`` for every non-null amount or date in the world's event details."""
    found = []
    for proceeding in world.insolvencies.values():
        for event in proceeding["events"]:
            for member in AMOUNTS + DATES:
                value = event["details"][member]
                if value is not None:
                    found.append((member, value, proceeding, event))
    return found


def test_details_amounts_and_dates_are_strings_never_numbers(world, published):
    assert all(isinstance(text, str) for _, text, _, _ in published)
    members = Counter(member for member, *_ in published)
    assert set(members) == set(AMOUNTS + DATES) and min(members.values()) >= 100
    for proceeding in world.insolvencies.values():
        for event in proceeding["events"]:
            details = event["details"]
            assert isinstance(details["insolvency_grounds"], list) and isinstance(details["meetings"], list)
            assert details["discharge_granted"] in (None, True, False)


def test_every_published_form_appears_and_a_few_state_nothing(published):
    amounts = [amount_form(text) for member, text, *_ in published if member in AMOUNTS]
    dates = [date_form(text) for member, text, *_ in published if member in DATES]
    amount_forms = Counter(found[0] if found else None for found in amounts)
    date_forms = Counter(found[0] if found else None for found in dates)
    assert set(amount_forms) == {*AMOUNT_FORMS, None}, amount_forms
    assert set(date_forms) == {*DATE_FORMS, None}, date_forms
    # German forms dominate, as in the announcements; unparseable wordings are the exception
    german = sum(n for form, n in amount_forms.items() if form and form != "14102.57")
    assert german > len(amounts) / 2 and date_forms["31.03.2024"] > date_forms["2024-03-31"]
    assert 0 < amount_forms[None] < len(amounts) * 0.1 and 0 < date_forms[None] < len(dates) * 0.1


def test_unparseable_texts_are_words_without_a_number(published):
    unreadable = {
        text for member, text, *_ in published if (amount_form(text) if member in AMOUNTS else date_form(text)) is None
    }
    assert unreadable and all(not re.search(r"\d", text) and text.strip() == text for text in unreadable)


def test_published_text_states_the_proceedings_typed_values(published):
    for member, text, proceeding, event in published:
        if member in AMOUNTS:
            found = amount_form(text)
            if found:
                assert found[1] == pytest.approx(proceeding[member], abs=0.005), (proceeding["id"], text)
        else:
            found = date_form(text)
            # a deadline is the proceeding's; a closing date is the day of the decision that closed it
            expected = event["decision_date"] if member == "closed_at" else proceeding["claims_filing_deadline"]
            if found:
                assert found[1] == expected, (proceeding["id"], member, text)


def test_proceeding_level_members_stay_typed(world):
    for proceeding in world.insolvencies.values():
        for member in AMOUNTS:
            value = proceeding[member]
            assert value is None or (isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0)
        for member in DATES + ("opened_at", "first_event_at", "last_event_at"):
            value = proceeding[member]
            assert value is None or date.fromisoformat(value).isoformat() == value
    assert any(p["distribution_available"] for p in world.insolvencies.values())


def test_event_details_of_both_members_of_an_announcement_share_a_style(published):
    styles: dict[str, set[str]] = {}
    for member, text, _, event in published:
        found = amount_form(text) if member in AMOUNTS else None
        if found:
            styles.setdefault(event["id"], set()).add(found[0])
    assert styles and all(len(found) == 1 for found in styles.values())
