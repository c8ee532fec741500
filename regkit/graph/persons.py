"""Who a representative is: one node per person, also where the register gives no id.

The rule
--------
A representation entry (``CompanyRepresentativeV1``) becomes a node as follows.

1. **Legal person whose id is a company id** (``DE-<type>-<court>-<number>``): that company's node.
2. **Legal person with another id**: a ``legal_person`` node with that id.
3. **Legal person without id**: the ``legal_person`` node ``legal:<name>|<city>|<country>`` (normalised,
   see :func:`normalise`); entries with the same three values are one node. Such a node is never
   merged into a company node, even if the names agree.
4. **Natural person with an id**: the node with that id (persons are merged by id).
5. **Natural person without id** (about 4 % of entries): the *identity key* is the normalised full
   name (``first_name last_name``, else ``name``), the date of birth and the normalised city.

   * If exactly one natural person *with* an id in the same input has that key, the entry is merged
     into that person.
   * Otherwise all id-less entries with that key are one node, ``person:<name>|<birth>|<city>``.
   * Without a date of birth a name and a city do not identify anyone: the entry is merged only with
     id-less entries of the same key *at the same company*, node ``person:<name>||<city>@<company id>``.

Normalisation folds case, German umlauts and ß (``Müller`` = ``Mueller`` = ``MÜLLER``), other
diacritics (``é`` = ``e``), punctuation and runs of white space.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping
from typing import Any

from regkit.schema.interface import COMPANY_ID_PATTERN

__all__ = ["normalise", "identity_key", "legal_person_node", "is_company_id", "null_id_node"]

_FOLD = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"})
_NON_WORD = re.compile(r"[\W_]+")


def normalise(text: str | None) -> str:
    """Fold a name or city for comparison.

    Parameters
    ----------
    text : str or None

    Returns
    -------
    str
        Lower case, umlauts spelled out, diacritics and punctuation removed, single spaces;
        ``""`` for ``None``.

    Examples
    --------
    >>> normalise("Hans-Jürgen  GRÄFE"), normalise("Hans Juergen Graefe")
    ('hans juergen graefe', 'hans juergen graefe')
    >>> normalise("Zoë Weiß")
    'zoe weiss'
    """
    if not text:
        return ""
    folded = unicodedata.normalize("NFC", text).lower().translate(_FOLD)
    stripped = "".join(ch for ch in unicodedata.normalize("NFKD", folded) if not unicodedata.combining(ch))
    return _NON_WORD.sub(" ", stripped).strip()


def is_company_id(value: Any) -> bool:
    """Whether ``value`` is a company identifier of the interface.

    Examples
    --------
    >>> is_company_id("DE-HRB-D4501-92697"), is_company_id("6cdc2335-6a25-4908-b9ae-62e692e04346")
    (True, False)
    """
    return isinstance(value, str) and COMPANY_ID_PATTERN.match(value) is not None


def identity_key(entry: Mapping[str, Any], fold: Callable[[str | None], str] = normalise) -> tuple[str, str, str]:
    """The identity key of a natural-person entry: normalised name, date of birth, normalised city.

    Parameters
    ----------
    entry : mapping
        A ``CompanyRepresentativeV1`` of type ``natural_person``.
    fold : callable
        The normalisation (:func:`normalise`, or a cached equivalent).

    Returns
    -------
    tuple of str
        ``(name, date_of_birth or "", city)``; the name is ``first_name last_name`` when both are
        given, else ``name``.

    Examples
    --------
    >>> identity_key({"name": "Marie Hagedorn", "natural_person": {"first_name": "Marie",
    ...     "last_name": "Hagedorn", "date_of_birth": "1968-06-26", "city": "Hof"}})
    ('marie hagedorn', '1968-06-26', 'hof')
    """
    person = entry.get("natural_person") or {}
    first, last = person.get("first_name"), person.get("last_name")
    if first and last:  # normalise("a b") == normalise("a") + " " + normalise("b"), token by token
        name = " ".join(token for token in (fold(first), fold(last)) if token)
    else:
        name = fold(entry.get("name"))
    return name, person.get("date_of_birth") or "", fold(person.get("city"))


def null_id_node(key: tuple[str, str, str], company_id: str) -> str:
    """The node id of id-less natural-person entries with ``key`` that match no person with an id."""
    name, birth, city = key
    node = f"person:{name}|{birth}|{city}"
    return node if birth else f"{node}@{company_id}"


def legal_person_node(entry: Mapping[str, Any]) -> str:
    """The node id of a legal-person entry without a company id (rules 2 and 3 of the module).

    Examples
    --------
    >>> legal_person_node({"id": None, "name": "Acme Ltd.",
    ...                    "legal_person": {"name": "Acme Ltd.", "city": "London", "country": "GB"}})
    'legal:acme ltd|london|gb'
    """
    if entry.get("id"):
        return str(entry["id"])
    person = entry.get("legal_person") or {}
    name = person.get("name") or entry.get("name")
    return f"legal:{normalise(name)}|{normalise(person.get('city'))}|{normalise(person.get('country'))}"
