"""What the explorers make of typed text: a company id, register text, a person id, or a name to look up.

Everything that can be worked out offline is (nothing sent, nothing paid): a company id is checked with the
client's validation, register text such as ``"HRB 152955 Darmstadt"`` becomes an id with
:func:`regkit.parse_company_id`, a UUID is a person. Only a name needs the register: autocomplete
(``client.autocomplete_companies``: 0 credits, but rate-limited, so the explorers call it on a click or on
Enter, never on every keystroke).
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

import pandas as pd

from regkit.client import parse_company_id
from regkit.client.arguments.validation import validate_company_id
from regkit.errors import RegkitError, ValidationError
from regkit.schema import display_label

from .messages import error_html
from .render import message_html

if TYPE_CHECKING:
    from regkit.client.protocol import RegisterClient

__all__ = [
    "COMPANY",
    "INVALID",
    "MATCH_COLUMNS",
    "NAME",
    "PERSON",
    "REGISTER_EXAMPLE",
    "Parsed",
    "find_company_matches",
    "is_person_id",
    "looks_like_register_entry",
    "match_frame",
    "match_label",
    "name_to_id",
    "parse_text",
]

MATCH_COLUMNS = ("company_id", "name", "register", "register_court", "city", "legal_form", "status")
"""Columns of :func:`match_frame`."""

COMPANY, PERSON, NAME, INVALID = "company", "person", "name", "invalid"
"""What :func:`parse_text` found: a company id, a person UUID, a name to look up, or text it cannot use."""

REGISTER_EXAMPLE = "HRB 152955 Darmstadt"
"""Register text the inputs' placeholders show."""

_REGISTER_ENTRY = re.compile(r"\b(?:HRB|HRA|PR|PartR|GnR|GenR|VR)\.?\s*(?:Nr\.?\s*)?[0-9]", re.IGNORECASE)
_FOLD = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"})


class Parsed(NamedTuple):
    """What a text is: ``kind`` (:data:`COMPANY`, :data:`PERSON`, :data:`NAME`, :data:`INVALID` or ``""`` for
    no text), the id (company id or lower-case UUID; ``None`` unless ``kind`` is company or person) and an
    HTML message (``""`` when there is nothing to say)."""

    kind: str
    id: str | None
    message: str


def is_person_id(text: Any) -> bool:
    """Whether ``text`` is a UUID (a person's id), in any letter case.

    Examples
    --------
    >>> is_person_id("CFD35D80-F1F6-4762-911E-A0C0413FDB53"), is_person_id("DE-HRB-M1103-152955")
    (True, False)
    """
    try:
        return isinstance(text, str) and len(text.strip()) == 36 and bool(uuid.UUID(text.strip()))
    except ValueError:
        return False


def looks_like_register_entry(text: str) -> bool:
    """Whether ``text`` names a register type and number (``"HRB 152955 Darmstadt"``, ``"VR 31"``).

    Examples
    --------
    >>> looks_like_register_entry("HRB 152955 Darmstadt"), looks_like_register_entry("3D Druck GmbH")
    (True, False)
    """
    return bool(_REGISTER_ENTRY.search(text))


def parse_text(text: str, persons: bool = False) -> Parsed:
    """What typed text is, worked out offline (nothing is sent).

    Parameters
    ----------
    text : str
        A company id, register text (``"HRB 152955 Darmstadt"``), a person UUID, or a company name.
    persons : bool
        Accept person UUIDs (the group crawl does; a company lookup does not).

    Returns
    -------
    Parsed
        The kind, the id, and a message: why it cannot be used, or how a register text was read.

    Examples
    --------
    >>> parse_text("HRB 152955 Darmstadt")[:2]
    ('company', 'DE-HRB-M1103-152955')
    >>> parse_text(" DE-HRB-M1103-152955 ")
    Parsed(kind='company', id='DE-HRB-M1103-152955', message='')
    >>> parse_text("Waldstein Holding")
    Parsed(kind='name', id=None, message='')
    >>> parse_text("HRB 1 Frankfurt").kind
    'invalid'
    """
    stripped = (text or "").strip()
    if not stripped:
        return Parsed("", None, "")
    if is_person_id(stripped):
        if persons:
            return Parsed(PERSON, stripped.lower(), "")
        return Parsed(
            INVALID, None, message_html(f"{stripped} is a person id; look persons up with the PersonExplorer.", "error")
        )
    if stripped[:3].upper() == "DE-":
        try:
            return Parsed(COMPANY, validate_company_id(stripped), "")
        except ValidationError as exc:
            return Parsed(INVALID, None, error_html(exc))
    if looks_like_register_entry(stripped):
        try:
            found = parse_company_id(stripped)
        except ValidationError as exc:
            return Parsed(INVALID, None, error_html(exc))
        return Parsed(
            COMPANY, found, message_html(f"{stripped} is {found} (read offline: nothing sent, 0 credits).", "ok")
        )
    return Parsed(NAME, None, "")


