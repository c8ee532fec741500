"""The register courts of German company ids, from the reference lists shipped with regkit.

The lists are those the bundled synthetic world is built from (``reference/`` of the bundled data:
``gds_gerichte.csv``, ``registergerichte_xunternehmen_v12.csv``, ``register_courts_observed.csv``); this module
reads them without importing the world's package, so the client (:func:`regkit.client.parse_company_id`) and the
world can both depend on it downward.
"""

from __future__ import annotations

import csv
import functools
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

__all__ = [
    "Court",
    "Courts",
    "COURT_CODE",
    "reference_dir",
    "court_table",
    "courts",
    "normalise_name",
    "name_parts",
    "official_name",
    "STATE_LETTERS",
    "state_letter",
]

#: A court code: the five characters of an id, optionally a department letter ("F1103R").
COURT_CODE = re.compile(r"[A-Z][0-9]{4}[A-Z]?")

#: Words that say "court" or "register" rather than which one; dropped from names and queries alike.
_FILLER = frozenset(
    {
        "amtsgericht",
        "amtsgerichts",
        "ag",
        "registergericht",
        "handelsregister",
        "genossenschaftsregister",
        "partnerschaftsregister",
        "vereinsregister",
        "beim",
    }
)

#: The federal state a court code's first letter stands for (XJustiz GDS.Gerichte), in the English spelling the
#: OffeneRegister records give (``all_attributes.federal_state``); :func:`state_letter` also reads German names.
STATE_LETTERS: dict[str, str] = {
    "B": "Baden-Württemberg",
    "D": "Bavaria",
    "F": "Berlin",
    "G": "Brandenburg",
    "H": "Bremen",
    "K": "Hamburg",
    "M": "Hesse",
    "N": "Mecklenburg-Western Pomerania",
    "P": "Lower Saxony",
    "R": "North Rhine-Westphalia",
    "T": "Rhineland-Palatinate",
    "U": "Saxony",
    "V": "Saarland",
    "W": "Saxony-Anhalt",
    "X": "Schleswig-Holstein",
    "Y": "Thuringia",
}
_GERMAN_STATES = {
    "bayern": "D",
    "hessen": "M",
    "niedersachsen": "P",
    "nordrhein westfalen": "R",
    "rheinland pfalz": "T",
    "sachsen": "U",
    "sachsen anhalt": "W",
    "thueringen": "Y",
    "mecklenburg vorpommern": "N",
}

_UMLAUTS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"})


def reference_dir() -> Path:
    """The directory of the reference lists: ``reference/`` of ``REGKIT_DATA_DIR`` (read at call time) when it
    holds them, else the one shipped with regkit (``regkit/_data/reference`` in a wheel, ``data/reference`` of a
    checkout) — the rule of :func:`regkit.local.world.store.default_reference_dir`."""
    package = Path(__file__).resolve().parents[1]
    installed, checkout = package / "_data", package.parent / "data"
    env = os.environ.get("REGKIT_DATA_DIR")
    chosen = (Path(env) if env else installed if installed.is_dir() else checkout) / "reference"
    if chosen.is_dir() and any(chosen.glob("*.csv")):
        return chosen
    return next((d / "reference" for d in (installed, checkout) if (d / "reference").is_dir()), chosen)


@dataclass(frozen=True)
class Court:
    """One register court as company ids name it.

    Attributes
    ----------
    code : str
        Five characters, e.g. ``"F1103"``.
    town : str
        The register's short name, e.g. ``"Berlin (Charlottenburg)"``.
    official : str
        E.g. ``"Amtsgericht Charlottenburg"``.
    current : bool
        A current registrar (not only a former one).
    """

    code: str  # five characters, e.g. "F1103"
    town: str  # the register's short name, e.g. "Berlin (Charlottenburg)"
    official: str  # e.g. "Amtsgericht Charlottenburg"
    current: bool  # a current registrar (not only a former one)

    def label(self) -> str:
        """``"F1103 Berlin (Charlottenburg), Amtsgericht Charlottenburg"``: code and names, for messages."""
        same = normalise_name(self.official) == normalise_name(self.town)
        return f"{self.code} {self.town}" if same else f"{self.code} {self.town}, {self.official}"


