"""The one rule of who a representative is (``regkit.frames.identity``): examples and properties."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from regkit.frames import representatives
from regkit.frames.identity import name_key, normalise, person_key

SETTINGS = settings(max_examples=200, deadline=None)
CID = "DE-HRB-B1234-1"


def natural(
    first: str | None,
    last: str | None,
    name: str | None = None,
    born: str | None = "1970-01-02",
    city: str | None = "Köln",
    pid: str | None = None,
) -> dict[str, Any]:
    return {
        "id": pid,
        "name": name if name is not None else f"{first} {last}",
        "type": "natural_person",
        "role": "DIRECTOR",
        "start_date": "2010-01-01",
        "end_date": None,
        "authority": None,
        "natural_person": {"first_name": first, "last_name": last, "date_of_birth": born, "city": city},
    }


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (("Hans Peter", "Müller"), ("Hans", "Peter Müller")),  # the first/last split
        (("Hans Peter", "Müller"), (None, None, "Müller, Hans Peter")),  # "Last, First" in name
        (("Jörg", "Müller"), ("JOERG", "MUELLER")),  # case and umlauts spelled out
        (("Jörg", "Müller"), ("Jörg", "MÜLLER")),
        (("Hans-Jürgen", "Weiß"), ("Hans Jürgen", "Weiss")),  # punctuation, ß
        (("Zoë", "Weiß"), ("Zoe", "Weiss")),  # diacritics
        (("Søren", "Kjærgaard"), ("Soeren", "Kjaergaard")),
        (("Eva", "Roth"), ("Dr. Eva", "Roth")),  # titles, wherever they stand
        (("Eva", "Roth"), ("Eva", "Roth", "Prof. Dr. med. Eva Roth")),
        (("Eva", "Roth"), (None, None, "Dr. rer. nat. Eva Roth")),
        (("Eva", "Roth"), ("Dipl.-Ing. Eva", "Roth")),
        (("Eva", "Roth"), (None, None, "Dipl.-Kfm. (FH) Eva Roth, MBA")),
        (("Eva", "Roth"), (None, None, "Doctor Eva Roth LL.M.")),
        (("Eva", "Roth"), (None, None, "Dr.-Ing. habil. Eva Roth")),
        (("Eva", "Roth"), (None, None, "Prof. Dr. Dr. h. c. mult. Eva Roth")),
        (("Eva", "Roth"), (None, None, "Diplom-Kauffrau Eva Roth")),
        (("Eva", "Roth"), (None, None, "  Eva\tRoth  ")),
    ],
)
def test_the_same_person(a: tuple, b: tuple) -> None:
    assert person_key(natural(*a), CID) == person_key(natural(*b), CID)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (("Eva", "Roth"), ("Eva", "Rot")),
        (("Eva", "Roth"), ("Eva Maria", "Roth")),
        (("Anna", "Herr"), ("Anna", "Frau")),  # Herr / Frau are surnames too: kept
        (("Sandra", "Drexler"), ("Sandra", "Exler")),  # "dr" inside a word is no title
    ],
)
def test_different_people(a: tuple, b: tuple) -> None:
    assert person_key(natural(*a), CID) != person_key(natural(*b), CID)


def test_id_birth_city_and_company() -> None:
    eva = natural("Eva", "Roth", city="Köln")
    assert person_key(eva, CID) == "person:eva roth|1970-01-02"
    uuid = "6cdc2335-6a25-4908-b9ae-62e692e04346"
    assert person_key({**eva, "id": uuid}, CID) == uuid
    assert person_key({**eva, "id": ""}, CID) == person_key(eva, CID)  # an empty id is no id
    assert person_key(eva, CID, use_city=True) == "person:eva roth|1970-01-02|koeln"
    assert person_key(eva, "DE-HRB-X9-2") == person_key(eva, CID)  # with a birth date: the same everywhere
    unborn = natural("Eva", "Roth", born=None)
    assert person_key(unborn, CID) == f"person:eva roth|@{CID}" != person_key(unborn, "DE-HRB-X9-2")
    assert person_key(unborn, CID, use_city=True) == f"person:eva roth||koeln@{CID}"
    acme = {
        "id": None,
        "name": "Acme Ltd.",
        "type": "legal_person",
        "legal_person": {"name": "ACME Ltd", "city": "London", "country": "GB"},
    }
    assert person_key(acme, CID) == person_key(acme, "DE-HRB-X9-2") == "legal:acme ltd|london|gb"
    assert person_key(acme, CID, use_city=True) == "legal:acme ltd|london|gb"


def test_representatives_uses_the_rule_and_threads_the_city() -> None:
    reps = [natural("Dr. Eva", "Roth"), natural("Eva", "ROTH", city="Hof"), natural("Eva", "Roth", pid="p-1")]
    company = {"id": CID, "names": [], "representation": reps}
    frame = representatives(company)
    assert frame["id"].tolist() == ["person:eva roth|1970-01-02"] * 2 + ["p-1"]
    assert frame["id_derived"].tolist() == [True, True, False]
    with_city = representatives(company, person_city=True)["id"].tolist()
    assert with_city[:2] == ["person:eva roth|1970-01-02|koeln", "person:eva roth|1970-01-02|hof"]


# -- properties -----------------------------------------------------------------------------------------
LETTERS = "abcdefghijklmnopqrstuvwxyzäöüßéèçñABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÜ"
TITLE_WORDS = {
    "dr",
    "dres",
    "prof",
    "professor",
    "doktor",
    "doctor",
    "dipl",
    "diplom",
    "ing",
    "mag",
    "mba",
    "ll",
    "m",
    "h",
    "c",
    "med",
    "dent",
    "vet",
    "rer",
    "nat",
    "pol",
    "oec",
    "soc",
    "jur",
    "iur",
    "phil",
    "theol",
    "sc",
    "techn",
    "agr",
    "habil",
    "mult",
    "paed",
    "pharm",
    "publ",
    "biol",
    "hum",
    "math",
    "troph",
    "hc",
}
words = st.text(alphabet=LETTERS, min_size=1, max_size=9).filter(lambda w: normalise(w) not in TITLE_WORDS)
names = st.lists(words, min_size=2, max_size=5)
TITLES = ["Dr.", "Dr. med.", "Prof. Dr.", "Doctor", "Dipl.-Ing.", "Dr.-Ing.", "Prof.", "Dr. rer. nat.", "Mag."]
SPELLED = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue"})


@SETTINGS
@given(names, st.data())
def test_split_case_spelling_titles_and_punctuation_do_not_matter(parts: list[str], data: Any) -> None:
    split = data.draw(st.integers(1, len(parts) - 1))
    key = name_key(" ".join(parts[:split]), " ".join(parts[split:]), None)
    other = data.draw(st.integers(1, len(parts) - 1))
    assert name_key(" ".join(parts[:other]), " ".join(parts[other:]), "ignored") == key
    assert name_key(None, None, f"{parts[-1]}, {' '.join(parts[:-1])}") == key  # "Last, First"
    assert name_key(None, " ".join(parts), " ".join(parts).upper()) == key  # one of first/last missing: name
    assert name_key(" ".join(parts).translate(SPELLED), None, " ".join(parts).translate(SPELLED)) == key
    title = data.draw(st.sampled_from(TITLES))
    assert name_key(f"{title} {' '.join(parts[:split])}", " ".join(parts[split:]), None) == key
    assert name_key(None, None, " - ".join(parts) + ".") == key


@SETTINGS
@given(st.text())
def test_normalise_is_a_fold(text: str) -> None:
    once = normalise(text)
    assert normalise(once) == once
    assert normalise(text.upper()) == normalise(text.lower()) or not text.isascii()
    assert "  " not in once and once == once.strip()


@SETTINGS
@given(names, names, st.dates().map(str), st.sampled_from(["Köln", "Hof", None]))
def test_a_derived_key_never_equals_an_interface_id(first: list[str], last: list[str], born: str, city: Any) -> None:
    entry = natural(" ".join(first), " ".join(last), born=born, city=city)
    key = person_key(entry, CID)
    assume(key)
    assert key.startswith("person:") and person_key(entry, CID, use_city=True).startswith(key)
