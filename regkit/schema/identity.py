"""Who a representative is: one key per person, the same in ``representatives()`` and in the group graph.

The register gives a representative an id only sometimes. :func:`person_key` is the one rule that
:func:`regkit.frames.representatives` (its ``id`` column), :func:`regkit.graph.from_companies` (its node ids) and
:func:`regkit.schema.changes.diff_answers` (who joined or left between two answers, in the client's diffs and the
local register's events alike) all use, so they join. It lives here, below every layer, and needs nothing but the
standard library (the graph imports it without pandas); :mod:`regkit.frames.identity` re-exports it.

The rule
--------
A representation entry (``CompanyRepresentativeV1``) of company ``C`` has the key

1. its ``id``, where the interface gives one (a UUID for a person, a company id for a company that
   represents another) — whatever else the entry says;
2. a **legal person** without id: ``legal:<name>|<city>|<country>`` — the ``legal_person`` name (else the
   entry's ``name``), its seat and country, each folded by :func:`normalise`;
3. a **natural person** without id: ``person:<name key>|<date of birth>`` (:func:`name_key`). Without a date
   of birth a name identifies nobody beyond one company: ``person:<name key>|@<C>``. With
   ``use_city=True`` the folded city is added as a tie-breaker between namesakes born on the same day,
   ``person:<name key>|<date of birth>|<city>`` (``person:<name key>||<city>@<C>``); it is off by default
   because people move and the register records the city of the day.

The key depends on the entry alone (and on ``C`` without a date of birth), never on other entries: a
person listed with an id at one company and without at another has two keys. A derived key never equals
an id of the interface (those are UUIDs and ``DE-...`` company ids).

The name key
------------
``first_name`` and ``last_name`` joined where both are given, else ``name``; compatibility forms and case
folded (NFKC, ``casefold``); umlauts and ß spelled out (``ä`` → ``ae``, ``ö`` → ``oe``, ``ü`` → ``ue``,
``ß`` → ``ss``; likewise ``æ``, ``ø``, ``œ``), so ``Müller`` = ``Mueller`` = ``MÜLLER``; other diacritics
removed (``é`` → ``e``); academic and honorific titles removed — ``Dr.`` (``Dr. med.``, ``Dr. rer. nat.``,
``Dr.-Ing.``, ``Dr. h. c. mult.``, ...), ``Dres.``, ``Prof.``, ``Professor``, ``Doktor``, ``Doctor``,
``Dipl.-Ing.``, ``Dipl.-Kfm.``, ``Diplom-Kaufmann``, ``Dipl. Betriebswirt (FH)``, ``Ing.``, ``Mag.``,
``MBA``, ``LL.M.``; ``Herr`` / ``Frau`` are *not* removed (both are also surnames); punctuation removed;
the words **sorted**, so neither the first/last split nor the word order matters:
``first="Hans Peter", last="Müller"`` ≡ ``first="Hans", last="Peter Müller"`` ≡ ``name="Müller, Hans Peter"``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeGuard

from regkit.errors import ArgumentError

from .interface import COMPANY_ID_PATTERN
from .person_names import name_key, normalise

__all__ = ["is_company_id", "legal_key", "name_key", "normalise", "person_key"]


def is_company_id(value: Any) -> TypeGuard[str]:
    """Whether ``value`` is a company id of the interface (``DE-<type>-<court>-<number>``).

    Examples
    --------
    >>> is_company_id("DE-HRB-R2103-65834"), is_company_id("6cdc2335-6a25-4908-b9ae-62e692e04346")
    (True, False)
    """
    return isinstance(value, str) and COMPANY_ID_PATTERN.match(value) is not None


def legal_key(entry: Mapping[str, Any]) -> str:
    """The key of a legal-person entry without id (rule 2): ``legal:<name>|<city>|<country>``.

    Examples
    --------
    >>> legal_key({"name": "Acme Ltd.", "legal_person": {"name": "Acme Ltd.", "city": "London", "country": "GB"}})
    'legal:acme ltd|london|gb'
    """
    legal = entry.get("legal_person") or {}
    name = legal.get("name") or entry.get("name")
    return f"legal:{normalise(name)}|{normalise(legal.get('city'))}|{normalise(legal.get('country'))}"


def person_key(entry: Mapping[str, Any], company_id: str, *, use_city: bool = False) -> str:
    """The key of a representative: the interface's id, or the key the module's rule derives.

    Parameters
    ----------
    entry : mapping
        A representation entry (``CompanyRepresentativeV1``).
    company_id : str
        The id of the company that lists it (used only for a natural person without date of birth).
    use_city : bool, default False
        Add a natural person's city to a derived key (a tie-breaker between namesakes born the same day).

    Returns
    -------
    str

    Examples
    --------
    >>> entry = {"id": None, "name": "Dr. Eva Müller", "type": "natural_person", "natural_person": {
    ...     "first_name": "Eva", "last_name": "Mueller", "date_of_birth": "1970-01-02", "city": "Köln"}}
    >>> person_key(entry, "DE-HRB-B1234-1"), person_key(entry, "DE-HRB-B1234-1", use_city=True)
    ('person:eva mueller|1970-01-02', 'person:eva mueller|1970-01-02|koeln')
    >>> person_key({**entry, "id": "6cdc2335-6a25-4908-b9ae-62e692e04346"}, "DE-HRB-B1234-1")
    '6cdc2335-6a25-4908-b9ae-62e692e04346'
    """
    if not isinstance(entry, Mapping):
        raise ArgumentError(
            f"person_key() takes a representative or owner entry (a dict), not {type(entry).__name__}",
            suggestion="pass one entry of a record's representatives or owners (record.raw['representatives'][0])",
        )
    given = entry.get("id")
    if isinstance(given, str) and given:
        return given
    if entry.get("type") == "legal_person":
        return legal_key(entry)
    person = entry.get("natural_person") or {}
    birth = person.get("date_of_birth") or ""
    key = f"person:{name_key(person.get('first_name'), person.get('last_name'), entry.get('name'))}|{birth}"
    if use_city:
        key += f"|{normalise(person.get('city'))}"
    return key if birth else f"{key}@{company_id}"
