"""Lines that would share a company id: registers a court took over ("Darmstadt früher Dieburg GnR 101") get the
id of the court that issued the number; lines that still share an id are merged (the same company) or kept apart
(different companies); no line is lost. Fixtures follow the real records the issue quotes (three cooperatives
of the Darmstadt register, number 101, issued by Dieburg, Lampertheim and Fürth in Hesse) and the one
"früher" record of the shared chunk 1 (Aurich früher Emden)."""

from __future__ import annotations

import doctest
import json
from pathlib import Path
from typing import Any

import pytest
from offeneregister_support import run_import, sample_records, write_lines

import regkit
from regkit.errors import RegkitError
from regkit.local import open_local_register
from regkit.local.world import read_world
from regkit.local.world.offeneregister import collisions, import_offeneregister, mapping
from regkit.schema import courts as court_lists

#: The real record of chunk 1 (line 127,772 of the OffeneRegister file; CC BY 4.0, OffeneRegister / OKF DE).
AURICH_FRUEHER_EMDEN = {
    "all_attributes": {
        "_registerArt": "HRB",
        "_registerNummer": "100741",
        "federal_state": "Lower Saxony",
        "former_registrar": "Emden",
        "native_company_number": "Aurich früher Emden HRB 100741",
        "registered_office": "Emden",
        "registrar": "Aurich",
    },
    "company_number": "P3101_P3102_HRB100741",
    "current_status": "currently registered",
    "jurisdiction_code": "de",
    "name": "ATA Verwaltungs-GmbH",
    "retrieved_at": "2018-06-28T19:01:36Z",
}


def _cooperative(name: str, company_number: str, native: str, **attributes: Any) -> dict[str, Any]:
    """A cooperative of the Darmstadt register as the file writes it (no ``former_registrar``: the "früher" is
    only in ``native_company_number``, as in the issue's records)."""
    return {
        "all_attributes": {
            "_registerArt": "GnR",
            "_registerNummer": "101",
            "federal_state": "Hesse",
            "native_company_number": native,
            "registered_office": name.split()[-2] if len(name.split()) > 2 else "Darmstadt",
            "registrar": "Darmstadt",
            **attributes,
        },
        "company_number": company_number,
        "current_status": "currently registered",
        "jurisdiction_code": "de",
        "name": name,
        "retrieved_at": "2018-07-01T10:00:00Z",
    }


DIEBURG = _cooperative("Vereinigte Volksbank e.G.", "M1103_M1104_GnR101", "Darmstadt früher Dieburg GnR 101")
LAMPERTHEIM = _cooperative("Vereinsbank Viernheim eG", "M1103_M1111_GnR101", "Darmstadt früher Lampertheim GnR 101")
FUERTH = _cooperative("Raiffeisenbank Fürth eG", "M1103_D3304V_GnR101", "Darmstadt früher Fürth GnR 101")
DARMSTADT = _cooperative("Spar- und Bauverein Darmstadt eG", "M1103_GnR101", "Darmstadt GnR 101")


def _line(record: dict[str, Any]) -> bytes:
    return json.dumps(record, ensure_ascii=False).encode()


def _copy(record: dict[str, Any], **changes: Any) -> dict[str, Any]:
    copy = json.loads(json.dumps(record))
    copy.update(changes)
    return copy


def _report(world: Path) -> dict[str, Any]:
    return json.loads((world / "import-report.json").read_text(encoding="utf-8"))


