"""What people write about a register entry → the interface's company id, offline and free.

``"HRB 152955 Darmstadt"`` and ``"Amtsgericht Berlin (Charlottenburg) HRB 270764 B"`` become
``DE-HRB-M1103-152955`` and ``DE-HRB-F1103-270764B`` from the court lists bundled with regkit
(``reference/`` of the bundled data, see :func:`regkit.local.world.store.default_reference_dir`); nothing
is sent and no credits are spent.
"""

from __future__ import annotations

import csv
import difflib
import functools
import re
from dataclasses import dataclass
from pathlib import Path

from regkit.errors import ValidationError

from ..local.world.store import default_reference_dir
from ..schema.interface import COMPANY_ID_PATTERN, REGISTER_TYPES

__all__ = ["company_id"]

#: How people spell the register types (case-insensitive) → the id's spelling.
_TYPE_ALIASES = {t.lower(): t for t in REGISTER_TYPES} | {"genr": "GnR", "partr": "PR"}

#: A register type token, then the number and an optional suffix of one or two capitals ("270764 B",
#: "31117 FL"); "AG" right after the number is the start of "AG Darmstadt", not a suffix.
_ENTRY = re.compile(
    r"\b(?P<type>[A-Za-z]{2,5})\.?\s*(?:Nr\.?\s*)?(?P<number>[0-9]+)(?:\s*(?P<suffix>(?!AG\b)[A-Z]{1,2})\b)?"
)

#: A court code: the five characters of an id, optionally a department letter ("F1103R").
_COURT_CODE = re.compile(r"[A-Z][0-9]{4}[A-Z]?")

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


@dataclass(frozen=True)
class _Court:
    """One register court as company ids name it."""

    code: str  # five characters, e.g. "F1103"
    town: str  # the register's short name, e.g. "Berlin (Charlottenburg)"
    official: str  # e.g. "Amtsgericht Charlottenburg"
    current: bool  # a current registrar (not only a former one)

    def label(self) -> str:
        """``"F1103 Berlin (Charlottenburg), Amtsgericht Charlottenburg"``: code and names, for messages."""
        same = _normalise(self.official) == _normalise(self.town)
        return f"{self.code} {self.town}" if same else f"{self.code} {self.town}, {self.official}"


@dataclass(frozen=True)
class _Courts:
    """The bundled court list, indexed for matching."""

    by_code: dict[str, _Court]
    full_names: dict[str, frozenset[str]]  # normalised full name → codes
    aliases: dict[str, frozenset[str]]  # normalised part of a name ("charlottenburg", "berlin") → codes
    known_codes: frozenset[str]  # every five-character court code of the three lists


def _normalise(name: str) -> str:
    """Fold a court name for matching: case, umlauts, punctuation, parentheses, "Amtsgericht"/"AG".

    >>> _normalise("AG Berlin-Charlottenburg")
    'berlin charlottenburg'
    >>> _normalise("Amtsgericht Gießen") == _normalise("Giessen")
    True
    """
    words = re.sub(r"[^a-z0-9]+", " ", name.lower().translate(_UMLAUTS)).split()
    return " ".join(w for w in words if w not in _FILLER)


def _name_parts(name: str) -> set[str]:
    """The parts of a name with parentheses, each alone: "Berlin (Charlottenburg)" → berlin, charlottenburg."""
    match = re.fullmatch(r"(?P<outer>[^(]*)\((?P<inner>[^)]*)\)\s*", name)
    if not match:
        return set()
    return {part for part in (_normalise(match["outer"]), _normalise(match["inner"])) if part}


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def _official_name(code: str, town: str, xunternehmen: dict[str, str], gds: dict[str, str]) -> str:
    """The court's official name, chosen as the bundled world chooses it (XUnternehmen, then GDS, then town)."""
    for key in (code + "R", code + "V", code):
        if key in xunternehmen:
            return xunternehmen[key]
    official = gds.get(code, "")
    return official if official.startswith("Amtsgericht") and "aufgelöst" not in official else "Amtsgericht " + town


