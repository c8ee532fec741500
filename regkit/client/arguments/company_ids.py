"""What people write about a register entry → the interface's company id, offline and free.

``"HRB 152955 Darmstadt"`` and ``"Amtsgericht Berlin (Charlottenburg) HRB 270764 B"`` become
``DE-HRB-M1103-152955`` and ``DE-HRB-F1103-270764B`` from the court lists bundled with regkit
(``reference/`` of the bundled data, see :mod:`regkit.schema.courts`); nothing
is sent and no credits are spent.
"""

from __future__ import annotations

import difflib
import re
import unicodedata

from regkit.errors import ValidationError, explain_arguments
from regkit.schema.courts import COURT_CODE, STATE_LETTERS, Courts, courts, normalise_name
from regkit.schema.interface import COMPANY_ID_PATTERN, REGISTER_TYPES

__all__ = ["parse_company_id"]

#: How people spell the register types (case-insensitive) → the id's spelling.
_TYPE_ALIASES = {t.lower(): t for t in REGISTER_TYPES} | {"genr": "GnR", "partr": "PR"}

#: A register type token, then the number and an optional suffix of one or two capitals ("270764 B",
#: "31117 FL"); "AG" right after the number is the start of "AG Darmstadt", not a suffix.
_ENTRY = re.compile(
    r"\b(?P<type>[A-Za-z]{2,5})\.?\s*(?:Nr\.?\s*)?(?P<number>[0-9]+)(?:\s*(?P<suffix>(?!AG\b)[A-Z]{1,2})\b)?"
)


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


def _candidates(query: str, courts: Courts) -> frozenset[str]:
    """The codes a normalised court name may mean: exact full names first, then parts and leading words."""
    exact = courts.full_names.get(query)
    if exact:
        return exact
    loose = set(courts.aliases.get(query, ()))
    for name, codes in courts.full_names.items():
        if name.startswith(query + " "):
            loose |= codes
    return frozenset(loose)


def _prefer_current(codes: frozenset[str], courts: Courts) -> frozenset[str]:
    """Exactly one current registrar among former ones → that one; otherwise ``codes`` unchanged."""
    current = [c for c in codes if courts.by_code[c].current]
    return frozenset(current) if len(current) == 1 else codes


def _resolve_court(court: str, courts: Courts) -> str:
    """A court code or name → the five-character code of the id."""
    stripped = court.strip()
    if COURT_CODE.fullmatch(stripped):
        if stripped[:5] in courts.known_codes:
            return stripped[:5]
        raise ValidationError(
            f"unknown register court code {stripped!r}",
            suggestion="pass a court code from the bundled court list (e.g. court='M1103') or the court's name; "
            "nothing was sent",
        )
    query = normalise_name(stripped)
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


_FORMER = re.compile(r"\s+früher\s+|\s+frueher\s+", re.IGNORECASE)


def _resolve_issuing_court(court: str, courts: Courts) -> str:
    """A court name, or "<court> früher <former court>" (a register the first took over from the second) → the
    code of the court that issued the number: the former court, looked up in the current court's state."""
    parts = _FORMER.split(unicodedata.normalize("NFC", court.strip()), maxsplit=1)
    if len(parts) == 1 or not parts[1].strip():
        return _resolve_court(court, courts)
    return _former_court(parts[0], parts[1].strip(" ,"), courts)


def _former_court(current: str, former: str, courts: Courts) -> str:
    code = _resolve_court(current, courts)
    issued = courts.issuing_court(former, code[0])
    if issued is None:
        raise ValidationError(
            f"no court {former!r} in {STATE_LETTERS.get(code[0], code[0])} (the state of {current.strip()}, {code}) "
            "in the bundled court lists",
            suggestion=f"pass court= with the code of the court that issued the number (e.g. court='{code}' if "
            f"{current} issued it); nothing was sent",
        )
    return issued


@explain_arguments
def parse_company_id(text: str, court: str | None = None) -> str:
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

    A register another court took over is written "<court> früher <former court>"
    (``"Darmstadt früher Dieburg GnR 101"``): the number belongs to the court that issued it, so the id
    names the former court, looked up among the local courts of the current court's federal state
    (:meth:`regkit.schema.courts.Courts.issuing_court`; Fürth is Fürth in Hesse beside Darmstadt).

    Examples
    --------
    >>> import regkit
    >>> regkit.parse_company_id("HRB 152955 Darmstadt")
    'DE-HRB-M1103-152955'
    >>> regkit.parse_company_id("Amtsgericht Berlin (Charlottenburg) HRB 270764 B")
    'DE-HRB-F1103-270764B'
    >>> regkit.parse_company_id("HRB 152955, Amtsgericht Darmstadt")
    'DE-HRB-M1103-152955'
    >>> regkit.parse_company_id("Darmstadt früher Dieburg GnR 101")
    'DE-GnR-M1104-101'
    >>> regkit.parse_company_id("Amtsgericht Darmstadt früher Fürth GnR 101")
    'DE-GnR-M1105-101'
    >>> regkit.parse_company_id("HRB 152955", court="M1103")
    'DE-HRB-M1103-152955'
    >>> regkit.parse_company_id("  DE-HRB-F1103-270764B ")
    'DE-HRB-F1103-270764B'
    >>> regkit.parse_company_id("HRB 1 Frankfurt")
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
    table = courts()
    if COMPANY_ID_PATTERN.fullmatch(stripped):
        if court is None:
            return stripped
        _, kind, _, number = stripped.split("-", 3)
        return f"DE-{kind}-{_resolve_issuing_court(court, table)}-{number}"
    kind, number, rest = _parse_entry(stripped)
    code = _resolve_issuing_court(court if court is not None else rest, table)
    return f"DE-{kind}-{code}-{number}"
