"""Checking arguments before anything is sent, so a mistake never costs credits.

Every function returns the argument in the exact form the interface expects, or raises
:class:`~regkit.errors.ValidationError` saying what is wrong and what is allowed.  The
vocabulary (patterns, filter fields, enums, page bounds) comes from :mod:`regkit.schema.interface`.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from regkit.errors import ValidationError
from regkit.schema import interface as api
from regkit.schema.dates import validate_date

from .filter_fields import INSOLVENCY_FILTERS, FilterVocabulary

__all__ = [
    "id_list",
    "validate_company_id",
    "sendable",
    "insolvency_id",
    "person_id",
    "extract_id",
    "credential_name",
    "credentials",
    "pagination",
    "query",
    "filters",
    "monitor",
    "entity_id",
    "flag",
]

_UUID = api.UUID_PATTERN
_TERM = re.compile(r"[^\W_]+")
_NUMBER_DIGITS = 30
_NUMBER_TEXT = re.compile(r"^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$")


def _fail(message: str, allowed: str = "") -> ValidationError:
    return ValidationError(message, suggestion=f"allowed: {allowed}; nothing was sent" if allowed else None)


def _close(word: str, choices: Iterable[str]) -> str:
    choices = list(choices)
    same = [c for c in choices if c.casefold() == word.casefold()]  # a slip of the letter case: "GmbH"
    match = same or difflib.get_close_matches(word, choices, n=1)
    return f" (did you mean {match[0]!r}?)" if match else ""


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _fail(f"{what} must be a non-empty string, not {value!r}")
    sendable(value, what)
    return value.strip()


def sendable(value: str, what: str) -> None:
    """Refuse text that cannot be sent as UTF-8 (a lone surrogate, e.g. from a mis-decoded file)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise _fail(
            f"{what} contains a character that is not valid text ({value[exc.start]!r} at position "
            f"{exc.start}); it cannot be sent",
            "text that encodes as UTF-8",
        ) from None


def flag(value: Any, what: str) -> bool:
    """A yes/no argument: ``True`` or ``False`` only — ``"false"`` is a non-empty string, which Python
    would read as true and turn into a paid realtime lookup.

    Examples
    --------
    >>> flag(False, "realtime")
    False
    >>> flag("false", "realtime")
    Traceback (most recent call last):
    ...
    regkit.errors.ValidationError: realtime must be True or False, not 'false' (str) — allowed: True or False; nothing was sent
    """
    if isinstance(value, bool):
        return value
    raise _fail(f"{what} must be True or False, not {value!r} ({type(value).__name__})", "True or False")


def validate_company_id(value: Any) -> str:
    """Check a company identifier ``DE-<register type>-<court code>-<number>``; return it stripped.

    Parameters
    ----------
    value : object
        What was passed as a company id.

    Returns
    -------
    str
        The id, surrounding blanks removed.

    Raises
    ------
    ValidationError
        Not an id of that form (with a guess when only the letter case is off).

    See Also
    --------
    regkit.client.parse_company_id : the id of free text such as ``"HRB 152955 Darmstadt"``.

    Examples
    --------
    >>> validate_company_id(" DE-HRB-R3101-94644 ")
    'DE-HRB-R3101-94644'
    """
    text = _text(value, "company_id")
    if api.COMPANY_ID_PATTERN.match(text):
        return text
    hint = ""
    parts = text.split("-")
    if len(parts) == 4:
        fixed = {t.upper(): t for t in api.REGISTER_TYPES}.get(parts[1].upper())
        guess = "-".join([parts[0].upper(), fixed or parts[1], parts[2].upper(), parts[3].upper()])
        if guess != text and api.COMPANY_ID_PATTERN.match(guess):
            hint = f" (did you mean {guess!r}? ids are case-sensitive)"
    if not hint and not text.upper().startswith("DE-"):  # free text, not a mistyped id
        hint = _free_text_hint(text)
    raise _fail(
        f"company_id {text!r} is not a company identifier{hint}",
        "DE-<register type>-<court code>-<register number>, register type one of "
        f"{', '.join(api.REGISTER_TYPES)}, court code a capital letter and four digits, e.g. DE-HRB-R3101-94644",
    )