@dataclass(frozen=True)
class Courts:
    """The bundled court lists, indexed for matching.

    Attributes
    ----------
    by_code : dict
        Five-character court code → :class:`Court`.
    full_names : dict
        Normalised full name (:func:`normalise_name`) → the codes of the courts of that name.
    aliases : dict
        Normalised part of a name ("charlottenburg", "berlin") → codes.
    known_codes : frozenset
        Every five-character court code of the three lists.
    local_courts : dict
        Normalised town of every local court (Amtsgericht) of GDS.Gerichte, also of those dissolved and of those
        that never kept a register in the observed records ("fuerth" → ``{"D3304", "M1105"}``) → codes: where a
        former court that issued a register number is looked up (:meth:`issuing_court`). Branches
        ("Amtsgericht Fürth, Zwst. Hirschhorn") are not listed.
    """

    by_code: dict[str, Court]
    full_names: dict[str, frozenset[str]]  # normalised full name → codes
    aliases: dict[str, frozenset[str]]  # normalised part of a name ("charlottenburg", "berlin") → codes
    known_codes: frozenset[str]  # every five-character court code of the three lists
    local_courts: dict[str, frozenset[str]] = field(default_factory=dict)  # normalised town → local court codes

    def issuing_court(self, former: str, state: str) -> str | None:
        """The code of the court ``former`` (a name as the register writes it after "früher": ``"Dieburg"``,
        ``"Fürth"``) in the federal state of the letter ``state`` (a code's first letter, :func:`state_letter`),
        or ``None`` when the lists name no such court there or several.

        When courts were merged, the court that took a register over kept the numbers the former court had
        issued: a company id's court is the court that issued its number. A register court of the observed
        records is preferred; else the local court of GDS.Gerichte of that town in that state (a court the
        observed records never name as a register, as Fürth in Hesse).

        Examples
        --------
        >>> table = courts()
        >>> table.issuing_court("Dieburg", "M"), table.issuing_court("Fürth", "M"), table.issuing_court("Fürth", "D")
        ('M1104', 'M1105', 'D3304')
        """
        key = normalise_name(former)
        registers = {c for c in self.full_names.get(key, ()) if c[0] == state}
        if len(registers) == 1:
            return next(iter(registers))
        local = {c for c in self.local_courts.get(key, ()) if c[0] == state}
        if len(local) == 1:
            return next(iter(local))
        return None


def normalise_name(name: str) -> str:
    """Fold a court name for matching: case, umlauts, punctuation, parentheses, "Amtsgericht"/"AG".

    >>> normalise_name("AG Berlin-Charlottenburg")
    'berlin charlottenburg'
    >>> normalise_name("Amtsgericht Gießen") == normalise_name("Giessen")
    True
    """
    words = re.sub(r"[^a-z0-9]+", " ", name.lower().translate(_UMLAUTS)).split()
    return " ".join(w for w in words if w not in _FILLER)


def state_letter(state: str | None) -> str | None:
    """The court codes' first letter of a federal state (``"Hesse"``, ``"Hessen"`` → ``"M"``), else ``None``.

    >>> state_letter("Lower Saxony"), state_letter("Nordrhein-Westfalen"), state_letter(None)
    ('P', 'R', None)
    """
    if not state or not isinstance(state, str):
        return None
    return _STATE_LETTER.get(normalise_name(state))


def _state_table() -> dict[str, str]:
    """Folded state name, English (as the records write it) and German → the court codes' first letter."""
    table = {normalise_name(name): letter for letter, name in STATE_LETTERS.items()}
    table.update(_GERMAN_STATES)
    return table


