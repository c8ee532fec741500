"""The bundled world reads as real: person names as the register writes them, ratios that move year to year."""

from __future__ import annotations

import re
import statistics
from collections import Counter

import pytest

from regkit.local.world.names import first_names, last_names

#: An academic title as the register writes it, in front of the first name.
TITLE = r"(?:Prof\. )?Dr\.(?:-Ing\.)?(?: [a-z]{2,5}\.)?|Prof\."
#: One word of a name: letters, parts joined by a hyphen or an apostrophe (``Hans-Peter``, ``D'Angelo``).
WORD = r"[^\W\d_]+(?:['’-][^\W\d_]+)*"
PARTICLES = {
    "von",
    "van",
    "de",
    "der",
    "den",
    "dem",
    "zu",
    "zum",
    "zur",
    "vor",
    "in",
    "da",
    "di",
    "do",
    "dos",
    "du",
    "la",
    "le",
    "ten",
    "ter",
    "y",
    "i",
    "el",
    "al",
}
#: Words that never belong inside a person's name: titles spelled out, designations, firms.
FOREIGN_WORDS = re.compile(
    r"\b(Doctor|Doktor|Dr|Prof|Professor|Rechtsanw\w*|Dipl\w*|Diplom\w*|Pharmazierat|Steuerberater\w*|GmbH|AG|KG|"
    r"Limited|Ltd|ApS|e\.K)\b\.?",
    flags=re.I,
)


def _person_names(world):
    """Every (first_name, last_name, full name, where) of a natural person in the world."""
    for company in world.companies.values():
        for entry in company["representation"]:
            if entry["type"] == "natural_person":
                person = entry["natural_person"]
                yield person["first_name"], person["last_name"], entry["name"], company["id"]
    for row in world.shareholdings:
        if row["holder_type"] == "natural_person":
            person = row.get("holder_details") or {}
            yield person.get("first_name"), person.get("last_name"), row["holder_name"], row["company_id"]


def _problems(first: str | None, last: str | None, name: str) -> list[str]:
    found = []
    if name != name.strip() or "  " in name or not name[:1].isalpha():
        found.append("spacing or leading punctuation")
    if first is not None and last is not None and name != f"{first} {last}":
        found.append("name is not first_name and last_name")
    untitled = re.sub(rf"^(?:{TITLE}) ", "", name)
    if FOREIGN_WORDS.search(untitled):
        found.append("a title, designation or firm inside the name")
    words = untitled.split(" ")
    if not all(re.fullmatch(WORD, w) and (w[0].isupper() or w in PARTICLES) for w in words) or len(words) < 2:
        found.append("a word that is not a name's")
    if last is not None and (
        not last or FOREIGN_WORDS.search(last) or not last[0].isupper() and last.split()[0] not in PARTICLES
    ):
        found.append("last_name")
    return found


def test_every_person_name_reads_as_the_register_writes_it(world):
    bad = {}
    for first, last, name, where in _person_names(world):
        problems = _problems(first, last, name)
        if problems:
            bad.setdefault(name, (where, problems))
    assert not bad, list(bad.items())[:20]


def test_insolvency_names_read_as_names(world):
    bad = []
    for proceeding in world.insolvencies.values():
        names = [proceeding["administrator_name"]]
        names += [event["details"].get("administrator_name") for event in proceeding["events"]]
        if proceeding["debtor_kind"] == "natural_person":
            names.append(proceeding["debtor_name"])
        for name in filter(None, names):
            if _problems(None, None, name):
                bad.append((proceeding["id"], name, _problems(None, None, name)))
    assert not bad, bad[:20]


def test_titles_stand_in_front_rarely_and_as_the_register_abbreviates_them(world):
    persons = {}
    for company in world.companies.values():
        for entry in company["representation"]:
            if entry["type"] == "natural_person" and entry["id"]:
                persons[entry["id"]] = entry["natural_person"]["first_name"]
    titles = Counter(m.group(0) for first in persons.values() if (m := re.match(rf"(?:{TITLE})(?= )", first)))
    share = sum(titles.values()) / len(persons)
    assert 0.005 < share < 0.06, share  # about one officer in 50 in the name lists
    assert titles["Dr."] == max(titles.values()) and 0 < titles["Prof. Dr."] < titles["Dr."] / 10
    administrators = {p["administrator_name"] for p in world.insolvencies.values() if p["administrator_name"]}
    assert 0.15 < sum(a.startswith("Dr. ") for a in administrators) / len(administrators) < 0.5