@functools.lru_cache(maxsize=4)
def _court_table(reference: Path) -> _Courts:
    """Parse the bundled court lists once (per reference directory)."""
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
    by_code: dict[str, _Court] = {}
    full_names: dict[str, set[str]] = {}
    aliases: dict[str, set[str]] = {}
    for code, names in sorted(towns.items()):
        court = _Court(code, names[0], _official_name(code, names[0], xunternehmen, gds), current[code])
        by_code[code] = court
        for name in (*names, court.official):
            full_names.setdefault(_normalise(name), set()).add(code)
            for part in _name_parts(name):
                aliases.setdefault(part, set()).add(code)
    known = {c[:5] for c in (*gds, *xunternehmen, *by_code) if _COURT_CODE.fullmatch(c[:6])}
    return _Courts(
        by_code=by_code,
        full_names={k: frozenset(v) for k, v in full_names.items()},
        aliases={k: frozenset(v) for k, v in aliases.items()},
        known_codes=frozenset(known),
    )


def _courts() -> _Courts:
    return _court_table(default_reference_dir())


def _parse_entry(text: str) -> tuple[str, str, str]:
    """Split ``text`` into (register type, register number with suffix, the rest: the court)."""
    unknown = []
    for match in _ENTRY.finditer(text):
        kind = _TYPE_ALIASES.get(match["type"].lower())
        if kind is None:
            unknown.append(match["type"])
            continue
        rest = f"{text[: match.start()]} {text[match.end() :]}"
        return kind, match["number"] + (match["suffix"] or ""), rest
    allowed = ", ".join(REGISTER_TYPES)
    if unknown:
        raise ValidationError(
            f"unknown register type {unknown[0]!r} in {text!r}",
            suggestion=f"use one of {allowed} (e.g. 'HRB 152955 Darmstadt'); nothing was sent",
        )
    if re.search(r"[0-9]", text):
        raise ValidationError(
            f"no register type before the number in {text!r}",
            suggestion=f"write the register type and number, e.g. 'HRB 152955 Darmstadt' ({allowed}); nothing was sent",
        )
    raise ValidationError(
        f"no register type and number in {text!r}",
        suggestion=f"write e.g. 'HRB 152955 Darmstadt' (register types: {allowed}); nothing was sent",
    )


def _candidates(query: str, courts: _Courts) -> frozenset[str]:
    """The codes a normalised court name may mean: exact full names first, then parts and leading words."""
    exact = courts.full_names.get(query)
    if exact:
        return exact
    loose = set(courts.aliases.get(query, ()))
    for name, codes in courts.full_names.items():
        if name.startswith(query + " "):
            loose |= codes
    return frozenset(loose)


def _prefer_current(codes: frozenset[str], courts: _Courts) -> frozenset[str]:
    """Exactly one current registrar among former ones → that one; otherwise ``codes`` unchanged."""
    current = [c for c in codes if courts.by_code[c].current]
    return frozenset(current) if len(current) == 1 else codes


def _resolve_court(court: str, courts: _Courts) -> str:
    """A court code or name → the five-character code of the id."""
    stripped = court.strip()
    if _COURT_CODE.fullmatch(stripped):
        if stripped[:5] in courts.known_codes:
            return stripped[:5]
        raise ValidationError(
            f"unknown register court code {stripped!r}",
            suggestion="pass a court code from the bundled court list (e.g. court='M1103') or the court's name; "
            "nothing was sent",
        )
    query = _normalise(stripped)
    if not query:
        raise ValidationError(
            "no register court given",
            suggestion="add the court to the text ('HRB 152955 Darmstadt') or pass court='M1103' (a code) "
            "or court='Darmstadt'; nothing was sent",
        )
    codes = _prefer_current(_candidates(query, courts), courts)
    if len(codes) == 1:
        return next(iter(codes))
    if codes:
        listed = "; ".join(courts.by_code[c].label() for c in sorted(codes))
        first = min(codes)
        raise ValidationError(
            f"register court {stripped!r} is ambiguous: {listed}",
            suggestion=f"pass court={first!r} (one of the codes listed) or a fuller court name; nothing was sent",
        )
    close = difflib.get_close_matches(query, list(courts.full_names), n=5, cutoff=0.75)
    near = sorted({c for name in close for c in courts.full_names[name]})
    hint = f"did you mean {'; '.join(courts.by_code[c].label() for c in near)}? " if near else ""
    raise ValidationError(
        f"unknown register court {stripped!r}",
        suggestion=f"{hint}pass court= with a court code (e.g. court='M1103') or the court's name as the "
        "register spells it (e.g. 'Darmstadt'); nothing was sent",
    )


