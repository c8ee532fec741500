"""``regkit.parse_company_id``: what people write about a register entry → the interface's company id, offline."""

from __future__ import annotations

import csv
import socket
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import regkit
from regkit.client import ValidationError, parse_company_id
from regkit.local.world import read_world
from regkit.local.world.store import default_reference_dir
from regkit.schema.interface import COMPANY_ID_PATTERN


def _code_in_csv(file: str, name: str) -> str:
    """The five-character court code ``file`` gives for ``name`` (the expectation, read from the data itself)."""
    with (default_reference_dir() / file).open(encoding="utf-8", newline="") as handle:
        codes = {row["code"][:5] for row in csv.DictReader(handle) if row["name"] == name}
    assert len(codes) == 1, (file, name, codes)
    return codes.pop()


DARMSTADT = _code_in_csv("register_courts_observed.csv", "Darmstadt")
CHARLOTTENBURG = _code_in_csv("register_courts_observed.csv", "Berlin (Charlottenburg)")


def test_the_codes_agree_between_the_court_lists() -> None:
    assert DARMSTADT == _code_in_csv("registergerichte_xunternehmen_v12.csv", "Amtsgericht Darmstadt")
    assert CHARLOTTENBURG == _code_in_csv("registergerichte_xunternehmen_v12.csv", "Amtsgericht Charlottenburg")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("HRB 152955 Darmstadt", f"DE-HRB-{DARMSTADT}-152955"),
        ("Amtsgericht Berlin (Charlottenburg) HRB 270764 B", f"DE-HRB-{CHARLOTTENBURG}-270764B"),
        ("Darmstadt HRB 152955", f"DE-HRB-{DARMSTADT}-152955"),
        ("HRB 152955, Amtsgericht Darmstadt", f"DE-HRB-{DARMSTADT}-152955"),
        ("HRB 152955 AG Darmstadt", f"DE-HRB-{DARMSTADT}-152955"),
        ("hrb 152955 amtsgericht darmstadt", f"DE-HRB-{DARMSTADT}-152955"),
        ("HRB 270764 B Charlottenburg", f"DE-HRB-{CHARLOTTENBURG}-270764B"),
        ("HRB 270764B, AG Berlin-Charlottenburg", f"DE-HRB-{CHARLOTTENBURG}-270764B"),
        ("GenR 12 Darmstadt", f"DE-GnR-{DARMSTADT}-12"),
    ],
)
def test_what_people_write(text: str, expected: str) -> None:
    assert parse_company_id(text) == expected
    assert regkit.parse_company_id(text) == expected


