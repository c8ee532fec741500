"""A builder given the wrong kind of input (issue 40) raises a regkit ``ArgumentError`` — a ``ValidationError`` and
still the ``TypeError`` it raised before — whose message names the builder and what it was given, and whose
suggestion says which client call gives the right one. The walk of ``tests/test_public_misuse.py`` calls every
builder wrongly; these pin the words."""

from __future__ import annotations

import pandas as pd
import pytest

from regkit.errors import ArgumentError, ValidationError
from regkit.frames import as_of, beneficial_owners, holdings, owners, representatives, share_fraction, shareholder_list

FRAME = pd.DataFrame({"company_id": ["DE-HRB-B1234-1"]})


@pytest.mark.parametrize(
    ("builder", "needs", "fetch"),
    [
        (lambda x: as_of(x, "2024-01-01"), "as_of needs one company record", "client.get_company(company_id)"),
        (beneficial_owners, "beneficial_owners needs an extract", "client.get_extract(extract_id)"),
        (owners, "owners needs an owners answer", "client.get_owners(company_id)"),
        (holdings, "holdings needs a holdings answer", "client.get_person_holdings(person_id)"),
        (shareholder_list, "shareholder_list needs a shareholder list PDF", "client.download("),
    ],
)
def test_a_wrong_kind_names_the_builder_what_was_given_and_the_call(builder, needs, fetch):
    wrongs = [(None, "not None"), (1, "not int 1"), (FRAME, "not a DataFrame")]
    if builder is not shareholder_list:  # a string is its path
        wrongs.append(("DE-HRB-B1234-1", "not the string 'DE-HRB-B1234-1'"))
    for wrong, given in wrongs:
        with pytest.raises(ArgumentError, match=needs) as raised:
            builder(wrong)
        assert isinstance(raised.value, TypeError) and isinstance(raised.value, ValidationError)
        assert given in raised.value.message and fetch in raised.value.suggestion, str(raised.value)


def test_share_fraction_takes_one_number():
    assert share_fraction("5.36", 100) == share_fraction(5.36, 100) == 0.0536
    for wrong, given in (("x", "not 'x'"), (FRAME, "not a DataFrame"), ([5.0], "not a list")):
        with pytest.raises(ArgumentError, match=f"share_fraction needs one share as a number \\(or None\\), {given}"):
            share_fraction(wrong, 100)


def test_representatives_names_the_keyword_it_does_not_take(company):
    with pytest.raises(ArgumentError) as raised:
        representatives(company, person_ciyt=True)
    assert str(raised.value).startswith("representatives() got an unexpected keyword argument 'person_ciyt'")
    assert raised.value.suggestion.startswith("did you mean person_city=?")
    with pytest.raises(ArgumentError, match="unexpected keyword argument 'zzz'") as raised:
        representatives(company, zzz=1)
    assert "representatives(company, active_on=" in raised.value.suggestion
    with pytest.raises(ArgumentError, match="unexpected keyword argument 'as_of'"):
        representatives(company, "2016-12-31", as_of="2016-12-31")