def company_id(text: str, court: str | None = None) -> str:
    """Turn what people write about a register entry into the interface's company id.

    Offline and free: the court is looked up in the court lists bundled with regkit, nothing is sent
    and no client is needed.

    Parameters
    ----------
    text : str
        A register entry as people write it — ``"HRB 152955 Darmstadt"``, ``"Darmstadt HRB 152955"``,
        ``"HRB 152955, Amtsgericht Darmstadt"``, ``"Amtsgericht Berlin (Charlottenburg) HRB 270764 B"``
        — or an id already (``"DE-HRB-F1103-270764B"``), returned stripped.  Register types: HRB, HRA,
        PR (also ``PartR``), GnR (also ``GenR``), VR, in any case.  A suffix of one or two capitals
        after the number (``"270764 B"``, ``"31117 FL"``) belongs to the number.
    court : str, optional
        The register court, overriding the one in ``text`` (or completing a text without one): a court
        code (``"M1103"``; a department letter as in ``"F1103R"`` is dropped) or a court name.

    Returns
    -------
    str
        ``DE-<type>-<court code>-<number>``, matching
        :data:`regkit.schema.interface.COMPANY_ID_PATTERN`.

    Raises
    ------
    ValidationError
        No register type or number, an unknown register type, no court, an unknown court, or a court
        name that fits several courts (the message lists their codes and names; the suggestion says to
        pass ``court=`` with one of the codes or a fuller name).  Nothing is sent.

    Notes
    -----
    How a court name is matched.  Names are folded first: case, umlauts (``ü`` = ``ue``, ``ß`` = ``ss``),
    punctuation and parentheses (``"Berlin (Charlottenburg)"`` = ``"Berlin-Charlottenburg"``), and the
    words "Amtsgericht", "AG", "Registergericht", "Handelsregister" (and the other register names) and
    "beim" are dropped.  Each court (five-character code of ``register_courts_observed.csv``, the codes
    company ids use) is known by its names there and by its official name (from the XUnternehmen list,
    else the GDS list, as the bundled world names it).  Then:

    1. a name equal to a court's full name means the courts having that name;
    2. otherwise, a part of a name with parentheses (``"Charlottenburg"``, ``"Berlin"``) or the leading
       words of a name (``"Frankfurt"`` of ``"Frankfurt am Main"`` and ``"Frankfurt (Oder)"``) means
       every court it fits;
    3. when the courts found are several and exactly one of them is a current registrar (the others
       only former ones), it is that one; to name a former registrar pass its code;
    4. one court → its code; several → ``ValidationError`` listing them; none → ``ValidationError``
       with close names, if any.

    Examples
    --------
    >>> import regkit
    >>> regkit.company_id("HRB 152955 Darmstadt")
    'DE-HRB-M1103-152955'
    >>> regkit.company_id("Amtsgericht Berlin (Charlottenburg) HRB 270764 B")
    'DE-HRB-F1103-270764B'
    >>> regkit.company_id("HRB 152955, Amtsgericht Darmstadt")
    'DE-HRB-M1103-152955'
    >>> regkit.company_id("HRB 152955", court="M1103")
    'DE-HRB-M1103-152955'
    >>> regkit.company_id("  DE-HRB-F1103-270764B ")
    'DE-HRB-F1103-270764B'
    >>> regkit.company_id("HRB 1 Frankfurt")
    Traceback (most recent call last):
    ...
    regkit.errors.ValidationError: register court 'Frankfurt' is ambiguous: ...
    """
    if not isinstance(text, str):
        raise ValidationError(
            f"text must be a str, not {type(text).__name__}",
            suggestion="pass the register entry as text, e.g. 'HRB 152955 Darmstadt'; nothing was sent",
        )
    stripped = text.strip()
    courts = _courts()
    if COMPANY_ID_PATTERN.fullmatch(stripped):
        if court is None:
            return stripped
        _, kind, _, number = stripped.split("-", 3)
        return f"DE-{kind}-{_resolve_court(court, courts)}-{number}"
    kind, number, rest = _parse_entry(stripped)
    code = _resolve_court(court if court is not None else rest, courts)
    return f"DE-{kind}-{code}-{number}"