def test_a_register_a_court_took_over_has_the_id_of_the_court_that_issued_its_number(tmp_path) -> None:
    lines = [_line(r) for r in (DIEBURG, LAMPERTHEIM, FUERTH, DARMSTADT, AURICH_FRUEHER_EMDEN)]
    imported = import_offeneregister(write_lines(tmp_path / "src.jsonl", lines, compress=False), tmp_path / "w")
    companies = read_world(imported.directory).companies
    by_name = {c["name"]["name"]: c for c in companies.values()}
    assert {name: c["id"] for name, c in by_name.items()} == {
        "Vereinigte Volksbank e.G.": "DE-GnR-M1104-101",  # Amtsgericht Dieburg
        "Vereinsbank Viernheim eG": "DE-GnR-M1111-101",  # Amtsgericht Lampertheim
        "Raiffeisenbank Fürth eG": "DE-GnR-M1105-101",  # Amtsgericht Fürth (Hessen), not Fürth in Bavaria
        "Spar- und Bauverein Darmstadt eG": "DE-GnR-M1103-101",
        "ATA Verwaltungs-GmbH": "DE-HRB-P3102-100741",  # Amtsgericht Emden
    }
    # the register is kept where it is kept now
    assert {c["register"]["register_court"] for c in companies.values() if c["id"].startswith("DE-GnR")} == {
        "Amtsgericht Darmstadt"
    }
    assert all(c["register"]["company_id"] == c["id"] for c in companies.values())
    report = _report(imported.directory)
    assert report["imported"] == report["lines"] == 5
    # company_number's second code disagrees for Fürth (D3304V is Fürth in Bavaria): counted, the name decides
    assert report["warnings"]["issuing_court_mismatch"] == 1
    assert "D3304V" in report["samples"]["issuing_court_mismatch"][0]["detail"]
    assert report["merged"]["lines"] == report["kept_apart"]["lines"] == 0


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Darmstadt früher Dieburg GnR 101", "DE-GnR-M1104-101"),
        ("Darmstadt früher Lampertheim GnR 101", "DE-GnR-M1111-101"),
        ("Amtsgericht Darmstadt früher Fürth GnR 101", "DE-GnR-M1105-101"),
        ("Aurich früher Emden HRB 100741", "DE-HRB-P3102-100741"),
        ("GnR 101 Darmstadt", "DE-GnR-M1103-101"),
    ],
)
def test_parse_company_id_reads_what_the_register_writes_by_the_same_rule(text, expected) -> None:
    assert regkit.parse_company_id(text) == expected


def test_parse_company_id_names_a_former_court_it_does_not_know() -> None:
    with pytest.raises(regkit.ValidationError, match="no court 'Nirgendwo' in Hesse") as caught:
        regkit.parse_company_id("Darmstadt früher Nirgendwo GnR 101")
    assert "court=" in caught.value.suggestion


def test_former_courts_are_looked_up_in_their_state() -> None:
    table = court_lists.courts()
    assert table.issuing_court("Fürth", "M") == "M1105"
    assert table.issuing_court("Fürth", "D") == "D3304"
    assert table.issuing_court("Emden", "P") == "P3102"
    assert table.issuing_court("Dieburg", "D") is None  # no Dieburg in Bavaria
    assert court_lists.state_letter("Hesse") == court_lists.state_letter("Hessen") == "M"


def test_without_a_court_of_the_lists_the_code_of_company_number_of_that_state_is_used(tmp_path) -> None:
    unknown = _cooperative("Genossenschaft Nirgendwo eG", "M1103_M1104_GnR7", "Darmstadt früher Nirgendwo GnR 7")
    unknown["all_attributes"]["_registerNummer"] = "7"
    foreign = _copy(unknown, name="Zweite Genossenschaft Nirgendwo eG", company_number="M1103_D3304V_GnR8")
    foreign["all_attributes"] = {**unknown["all_attributes"], "_registerNummer": "8"}
    source = write_lines(tmp_path / "src.jsonl", [_line(unknown), _line(foreign)], compress=False)
    imported = import_offeneregister(source, tmp_path / "w")
    ids = sorted(read_world(imported.directory).companies)
    # M1104 is a court of Hesse: used; D3304V is not: the current court's code
    assert ids == ["DE-GnR-M1103-8", "DE-GnR-M1104-7"]
    warnings = _report(imported.directory)["warnings"]
    assert warnings["issuing_court_from_company_number"] == 1 and warnings["issuing_court_unknown"] == 1


