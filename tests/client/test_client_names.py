"""One name per concept: each function under the name it has, in one place."""

from __future__ import annotations

import warnings
from pathlib import Path

import regkit
import regkit.client
from regkit.client.arguments import company_ids, validation
from regkit.client.cache import policy

COMPANY = {"id": "DE-HRB-B8534-82057", "registers": [{"company_id": "DE-HRB-F1103-1"}]}


def test_the_top_level_name_is_the_clients() -> None:
    assert regkit.parse_company_id is regkit.client.parse_company_id is company_ids.parse_company_id


def test_the_new_names_do_not_warn() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert regkit.parse_company_id("HRB 152955", court="M1103") == "DE-HRB-M1103-152955"
        assert validation.validate_company_id("DE-HRB-R3101-94644") == "DE-HRB-R3101-94644"
        assert policy.record_company_ids(COMPANY) == {"DE-HRB-B8534-82057", "DE-HRB-F1103-1"}


def test_court_lists_come_from_the_schema_not_from_the_world_generator() -> None:
    from regkit.schema import courts

    table = courts.courts()
    assert table.by_code["F1103"].town == "Berlin (Charlottenburg)"
    assert courts.reference_dir().joinpath("register_courts_observed.csv").is_file()
    source = Path(company_ids.__file__).read_text(encoding="utf-8")
    assert "regkit.local" not in source and "..local" not in source