_STATE_LETTER = _state_table()


def name_parts(name: str) -> set[str]:
    """The parts of a name with parentheses, each alone: "Berlin (Charlottenburg)" → berlin, charlottenburg."""
    match = re.fullmatch(r"(?P<outer>[^(]*)\((?P<inner>[^)]*)\)\s*", name)
    if not match:
        return set()
    return {part for part in (normalise_name(match["outer"]), normalise_name(match["inner"])) if part}


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def official_name(code: str, town: str, xunternehmen: dict[str, str], gds: dict[str, str]) -> str:
    """The court's official name: XUnternehmen's, else GDS's (a current Amtsgericht), else "Amtsgericht <town>" —
    the one rule, used by the client's court lists and the world generator alike."""
    for key in (code + "R", code + "V", code):
        if key in xunternehmen:
            return xunternehmen[key]
    official = gds.get(code, "")
    return official if official.startswith("Amtsgericht") and "aufgelöst" not in official else "Amtsgericht " + town


@functools.lru_cache(maxsize=4)
def court_table(reference: Path) -> Courts:
    """Parse the court lists of ``reference`` once (per reference directory).

    Parameters
    ----------
    reference : Path
        A directory with ``gds_gerichte.csv``, ``registergerichte_xunternehmen_v12.csv`` and
        ``register_courts_observed.csv`` (:func:`reference_dir`).
    """
    gds = {r["code"]: r["name"] for r in _rows(reference / "gds_gerichte.csv")}
    xunternehmen = {r["code"]: r["name"] for r in _rows(reference / "registergerichte_xunternehmen_v12.csv")}
    towns: dict[str, list[str]] = {}
    current: dict[str, bool] = {}
    for row in _rows(reference / "register_courts_observed.csv"):
        code = row["code"][:5]
        towns.setdefault(code, [])
        if row["name"] not in towns[code]:
            towns[code].append(row["name"])
        current[code] = current.get(code, False) or row["role"] == "current_registrar"
    by_code: dict[str, Court] = {}
    full_names: dict[str, set[str]] = {}
    aliases: dict[str, set[str]] = {}
    for code, names in sorted(towns.items()):
        court = Court(code, names[0], official_name(code, names[0], xunternehmen, gds), current[code])
        by_code[code] = court
        for name in (*names, court.official):
            full_names.setdefault(normalise_name(name), set()).add(code)
            for part in name_parts(name):
                aliases.setdefault(part, set()).add(code)
    known = {c[:5] for c in (*gds, *xunternehmen, *by_code) if COURT_CODE.fullmatch(c[:6])}
    return Courts(
        by_code=by_code,
        full_names={k: frozenset(v) for k, v in full_names.items()},
        aliases={k: frozenset(v) for k, v in aliases.items()},
        known_codes=frozenset(known),
        local_courts=_local_courts(gds),
    )


_LOCAL_COURT = re.compile(r"(?:aufgelöst-)?Amtsgericht (?P<town>[^,]+)")


def _local_courts(gds: dict[str, str]) -> dict[str, frozenset[str]]:
    """Normalised town (the name without "Amtsgericht", with and without a qualifier in parentheses:
    "fuerth hessen" and "fuerth") → the codes of GDS.Gerichte's local courts of that town (branches left out)."""
    towns: dict[str, set[str]] = {}
    for code, name in gds.items():
        match = _LOCAL_COURT.fullmatch(name.strip())
        if match is None or not COURT_CODE.fullmatch(code) or len(code) != 5:
            continue
        town = match["town"]
        for key in {normalise_name(town), normalise_name(town.split("(")[0])}:
            if key:
                towns.setdefault(key, set()).add(code)
    return {k: frozenset(v) for k, v in towns.items()}


def courts() -> Courts:
    """The court lists of :func:`reference_dir`, parsed once."""
    return court_table(reference_dir())