def _free_text_hint(text: str) -> str:
    """What to do with free text where an id belongs: the id of a register entry as people write it
    (``regkit.parse_company_id``, offline), else where to find a company by name."""
    from .company_ids import parse_company_id

    try:
        found = parse_company_id(text)
    except ValidationError as error:
        if not error.message.startswith("no register type and number"):  # a register entry, short of its court
            return f" — it reads as a register entry: regkit.parse_company_id says {error.message}; {error.suggestion}"
        found = None
    if found is not None:
        return f" (did you mean {found!r}? regkit.parse_company_id({text!r}) reads a register entry as people write it)"
    return (
        f" — for a company by name, client.search_companies({text!r}) finds it (10 credits); for a register entry as "
        "people write it ('HRB 94644 Aachen'), regkit.parse_company_id(...) gives its id (free)"
    )


def insolvency_id(value: Any) -> str:
    """An insolvency proceeding id: a UUID, as the ``id`` of an insolvency search result gives it."""
    text = _text(value, "insolvency_id")
    if not _UUID.match(text):
        raise _fail(
            f"insolvency_id {text!r} is not a proceeding id",
            "a UUID such as '7da364e3-c5b0-4073-9e81-299f0003a075', the id member of a search result",
        )
    return text


def person_id(value: Any) -> str:
    """A person id: a UUID, as ``representation[].id``, an owner's ``id`` or a person search result gives it;
    lower-cased (UUIDs are case-insensitive), so that one person has one cache entry.

    Examples
    --------
    >>> person_id(" 9922B97A-9C35-4D0B-8D2B-3908753A84B7 ")
    '9922b97a-9c35-4d0b-8d2b-3908753a84b7'
    """
    text = _text(value, "person_id")
    if not _UUID.match(text):
        hint = (
            " (that is a company id: use it where a company is asked for)" if api.COMPANY_ID_PATTERN.match(text) else ""
        )
        raise _fail(
            f"person_id {text!r} is not a person id{hint}",
            "a UUID such as '9922b97a-9c35-4d0b-8d2b-3908753a84b7', as representation[].id, an owner's id or "
            "a person search result gives it",
        )
    return text.lower()


def extract_id(value: Any) -> str:
    """A Transparenzregister extract id ``tre_<digits>``."""
    text = _text(value, "extract_id")
    if not api.EXTRACT_ID_PATTERN.match(text):
        raise _fail(f"extract_id {text!r} is not an extract id", "tre_<digits>, as order_extract returned it")
    return text


def credential_name(value: Any, *, storing: bool = False) -> str:
    """A credential set name; ``sandbox`` (in any letter case) is reserved: it cannot be stored, and
    only the exact ``sandbox`` selects the test mode — names are case-sensitive, so ``"Sandbox"`` would
    name a set of credentials that can never exist."""
    text = _text(value, "credential name")
    reserved = text.casefold() == api.SANDBOX_CREDENTIAL_NAME
    if reserved and (storing or text != api.SANDBOX_CREDENTIAL_NAME):
        what = "cannot be stored" if storing else f"is not the test mode: use exactly {api.SANDBOX_CREDENTIAL_NAME!r}"
        raise _fail(
            f"the name {text!r} is reserved for the built-in test mode (in any letter case) and {what}",
            f"any other name matching {api.CREDENTIAL_NAME_PATTERN.pattern}, e.g. {api.DEFAULT_CREDENTIAL_NAME!r}",
        )
    if not api.CREDENTIAL_NAME_PATTERN.match(text):
        raise _fail(f"credential name {text!r} is malformed", api.CREDENTIAL_NAME_PATTERN.pattern)
    return text


def credentials(username: Any, password: Any) -> tuple[str, str]:
    """Register login credentials (the password is never echoed in a message)."""
    if not isinstance(username, str) or not username.strip():
        raise _fail("username must be a non-empty string")
    if not isinstance(password, str) or not password:
        raise _fail("password must be a non-empty string")
    sendable(username, "username")
    try:
        password.encode("utf-8")
    except UnicodeEncodeError:
        raise _fail(
            "password contains a character that is not valid text; it cannot be sent (it is not shown here)"
        ) from None
    return username.strip(), password


