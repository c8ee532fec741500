"""One name per concept: the renamed functions, and the old names that warn at the caller's line."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import regkit
import regkit.client
from regkit.client import company_ids, policy, validation
from regkit.errors import ValidationError

COMPANY = {"id": "DE-HRB-B8534-82057", "registers": [{"company_id": "DE-HRB-F1103-1"}]}


def _caught(call: Callable[[], Any]) -> tuple[Any, warnings.WarningMessage]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = call()
    [warning] = [w for w in caught if issubclass(w.category, DeprecationWarning)]
    return value, warning


@pytest.mark.parametrize(
    ("old", "new", "args"),
    [
        (company_ids.company_id, company_ids.parse_company_id, ("HRB 152955 Darmstadt",)),
        (validation.company_id, validation.validate_company_id, (" DE-HRB-R3101-94644 ",)),
        (policy.company_ids, policy.record_company_ids, (COMPANY,)),
    ],
    ids=["parse_company_id", "validate_company_id", "record_company_ids"],
)
def test_an_old_name_warns_at_the_callers_line_and_answers_as_the_new(
    old: Callable[..., Any], new: Callable[..., Any], args: tuple[Any, ...]
) -> None:
    line = _line() + 1
    value, warning = _caught(lambda: old(*args))  # the caller's line is this one
    assert value == new(*args)
    assert (Path(warning.filename), warning.lineno) == (Path(__file__), line)
    assert new.__name__ in str(warning.message)


def test_the_top_level_old_name_is_the_shim_and_warns_at_the_callers_line() -> None:
    assert regkit.company_id is regkit.client.company_id is company_ids.company_id
    assert regkit.parse_company_id is regkit.client.parse_company_id is company_ids.parse_company_id
    with pytest.warns(DeprecationWarning, match="parse_company_id") as caught:
        line = _line() + 1
        assert regkit.company_id("HRB 152955 Darmstadt") == "DE-HRB-M1103-152955"
    assert (Path(caught[0].filename), caught[0].lineno) == (Path(__file__), line)


def test_the_new_names_do_not_warn() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert regkit.parse_company_id("HRB 152955", court="M1103") == "DE-HRB-M1103-152955"
        assert validation.validate_company_id("DE-HRB-R3101-94644") == "DE-HRB-R3101-94644"
        assert policy.record_company_ids(COMPANY) == {"DE-HRB-B8534-82057", "DE-HRB-F1103-1"}


def test_the_old_names_still_raise_what_the_new_ones_raise() -> None:
    with pytest.warns(DeprecationWarning), pytest.raises(ValidationError):
        validation.company_id("de-hrb-r3101-94644")


def test_court_lists_come_from_the_schema_not_from_the_world_generator() -> None:
    from regkit.schema import courts

    table = courts.courts()
    assert table.by_code["F1103"].town == "Berlin (Charlottenburg)"
    assert courts.reference_dir().joinpath("register_courts_observed.csv").is_file()
    source = Path(company_ids.__file__).read_text(encoding="utf-8")
    assert "regkit.local" not in source and "..local" not in source


def _line() -> int:
    import sys

    return sys._getframe(1).f_lineno


def test_the_former_bulk_functions_warn_at_the_callers_line_and_ask_the_client(tmp_path: Path) -> None:
    from regkit.client import bulk

    with regkit.Client(cache=tmp_path / "c.sqlite") as client:
        company_id = client.search_companies("GmbH", per_page=1).results[0]["company_id"]
        line = _line() + 1
        estimate, warning = _caught(lambda: bulk.estimate_cost(client, [company_id]))
        assert (Path(warning.filename), warning.lineno) == (Path(__file__), line)
        assert estimate == client.estimate_cost([company_id])
        line = _line() + 1
        batch, warning = _caught(lambda: bulk.get_companies(client, [company_id], progress=False))
        assert (Path(warning.filename), warning.lineno) == (Path(__file__), line)
        assert batch.records[0]["id"] == company_id
