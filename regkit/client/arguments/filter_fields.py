"""What each search filters on: the fields, the members that fit each field, and their values.

One :class:`FilterVocabulary` per search endpoint (insolvencies, companies, persons), so that
:func:`regkit.client.arguments.validation.filters` checks every search the same way before anything is sent.  The
insolvency vocabulary is the interface's (:mod:`regkit.schema.interface`); the company and person
vocabularies follow the research endpoints: the fields the local register serves, plus — for the company
search — the fields only the live service serves (accepted here; the local register answers them with a 400
``unsupported_filter``, which costs nothing).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from regkit.schema import interface as api
from regkit.schema import research

__all__ = ["FilterVocabulary", "INSOLVENCY_FILTERS", "COMPANY_FILTERS", "PERSON_FILTERS", "SEARCH_KINDS"]

_BOOLEAN_TEXT = ("true", "false")
_ENUM = frozenset({"value", "values"})
_TEXT = frozenset({"value", "values", "keywords"})
_DATE = frozenset({"value", "min", "max"})
_RANGE = frozenset({"min", "max"})
_FLAG = frozenset({"value"})


@dataclass(frozen=True)
class FilterVocabulary:
    """The filters of one search.

    Attributes
    ----------
    search : str
        What is searched, for messages (``"company search"``).
    served : tuple of str
        The fields, in the interface's order (those the local register serves).
    members : mapping of str to frozenset of str
        For every accepted field (``served`` and ``live_only``), the members that fit it.
    values : mapping of str to tuple of str
        Allowed ``value``/``values`` of the enum-like fields.
    dates, numbers : frozenset of str
        Fields whose values are dates (sent as ``YYYY-MM-DD``; given as a date, ISO or German ``DD.MM.YYYY``
        text, read day first: :func:`regkit.schema.validate_date`) / numbers (sent as decimal text).
    live_only : tuple of str
        Fields the live service serves besides ``served`` (accepted; the local register refuses them).
    patterns : mapping of str to (re.Pattern, str)
        Fields whose values must match a pattern, with what to say when one does not.
    """

    search: str
    served: tuple[str, ...]
    members: Mapping[str, frozenset[str]]
    values: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    dates: frozenset[str] = frozenset()
    numbers: frozenset[str] = frozenset()
    live_only: tuple[str, ...] = ()
    patterns: Mapping[str, tuple[re.Pattern[str], str]] = field(default_factory=dict)

    @property
    def fields(self) -> tuple[str, ...]:
        """Every accepted field: ``served``, then ``live_only``."""
        return self.served + self.live_only


INSOLVENCY_FILTERS = FilterVocabulary(
    search="insolvency search",
    served=api.FILTER_FIELDS,
    members=api.FILTER_MEMBER_KINDS,
    values=api.FILTER_VALUES,
    dates=frozenset(f for f, kinds in api.FILTER_MEMBER_KINDS.items() if "min" in kinds),
)
"""The insolvency search's filters (``POST /v1/search/insolvency``)."""

_LIVE = research.COMPANY_LIVE_ONLY_MEMBER_KINDS

COMPANY_FILTERS = FilterVocabulary(
    search="company search",
    served=research.COMPANY_FILTER_FIELDS,
    members=MappingProxyType({**research.COMPANY_FILTER_MEMBER_KINDS, **_LIVE}),
    values=MappingProxyType(
        {**research.COMPANY_FILTER_VALUES, **{f: _BOOLEAN_TEXT for f, kinds in _LIVE.items() if kinds == _FLAG}}
    ),
    dates=frozenset(f for f, kinds in {**research.COMPANY_FILTER_MEMBER_KINDS, **_LIVE}.items() if kinds == _DATE),
    numbers=frozenset(f for f, kinds in {**research.COMPANY_FILTER_MEMBER_KINDS, **_LIVE}.items() if kinds == _RANGE),
    live_only=research.COMPANY_LIVE_ONLY_FILTER_FIELDS,
    patterns=MappingProxyType(
        {
            "industry_codes": (
                research.WZ_CODE_PATTERN,
                "a WZ 2025 section letter or code: 'J', '62', '62.1', '62.10', '62.10.0'",
            )
        }
    ),
)
"""The company search's filters (``POST /v1/search/company``): amounts in EUR over the latest reported year,
``incorporated_at`` a date, ``purpose`` keywords, ``industry_codes`` WZ 2025 codes (a code matches every code
below it)."""

PERSON_FILTERS = FilterVocabulary(
    search="person search",
    served=tuple(research.PERSON_FILTER_MEMBER_KINDS),
    members=research.PERSON_FILTER_MEMBER_KINDS,
    values=MappingProxyType({"active": _BOOLEAN_TEXT}),
    dates=frozenset({"date_of_birth"}),
)
"""The person search's filters (``POST /v1/search/person``)."""

SEARCH_KINDS: Mapping[str, FilterVocabulary] = MappingProxyType(
    {"insolvency": INSOLVENCY_FILTERS, "company": COMPANY_FILTERS, "person": PERSON_FILTERS}
)
"""Vocabulary per search kind, as ``Client.estimate_search_cost(kind=...)`` names them."""