def _integer(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(f"{what} must be an integer, not {value!r}")
    return value


def pagination(page: Any, per_page: Any) -> dict[str, int]:
    """``{"page", "per_page"}`` within the interface's bounds."""
    page = _integer(page, "page")
    per_page = _integer(per_page, "per_page")
    if not 1 <= page <= api.PAGE_MAX:
        raise _fail(
            f"page must be 1 or more, not {page}" if page < 1 else f"page {page} is past the last possible page",
            f"1 to {api.PAGE_MAX} (the first page is 1)",
        )
    if not api.PER_PAGE_MIN <= per_page <= api.PER_PAGE_MAX:
        raise _fail(
            f"per_page must lie in [{api.PER_PAGE_MIN}, {api.PER_PAGE_MAX}], not {per_page}",
            f"{api.PER_PAGE_MIN} to {api.PER_PAGE_MAX}",
        )
    return {"page": page, "per_page": per_page}


def query(value: Any) -> str | None:
    """The free-text query (``None`` or blank: no query)."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise _fail(f"query must be a string, not {value!r}")
    sendable(value, "query")
    limits = (
        f"at most {api.MAX_QUERY_LENGTH} characters and {api.MAX_QUERY_TERMS} search terms (runs of letters "
        "or digits), more than the longest company names have; search for fewer, distinctive words, or narrow "
        "the search with filters"
    )
    if len(value) > api.MAX_QUERY_LENGTH:
        raise _fail(f"query is {len(value):,} characters long", limits)
    terms = len(_TERM.findall(value))
    if terms > api.MAX_QUERY_TERMS:
        raise _fail(f"query has {terms} search terms", limits)
    return value.strip() or None


def _date(value: Any, where: str) -> str:
    """A filter's date as the ISO text the interface compares (``"01.02.2024"`` → ``"2024-02-01"``)."""
    try:
        return validate_date(value, where).isoformat()
    except ValidationError as exc:  # refused before anything is sent, as every filter error is
        raise type(exc)(exc.message, suggestion=f"{exc.suggestion}; nothing was sent") from None


def _number(value: Any, where: str) -> str:
    """A number as the decimal text a filter sends (``1000000``, ``2500.5``)."""
    if isinstance(value, bool) or not isinstance(value, (int, float, Decimal, str)):
        raise _fail(f"{where} must be a number, not {value!r}", "an int, a float or decimal text such as '250000'")
    text = value.strip() if isinstance(value, str) else str(value)
    if len(text) > api.MAX_FILTER_TEXT or not _NUMBER_TEXT.match(text):
        raise _fail(f"{where} must be a number, not {value!r}", "an int, a float or decimal text such as '250000'")
    number = Decimal(text)  # finite: the pattern admits no inf or nan
    if not number:
        return "0"
    if not -_NUMBER_DIGITS <= number.adjusted() <= _NUMBER_DIGITS:
        raise _fail(f"{where}: {value!r} is out of range", f"numbers from 1e-{_NUMBER_DIGITS} to 1e{_NUMBER_DIGITS}")
    exact = format(number, "f")
    return exact.rstrip("0").rstrip(".") if "." in exact else exact


def _scalar(field: str, value: Any, where: str, vocabulary: FilterVocabulary) -> str:
    if field in vocabulary.dates:
        return _date(value, where)
    if field in vocabulary.numbers:
        return _number(value, where)
    if isinstance(value, bool):
        value = "true" if value else "false"
    if isinstance(value, (date, datetime)):
        raise _fail(f"{where} takes no date", f"dates only for {', '.join(sorted(vocabulary.dates))}")
    text = _text(value, where)
    if len(text) > api.MAX_FILTER_TEXT:
        raise _fail(f"{where} is {len(text):,} characters long", f"at most {api.MAX_FILTER_TEXT} characters")
    allowed = vocabulary.values.get(field)
    if allowed is not None and text not in allowed:
        article = "an" if field[:1] in "aeiou" else "a"
        raise _fail(f"{where}: {text!r} is not {article} {field} value{_close(text, allowed)}", ", ".join(allowed))
    pattern = vocabulary.patterns.get(field)
    if pattern is not None and not pattern[0].match(text):
        raise _fail(f"{where}: {text!r} does not have the form of {field}", pattern[1])
    if field == "company_id":
        validate_company_id(text)
    if field == "person_id" and not _UUID.match(text):
        raise _fail(f"{where}: {text!r} is not a person id", "a person UUID, as representation[].id gives it")
    return text


def _unknown_field(field: Any, vocabulary: FilterVocabulary) -> ValidationError:
    served = ", ".join(vocabulary.served)
    also = (
        f" (and {len(vocabulary.live_only)} fields only the live service serves: "
        f"regkit.client.arguments.filter_fields.{vocabulary.search.split()[0].upper()}_FILTERS.live_only)"
        if vocabulary.live_only
        else ""
    )
    return _fail(
        f"unknown filter field {field!r}{_close(str(field), vocabulary.fields)} of the {vocabulary.search}",
        served + also,
    )


def _in_order(field: str, low: str, high: str, vocabulary: FilterVocabulary) -> bool:
    return Decimal(low) <= Decimal(high) if field in vocabulary.numbers else low <= high


def _one_filter(spec: Mapping[str, Any], vocabulary: FilterVocabulary) -> dict[str, Any]:
    field = spec.get("field")
    if not isinstance(field, str) or field not in vocabulary.members:
        raise _unknown_field(field, vocabulary)
    members = [m for m in spec if m != "field"]
    unknown = [m for m in members if m not in api.FILTER_MEMBERS]
    if unknown:
        raise _fail(f"filter on {field!r} has unknown member(s) {unknown}", ", ".join(api.FILTER_MEMBERS))
    kinds = {"range" if m in ("min", "max") else m for m in members if spec[m] is not None}
    fits = sorted(vocabulary.members[field])
    if len(kinds) != 1:
        raise _fail(
            f"filter on {field!r} must use exactly one of value, values, keywords or a min/max range, "
            f"not {sorted(kinds) or 'none'}",
            f"for {field}: {', '.join(fits)}",
        )
    out: dict[str, Any] = {"field": field}
    for member in ("value", "values", "keywords", "min", "max"):
        value = spec.get(member)
        if value is None:
            continue
        if member not in vocabulary.members[field]:
            raise _fail(f"filter on {field!r} cannot use {member!r}", f"for {field}: {', '.join(fits)}")
        where = f"filter {field}.{member}"
        if member in ("values", "keywords"):
            if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
                raise _fail(f"{where} must be a list of strings, not {value!r}")
            items = sorted({_scalar(field, v, where, vocabulary) for v in value})
            if not items:
                raise _fail(f"{where} must not be empty")
            if len(items) > api.MAX_FILTER_VALUES:
                raise _fail(
                    f"{where} holds {len(items):,} entries",
                    f"at most {api.MAX_FILTER_VALUES}; split the search, or use a range or keywords",
                )
            out[member] = items
        else:
            out[member] = _scalar(field, value, where, vocabulary)
    if "min" in out and "max" in out and not _in_order(field, out["min"], out["max"], vocabulary):
        order = "above" if field in vocabulary.numbers else "after"
        raise _fail(f"filter {field}: min {out['min']} is {order} max {out['max']}", "min <= max (both inclusive)")
    return out


def _from_mapping_entry(field: str, spec: Any, vocabulary: FilterVocabulary) -> dict[str, Any]:
    if isinstance(spec, Mapping):
        return {"field": field, **spec}
    if isinstance(spec, tuple):
        if len(spec) != 2:
            raise _fail(
                f"filter {field}: a tuple is a (min, max) range and needs two items, not {len(spec)}",
                "a str for one value, a list for several, (min, max) with None for an open end",
            )
        low, high = spec
        if low is None and high is None:
            raise _fail(f"filter {field}: a range needs at least one end")
        return {"field": field, "min": low, "max": high}
    if vocabulary.members.get(field) == frozenset({"keywords"}):  # a keywords-only field: words to look for
        return {"field": field, "keywords": [spec] if isinstance(spec, str) else spec}
    if isinstance(spec, (list, set, frozenset)):
        return {"field": field, "values": list(spec)}
    return {"field": field, "value": spec}


def filters(value: Any, vocabulary: FilterVocabulary = INSOLVENCY_FILTERS) -> list[dict[str, Any]]:
    """Normalise search filters to the interface's list of filter objects.

    Parameters
    ----------
    value : None, mapping or list of mappings
        A mapping ``{field: spec}`` where ``spec`` is a str (``value``), a list (``values``), a
        ``(min, max)`` tuple with ``None`` for an open end, a bool (``has_open_insolvency``), a
        date (a ``datetime.date``, ``datetime``, ``Timestamp`` or ``datetime64``, ISO ``"2024-02-01"`` or
        German ``"01.02.2024"``, read day first and sent as ISO; any other text is a ``ValidationError``), a
        number (amounts of the company search), or a dict of explicit members
        (``{"keywords": [...]}``; a field that takes only keywords, such as the company search's
        ``purpose``, takes a str or list as keywords); or the interface's own list of
        ``{"field": ..., "value" | "values" | "keywords" | "min"/"max": ...}`` objects.
    vocabulary : FilterVocabulary
        Which search's fields (:mod:`regkit.client.arguments.filter_fields`); default the insolvency search's.

    Returns
    -------
    list of dict
        Filter objects, dates as ``YYYY-MM-DD``, numbers as decimal text, sorted by field (and lists
        sorted) so equal searches share one cache entry.

    Examples
    --------
    >>> filters({"court": "Charlottenburg", "opened_at": ("2024-01-01", None)})
    [{'field': 'court', 'value': 'Charlottenburg'}, {'field': 'opened_at', 'min': '2024-01-01'}]
    >>> filters({"opened_at": ("01.02.2024", "29.02.2024")})  # German dates, day first, are sent as ISO
    [{'field': 'opened_at', 'min': '2024-02-01', 'max': '2024-02-29'}]
    >>> from regkit.client.arguments.filter_fields import COMPANY_FILTERS
    >>> filters({"revenue": (1e6, None), "purpose": "Software", "active": True}, COMPANY_FILTERS)
    [{'field': 'active', 'value': 'true'}, {'field': 'purpose', 'keywords': ['Software']}, {'field': 'revenue', 'min': '1000000'}]
    """
    if value is None:
        return []
    if isinstance(value, Mapping):
        specs = [_from_mapping_entry(str(field), spec, vocabulary) for field, spec in value.items()]
    elif isinstance(value, Iterable) and not isinstance(value, (str, bytes)):
        specs = list(value)
        if not all(isinstance(s, Mapping) for s in specs):
            raise _fail("filters given as a list must hold filter objects (dicts with 'field')")
    else:
        raise _fail(f"filters must be a mapping or a list of filter objects, not {type(value).__name__}")
    if len(specs) > api.MAX_FILTERS:
        raise _fail(f"{len(specs)} filters in one search", f"at most {api.MAX_FILTERS}")
    normalised = [_one_filter(spec, vocabulary) for spec in specs]
    return sorted(normalised, key=lambda f: (f["field"], repr(sorted(f.items()))))


def entity_id(entity_type: Any, value: Any) -> str:
    """A monitor's entity: a company id, or a person UUID."""
    if entity_type == "company":
        return validate_company_id(value)
    text = _text(value, "entity_id")
    if not _UUID.match(text):
        raise _fail(f"entity_id {text!r} is not a person id", "a person UUID, as representation[].id gives it")
    return text.lower()


def monitor(entity_type: Any, entity_id_: Any, preferences: Any, update_frequency: Any) -> dict[str, Any]:
    """The body of ``POST /v1/monitor``."""
    if not isinstance(entity_type, str) or entity_type not in api.MONITOR_ENTITY_TYPES:
        shown = (
            repr(entity_type) if isinstance(entity_type, (str, int, float, type(None))) else type(entity_type).__name__
        )
        raise _fail(
            f"entity_type {shown} is not monitorable: the first argument says what to watch",
            f"{', '.join(api.MONITOR_ENTITY_TYPES)}, e.g. client.create_monitor('company', 'DE-HRB-R3101-94644', "
            "['register'])",
        )
    body: dict[str, Any] = {"entity_type": entity_type, "entity_id": entity_id(entity_type, entity_id_)}
    prefs = [preferences] if isinstance(preferences, str) else list(preferences or [])
    if not prefs:
        raise _fail("preferences must name at least one data category", ", ".join(api.PREFERENCES))
    for pref in prefs:
        if pref not in api.PREFERENCES:
            raise _fail(
                f"preference {pref!r} is unknown{_close(str(pref), api.PREFERENCES)}", ", ".join(api.PREFERENCES)
            )
    body["preferences"] = list(dict.fromkeys(prefs))
    if update_frequency is not None:
        if entity_type == "person":
            raise _fail("person monitors are always weekly; leave update_frequency out", "update_frequency=None")
        if update_frequency not in api.UPDATE_FREQUENCIES:
            raise _fail(f"update_frequency {update_frequency!r} is unknown", ", ".join(api.UPDATE_FREQUENCIES))
        body["update_frequency"] = update_frequency
    return body


def id_list(ids: Any, what: str = "ids") -> list[Any]:
    """``ids`` of a bulk call as a list, refusing what is no sequence of ids (nothing sent).

    Raises
    ------
    ArgumentError
        ``None``, a number, a mapping or a DataFrame (its iteration gives column names, not ids): the message
        says to pass a list of ids, e.g. a frame's column as ``frame["company_id"].tolist()``.
    """
    from regkit.errors import ArgumentError

    if hasattr(ids, "columns") and hasattr(ids, "iloc"):
        raise ArgumentError(
            f"{what} must be a list of ids, not a DataFrame (iterating it gives its column names)",
            suggestion="pass one of its columns, e.g. frame['company_id'].tolist(); nothing was sent",
        )
    if ids is None or isinstance(ids, (bytes, Mapping)) or not isinstance(ids, Iterable):
        raise ArgumentError(
            f"{what} must be a list of ids, not {type(ids).__name__} {ids!r:.60}",
            suggestion="e.g. ['DE-HRB-R3101-94644', 'DE-HRB-R2103-65834']; nothing was sent",
        )
    return list(ids)
