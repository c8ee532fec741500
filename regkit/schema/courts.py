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
from dataclasses import dataclass
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
    """

    by_code: dict[str, Court]
    full_names: dict[str, frozenset[str]]  # normalised full name → codes
    aliases: dict[str, frozenset[str]]  # normalised part of a name ("charlottenburg", "berlin") → codes
    known_codes: frozenset[str]  # every five-character court code of the three lists


def normalise_name(name: str) -> str:
    """Fold a court name for matching: case, umlauts, punctuation, parentheses, "Amtsgericht"/"AG".

    >>> normalise_name("AG Berlin-Charlottenburg")
    'berlin charlottenburg'
    >>> normalise_name("Amtsgericht Gießen") == normalise_name("Giessen")
    True
    """
    words = re.sub(r"[^a-z0-9]+", " ", name.lower().translate(_UMLAUTS)).split()
    return " ".join(w for w in words if w not in _FILLER)


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
    )


def courts() -> Courts:
    """The court lists of :func:`reference_dir`, parsed once."""
    return court_table(reference_dir())