def test_the_same_company_twice_is_merged_with_the_names_and_officers_of_both(tmp_path) -> None:
    records = sample_records()
    first = next(r for r in records if len(r.get("officers") or ()) >= 2 and not r.get("previous_names"))
    second = _copy(first, name=first["name"] + " Neu", previous_names=[{"company_name": first["name"]}])
    second["officers"] = [
        {
            "name": "Erika Mustermann",
            "position": "Prokurist",
            "start_date": "1990-02-01",
            "other_attributes": {"firstname": "Erika", "lastname": "Mustermann", "city": "Köln"},
            "type": "person",
        },
        {"name": "Ohne Datum", "position": "Geschäftsführer", "other_attributes": {"city": "Bonn"}, "type": "person"},
    ]
    undated = {
        "name": "Ohne Datum",
        "position": "Geschäftsführer",
        "other_attributes": {"city": "Bonn"},
        "type": "person",
    }
    other = records[0] if records[0] is not first else records[1]
    first = _copy(first, officers=[*first["officers"], undated])  # in both lines, each with its own derived start
    lines = [_line(first), _line(other), _line(second)]
    imported = import_offeneregister(write_lines(tmp_path / "src.jsonl", lines, compress=False), tmp_path / "w")
    world = read_world(imported.directory)
    assert len(world.companies) == 2
    # the renamed line (it lists the first one's name as former) is the newer: the company's record
    merged = next(c for c in world.companies.values() if c["name"]["name"] == first["name"] + " Neu")
    names = [n["name"] for n in merged["names"]]
    assert names == [first["name"], first["name"] + " Neu"]
    officers = {e["name"] for e in merged["representation"]}
    assert {o["name"] for o in first["officers"]} | {"Erika Mustermann", "Ohne Datum"} <= officers
    assert merged["incorporated_at"] == "1990-02-01"  # the earliest date of both lines
    assert all(n["start_date"] == "1990-02-01" for n in merged["names"])
    assert [e["name"] for e in merged["representation"]].count("Ohne Datum") == 1  # one officer, not two
    undated = next(e for e in merged["representation"] if e["name"] == "Ohne Datum")
    assert undated["start_date"] == "1990-02-01"
    derived = collisions_derived(imported.directory)[merged["id"]]
    index = merged["representation"].index(undated)
    assert f"representation[{index}].start_date" in derived  # the mark moved with its officer
    erika = merged["representation"].index(next(e for e in merged["representation"] if e["name"] == "Erika Mustermann"))
    assert f"representation[{erika}].start_date" not in derived
    report = _report(imported.directory)
    assert report["merged"] == {"lines": 1, "listed": [{"line": 3, "id": merged["id"], "into_line": 1}]}
    assert report["imported"] + report["merged"]["lines"] + sum(report["skipped"].values()) == report["lines"]


def collisions_derived(world: Path) -> dict[str, list[str]]:
    import gzip

    with gzip.open(world / "derived.jsonl.gz", "rt", encoding="utf-8") as handle:
        return {entry["id"]: entry["derived"] for entry in map(json.loads, handle)}