def match_label(result: Mapping[str, Any]) -> str:
    """One line for a company search or autocomplete result.

    Examples
    --------
    >>> match_label({"company_id": "DE-HRB-M1103-1", "name": "A GmbH", "legal_form": "gmbh",
    ...              "register_type": "HRB", "register_number": "1", "register_court": "Darmstadt", "active": False})
    'A GmbH — HRB 1, Darmstadt (GmbH, inactive)'
    """
    state = "" if result.get("active", True) else ", inactive"
    register = f"{result.get('register_type', '')} {result.get('register_number', '')}".strip()
    form = display_label("legal_form", result.get("legal_form"))
    return f"{result['name']} — {register}, {result.get('register_court', '')} ({form}{state})"


def match_frame(results: Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    """Autocomplete (or company search) results as the rows of the explorer's table of matches, best first.

    Returns
    -------
    pandas.DataFrame
        One row per result:

        ==============  ======  ===================================================================
        company_id      str
        name            str
        register        str     register type and number, ``"HRB 152955"``
        register_court  str
        city            str     of the address; null when the result has none
        legal_form      str     the code (``gmbh``; tables show "GmbH")
        status          str     ``active`` or ``inactive`` (autocomplete's ``active`` flag)
        ==============  ======  ===================================================================

    Examples
    --------
    >>> match_frame([{"company_id": "DE-HRB-M1103-1", "name": "A GmbH", "legal_form": "gmbh", "active": True,
    ...               "register_type": "HRB", "register_number": "1", "register_court": "Amtsgericht Darmstadt",
    ...               "address": {"city": "Darmstadt"}}]).iloc[0].tolist()
    ['DE-HRB-M1103-1', 'A GmbH', 'HRB 1', 'Amtsgericht Darmstadt', 'Darmstadt', 'gmbh', 'active']
    """
    rows = [
        {
            "company_id": str(r["company_id"]),
            "name": r.get("name"),
            "register": f"{r.get('register_type') or ''} {r.get('register_number') or ''}".strip() or None,
            "register_court": r.get("register_court"),
            "city": (r.get("address") or {}).get("city"),
            "legal_form": r.get("legal_form"),
            "status": "active" if r.get("active", True) else "inactive",
        }
        for r in results
    ]
    return pd.DataFrame(rows, columns=list(MATCH_COLUMNS), dtype=object)


def _autocomplete(client: RegisterClient, text: str) -> list[dict[str, Any]]:
    return list(client.autocomplete_companies(text))


def find_company_matches(client: RegisterClient, text: str) -> tuple[pd.DataFrame | None, str | None, str]:
    """What the company search box finds: register text offline, a name through autocomplete (0 credits).

    Returns
    -------
    (pandas.DataFrame or None, str or None, str)
        The matches of a name (:func:`match_frame`, at most 10, best first; ``None`` for anything else), the
        id that register text or a company id is (``None`` otherwise), and an HTML message. Errors are in the
        message, never raised.
    """
    parsed = parse_text(text)
    if parsed.kind == "":
        return (
            None,
            None,
            message_html(f"Type a company name (autocomplete: free) or register text, e.g. {REGISTER_EXAMPLE}."),
        )
    if parsed.kind == INVALID:
        return None, None, parsed.message
    if parsed.kind == COMPANY:
        return None, parsed.id, parsed.message or message_html(f"{parsed.id} (nothing sent, 0 credits).", "ok")
    try:
        results = _autocomplete(client, text)
    except RegkitError as exc:
        return None, None, error_html(exc)
    shown = text.strip()
    frame = match_frame(results)
    if frame.empty:
        return (
            frame,
            None,
            message_html(
                f"No company name starts like {shown!r} (autocomplete, 0 credits). "
                f"client.search_companies({shown!r}) also searches former names, register "
                "numbers and cities (10 credits).",
                "warning",
            ),
        )
    if len(frame) == 1:
        return (
            frame,
            None,
            message_html(
                f"One company starts like {shown!r} (autocomplete, 0 credits): {match_label(results[0])}.", "ok"
            ),
        )
    return (
        frame,
        None,
        message_html(
            f"{len(frame)} companies start like {shown!r} (autocomplete, 0 credits): click one to fill in its id.", "ok"
        ),
    )


def _fold(text: str) -> str:
    return " ".join(text.casefold().translate(_FOLD).split())


def name_to_id(client: RegisterClient, name: str) -> tuple[str | None, str]:
    """The company a name means, through autocomplete (0 credits): the one result, or the one whose name is
    ``name`` (case and umlaut spelling aside); else ``None`` and the candidates.

    Returns
    -------
    (str or None, str)
        The company id and an HTML message saying which company was taken (or listing the candidates).
    """
    try:
        results = _autocomplete(client, name)
    except RegkitError as exc:
        return None, error_html(exc)
    exact = [r for r in results if _fold(str(r["name"])) == _fold(name)]
    chosen = exact if len(exact) == 1 else results if len(results) == 1 else []
    if chosen:
        found = chosen[0]
        text = f"{name.strip()!r} is {match_label(found)}: {found['company_id']} (autocomplete, 0 credits)."
        return str(found["company_id"]), message_html(text, "ok")
    if not results:
        return None, message_html(
            f"No company name starts like {name.strip()!r}; type its id or register text (e.g. {REGISTER_EXAMPLE}).",
            "error",
        )
    return None, message_html(
        f"Several companies start like {name.strip()!r}: {_listing(results)}. Type the full "
        "name, the id or the register text.",
        "error",
    )


def _listing(results: Iterable[Mapping[str, Any]]) -> str:
    return "; ".join(f"{r['name']} ({r['company_id']})" for r in results)