def _world_samples() -> list[tuple[str, dict[str, Any]]]:
    """About ten bundled-world companies: every 10th court's first company, plus courts that are harder to name.

    Charlottenburg ("270764 B": a suffix, and "Berlin (Charlottenburg)" in the court list), Flensburg ("FL"),
    München (an umlaut) and Weiden i.d. OPf. (abbreviations).
    """
    first: dict[str, tuple[str, dict[str, Any]]] = {}
    for cid, record in read_world().companies.items():
        first.setdefault(record["register"]["register_court"], (cid, record["register"]))
    courts = sorted(first)
    hard = [
        "Amtsgericht Charlottenburg",
        "Amtsgericht Flensburg",
        "Amtsgericht München",
        "Amtsgericht Weiden i.d. OPf.",
    ]
    picked = {*courts[:: max(1, len(courts) // 10)], *(c for c in hard if c in first)}
    return sorted(first[c] for c in picked)


_SAMPLES = _world_samples()


@pytest.mark.parametrize(("cid", "register"), _SAMPLES, ids=[cid for cid, _ in _SAMPLES])
def test_round_trip_over_bundled_world_companies(cid: str, register: dict[str, Any]) -> None:
    kind, number, court = register["register_type"], register["register_number"], register["register_court"]
    assert parse_company_id(f"{kind} {number} {court}") == cid
    assert parse_company_id(f"{court}, {kind} {number}") == cid
    short = court.removeprefix("Amtsgericht ")
    assert parse_company_id(f"{kind} {number} {short}") == cid


def test_an_ambiguous_court_lists_the_candidates_and_what_to_do() -> None:
    with pytest.raises(ValidationError) as caught:
        parse_company_id("HRB 1 Frankfurt")
    main = _code_in_csv("register_courts_observed.csv", "Frankfurt am Main")
    oder = _code_in_csv("register_courts_observed.csv", "Frankfurt/Oder")
    error = caught.value
    assert "ambiguous" in error.message
    assert main in error.message and "Frankfurt am Main" in error.message
    assert oder in error.message and "Frankfurt/Oder" in error.message
    assert "court=" in error.suggestion and "fuller court name" in error.suggestion
    assert parse_company_id("HRB 1 Frankfurt am Main") == f"DE-HRB-{main}-1"
    assert parse_company_id("HRB 1 Frankfurt (Oder)") == f"DE-HRB-{oder}-1"


def test_an_unknown_court_says_what_to_do() -> None:
    with pytest.raises(ValidationError) as caught:
        parse_company_id("HRB 152955 Atlantis")
    assert "unknown register court" in caught.value.message
    assert "court=" in caught.value.suggestion
    with pytest.raises(ValidationError) as close:
        parse_company_id("HRB 152955 Darmstdt")
    assert DARMSTADT in close.value.suggestion and "Darmstadt" in close.value.suggestion
    with pytest.raises(ValidationError, match="unknown register court code"):
        parse_company_id("HRB 152955", court="Z9999")


def test_court_argument_overrides_or_completes_the_text() -> None:
    assert parse_company_id("HRB 152955", court=DARMSTADT) == f"DE-HRB-{DARMSTADT}-152955"
    assert parse_company_id("HRB 152955", court="Amtsgericht Darmstadt") == f"DE-HRB-{DARMSTADT}-152955"
    assert parse_company_id("HRB 152955 Frankfurt", court=DARMSTADT) == f"DE-HRB-{DARMSTADT}-152955"
    assert (
        parse_company_id("HRB 270764 B Darmstadt", court="Berlin (Charlottenburg)")
        == f"DE-HRB-{CHARLOTTENBURG}-270764B"
    )
    assert parse_company_id("HRB 1", court=CHARLOTTENBURG + "R") == f"DE-HRB-{CHARLOTTENBURG}-1"  # department letter
    with pytest.raises(ValidationError, match="no register court"):
        parse_company_id("HRB 152955")


def test_a_well_formed_id_comes_back_stripped() -> None:
    assert parse_company_id("  DE-HRB-F1103-270764B\n") == "DE-HRB-F1103-270764B"
    assert parse_company_id("DE-GnR-X1112-31117FL") == "DE-GnR-X1112-31117FL"
    assert parse_company_id("DE-HRB-F1103-270764B", court=DARMSTADT) == f"DE-HRB-{DARMSTADT}-270764B"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "no register type and number"),
        ("Darmstadt", "no register type and number"),
        ("152955 Darmstadt", "no register type before the number"),
        ("GsR 152955 Darmstadt", "unknown register type 'GsR'"),
        ("HRB Darmstadt", "no register type and number"),
    ],
)
def test_garbage_is_a_validation_error_with_a_suggestion(text: str, words: str) -> None:
    with pytest.raises(ValidationError) as caught:
        parse_company_id(text)
    assert words in caught.value.message
    assert caught.value.suggestion and "nothing was sent" in caught.value.suggestion


def test_not_a_string_is_a_validation_error() -> None:
    with pytest.raises(ValidationError, match="must be a str"):
        parse_company_id(152955)  # type: ignore[arg-type]


@given(st.text(max_size=60), st.one_of(st.none(), st.text(max_size=20)))
def test_any_text_gives_a_well_formed_id_or_a_validation_error(text: str, court: str | None) -> None:
    try:
        result = parse_company_id(text, court=court)
    except ValidationError as error:
        assert error.suggestion
    else:
        assert COMPANY_ID_PATTERN.fullmatch(result)


def test_nothing_is_sent_and_no_client_is_needed(monkeypatch: pytest.MonkeyPatch) -> None:
    client = regkit.Client()

    def no_network(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("company_id opened a network connection")

    monkeypatch.setattr(socket, "socket", no_network)
    monkeypatch.setattr(socket, "create_connection", no_network)
    assert parse_company_id("HRB 152955 Darmstadt") == f"DE-HRB-{DARMSTADT}-152955"
    assert client.credits_spent == 0
    assert len(client.ledger) == 0