def test_company_names_carry_no_name_debris(world):
    bad = [
        n["name"]
        for company in world.companies.values()
        for n in company["names"]
        if re.search(r"\bDoctor\b|(^|\s)[:;,]|  |/|\bDipl", n["name"])
    ]
    assert not bad, bad[:20]


@pytest.fixture(scope="module")
def name_lists(reference_table):
    rows = {
        name: [(r["value"], int(r["count"])) for r in reference_table(f"officer_{name}")]
        for name in ("first_names", "last_names", "cities")
    }
    first = first_names(rows["first_names"], dict(rows["cities"]), dict(rows["last_names"]))
    return rows, first, last_names(rows["last_names"], dict(rows["first_names"]))


def test_the_name_lists_are_read_value_for_value(name_lists):
    rows, first, last = name_lists
    assert len(first) == len(rows["first_names"]) and len(last) == len(rows["last_names"])  # so they draw as before
    for value, name in [*zip((v for v, _ in rows["last_names"]), last)]:
        if value.startswith("Doctor ") and " " not in value[7:]:
            assert name == ("Dr.", value[7:])
        elif re.fullmatch(r"[A-ZÄÖÜ][a-zäöüß]+", value):
            assert name == ("", value)  # a plain name stays as it is
    for value, name in [*zip((v for v, _ in rows["first_names"]), first)]:
        if "/" in value or value in {"Stuttgart", "Birmingham", "London", "M.", "e.K", "wie"}:
            assert name.name != value and "/" not in name.name
    spelled = ("Doctor ", "Prof. Doctor ", "Dr ", "Doktoringenieur ")
    doctors = sum(c for v, c in rows["last_names"] if v.startswith(spelled))
    titled = sum(c for (_, c), n in zip(rows["last_names"], last) if n.title.startswith(("Dr", "Prof. Dr")))
    assert titled == doctors  # the share of doctors is the list's own


def _healthy_series(world):
    """Per company without an insolvency: its latest report per date, with equity and a balance sheet total."""
    insolvent = {p["company_id"] for p in world.insolvencies.values() if p["company_id"]}
    for company in world.companies.values():
        if company["id"] in insolvent:
            continue
        latest = {report["date"]: report for report in company["indicators"]}  # a correction comes after
        yield company["id"], [latest[d] for d in sorted(latest)]


def test_healthy_equity_ratios_move_year_to_year_within_a_plausible_band(world):
    changes, flat, companies = [], [], 0
    for company_id, reports in _healthy_series(world):
        ratios = [r["equity"] / r["balance_sheet_total"] for r in reports]
        assert all(0 <= ratio <= 1 for ratio in ratios), company_id
        if len(ratios) < 5:
            continue
        companies += 1
        steps = [abs(b - a) for a, b in zip(ratios, ratios[1:])]
        if max(steps) < 1e-6:
            flat.append(company_id)
        changes += steps
    assert companies > 1000 and not flat, flat[:10]
    assert 0.005 < statistics.median(changes) < 0.08  # percentage points a year: a few, not zero, not wild
    assert max(changes) < 0.3


def test_healthy_margins_and_revenue_growth_vary(world):
    margins, growth = [], []
    for _, reports in _healthy_series(world):
        published = [r for r in reports if r["revenue"]]
        margins += [r["net_income"] / r["revenue"] for r in published]
        growth += [b["revenue"] / a["revenue"] - 1 for a, b in zip(published, published[1:])]
    assert -0.3 < min(margins) and max(margins) < 0.3 and statistics.pstdev(margins) > 0.01
    assert 0.0 < statistics.median(growth) < 0.1 and 0.03 < statistics.pstdev(growth) < 0.3


def test_equity_and_liabilities_add_up_to_the_balance_sheet_total(world):
    for company in world.companies.values():
        for report in company["indicators"]:
            if report["equity"] is not None:
                assert report["equity"] + report["liabilities"] == report["balance_sheet_total"], company["id"]


def test_equity_melts_in_the_years_before_an_insolvency(world):
    declined = 0
    for proceeding in world.insolvencies.values():
        company = world.companies.get(proceeding["company_id"] or "")
        if not company or not proceeding["opened_at"] or len(company["indicators"]) < 5:
            continue
        latest = {report["date"]: report for report in company["indicators"]}
        reports = [latest[d] for d in sorted(latest)]
        filed = proceeding["first_event_at"][:4]
        if int(filed) - int(reports[-1]["date"][:4]) > 1:
            continue  # accounts stopped well before the filing: no distress years published
        ratios = [r["equity"] / r["balance_sheet_total"] for r in reports]
        assert ratios[-1] < ratios[-4] - 0.15, company["id"]
        declined += 1
    assert declined >= 10