def test_different_companies_of_one_id_are_kept_apart_and_linked_by_their_new_id(tmp_path) -> None:
    records = sample_records()
    first = records[10]
    other = _copy(first, name="Ganz Andere Handels GmbH", previous_names=[], officers=[])
    other["all_attributes"] = {**first["all_attributes"], "registered_office": "Kleinstadt"}
    holder = _copy(
        records[11],
        officers=[{"name": "Ganz Andere Handels GmbH, Kleinstadt", "type": "company", "position": "Geschäftsführer"}],
    )
    lines = [_line(first), _line(holder), _line(other)]
    source = write_lines(tmp_path / "src.jsonl", lines, compress=False)
    imported = import_offeneregister(source, tmp_path / "w", workers=2)
    world = read_world(imported.directory)
    shared = next(c["id"] for c in world.companies.values() if c["name"]["name"] == first["name"])
    apart = next(c for c in world.companies.values() if c["name"]["name"] == "Ganz Andere Handels GmbH")
    assert apart["id"] == shared.rstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ") + "ZA"
    assert apart["register"]["register_number"] == first["all_attributes"]["_registerNummer"]  # the register's
    linked = next(c for c in world.companies.values() if c["name"]["name"] == records[11]["name"])
    assert linked["representation"][-1]["id"] == apart["id"]  # the company officer found its company
    report = _report(imported.directory)
    assert report["kept_apart"]["listed"] == [
        {"line": 3, "id": apart["id"], "shares": shared, "first_line": 1, "name": "Ganz Andere Handels GmbH"}
    ]
    assert report["imported"] == 3
    # the store indexes both, as a store built from the files does
    register = open_local_register(data_dir=imported.directory, state_path=tmp_path / "state.sqlite")
    client = regkit.Client(cache=tmp_path / "cache.sqlite", adapter=register.adapter, quiet=True)
    try:
        found = client.search_companies("Ganz Andere Handels").to_dataframe()
        assert list(found["company_id"]) == [apart["id"]]
        both = client.search_companies(first["all_attributes"]["_registerNummer"]).to_dataframe()
        assert {shared, apart["id"]} <= set(both["company_id"])  # a search by the register's number finds both
    finally:
        client.close()
        register.close()


@pytest.mark.slow
@pytest.mark.parametrize("workers", [0, 2])
def test_repeated_lines_lose_nothing(tmp_path, workers) -> None:
    """The collision recipe of the issue on the sample: its first 2,000 lines, then its first 1,000 again."""
    lines = [_line(r) for r in sample_records()]
    source = write_lines(tmp_path / "src.jsonl", lines[:2000] + lines[:1000], compress=False)
    imported = import_offeneregister(source, tmp_path / "w", workers=workers)
    report = _report(imported.directory)
    skipped = sum(report["skipped"].values())
    assert report["merged"]["lines"] >= 990  # every repeated line that has a register number
    assert report["imported"] + report["merged"]["lines"] + skipped == report["lines"] == 3000
    once = import_offeneregister(write_lines(tmp_path / "once.jsonl", lines[:2000], compress=False), tmp_path / "o")
    assert read_world(imported.directory).companies == read_world(once.directory).companies


@pytest.mark.slow
def test_a_file_that_is_not_offeneregister_fails_and_leaves_nothing(tmp_path) -> None:
    text = tmp_path / "hostname"
    text.write_text("buildhost\n")
    done = run_import(str(text), "--out", str(tmp_path / "world"))
    assert done.returncode == 1, done.stderr
    assert "holds no OffeneRegister record" in done.stderr and "1 not_json" in done.stderr
    assert "offeneregister.de" in done.stderr
    assert not (tmp_path / "world").exists() and not list(tmp_path.glob("world.partial-*"))
    objects = write_lines(tmp_path / "objects.jsonl", [b"{}", b'{"name": "x"}'], compress=False)
    with pytest.raises(RegkitError, match="2 not_a_record"):
        import_offeneregister(objects, tmp_path / "world")
    assert not (tmp_path / "world").exists()


def test_doctests_of_the_rules() -> None:
    for module in (collisions, mapping, court_lists):
        assert doctest.testmod(module).failed == 0, module.__name__


def _record(name: str, number: str, retrieved: str, **extra: Any) -> dict[str, Any]:
    """A record of the Darmstadt register (HRB) as the file writes it."""
    attributes = {"_registerArt": "HRB", "_registerNummer": number, "registrar": "Darmstadt", "federal_state": "Hesse"}
    attributes.update(extra.pop("attributes", {}))
    return {
        "all_attributes": attributes,
        "company_number": f"M1103_HRB{number}",
        "current_status": extra.pop("status", "currently registered"),
        "name": name,
        "retrieved_at": f"{retrieved}T10:00:00Z",
        **extra,
    }


def _import(tmp_path: Path, records: list[dict[str, Any]], name: str = "w") -> dict[str, Any]:
    source = write_lines(tmp_path / f"{name}.jsonl", [_line(r) for r in records], compress=False)
    imported = import_offeneregister(source, tmp_path / name, workers=0)
    return read_world(imported.directory).companies


def test_companies_kept_apart_in_two_groups_get_ids_of_their_own(tmp_path) -> None:
    """HRB 53 and HRB 53 EC both keep a company apart: not both as …-53ZA (the import ended in an error)."""
    records = [
        _record("Alpha GmbH", "53", "2018-01-01"),
        _record("Beta GmbH", "53", "2018-01-01"),
        _record("Gamma GmbH", "53", "2018-01-01", attributes={"_registerNummerSuffix": "EC"}),
        _record("Delta GmbH", "53", "2018-01-01", attributes={"_registerNummerSuffix": "EC"}),
    ]
    companies = _import(tmp_path, records)
    ids = {c["name"]["name"]: c["id"] for c in companies.values()}
    assert len(ids) == 4 and len(set(ids.values())) == 4
    assert ids["Alpha GmbH"] == "DE-HRB-M1103-53" and ids["Gamma GmbH"] == "DE-HRB-M1103-53EC"


def test_a_state_that_is_no_text_is_no_state(tmp_path) -> None:
    odd = _record("Alpha eG", "7", "2018-01-01", attributes={"federal_state": 5, "former_registrar": "Dieburg"})
    assert [c["id"] for c in _import(tmp_path, [odd]).values()] == ["DE-HRB-M1104-7"]  # the current court's state


def test_the_newest_line_of_a_company_is_its_record(tmp_path) -> None:
    """A removed old line first, the renamed registered line after: the company is registered, named as now, its
    names in order; a mandate the newer line ends is one mandate, ended."""
    max_open = {
        "name": "Max Muster",
        "position": "Geschäftsführer",
        "start_date": "2010-01-01",
        "other_attributes": {"firstname": "Max", "lastname": "Muster", "city": "Köln"},
        "type": "person",
    }
    max_ended = dict(max_open, end_date="2016-05-01")
    old = _record("Old Name GmbH", "31", "2014-03-01", status="removed", officers=[max_open])
    new = _record(
        "New Name GmbH", "31", "2018-06-01", previous_names=[{"company_name": "Old Name GmbH"}], officers=[max_ended]
    )
    for order in ([old, new], [new, old]):
        [company] = _import(tmp_path, order, name=f"w{order[0]['name'][:3]}").values()
        assert company["name"]["name"] == "New Name GmbH" and company["status"] == "active"
        assert [n["name"] for n in company["names"]] == ["Old Name GmbH", "New Name GmbH"]
        assert [(e["name"], e["start_date"], e["end_date"]) for e in company["representation"]] == [
            ("Max Muster", "2010-01-01", "2016-05-01")
        ]


@pytest.mark.slow
def test_a_chain_of_names_is_one_company_whatever_the_order(tmp_path) -> None:
    alpha = _record("Alpha GmbH", "8", "2016-01-01")
    beta = _record("Beta GmbH", "8", "2017-01-01")
    renamed = _record("Beta GmbH", "8", "2018-01-01", previous_names=[{"company_name": "Alpha GmbH"}])
    for number, order in enumerate(([alpha, beta, renamed], [renamed, alpha, beta], [beta, renamed, alpha])):
        companies = _import(tmp_path, order, name=f"chain{number}")
        assert [c["id"] for c in companies.values()] == ["DE-HRB-M1103-8"]
        assert [n["name"] for n in companies["DE-HRB-M1103-8"]["names"]] == ["Alpha GmbH", "Beta GmbH"]
