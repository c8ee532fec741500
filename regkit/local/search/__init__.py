"""The insolvency and company searches: query models, body parsers, and indexes (FTS5 and numpy columns).

Insolvency search:

:mod:`~regkit.local.search.query` (folded text, phrases, filters, the request and result rows),
:mod:`~regkit.local.search.request` (validating a search body), :mod:`~regkit.local.search.build` (building
the index in result order), :mod:`~regkit.local.search.columns` (filters over column arrays),
:mod:`~regkit.local.search.terms` (the vocabulary and bitmaps of common words) and
:mod:`~regkit.local.search.index` (running searches, side by side).

Company search (``POST /v1/search/company``, ``GET /v1/autocomplete/company``), built the same way:
:mod:`~regkit.local.search.company_rows` (result shape and index rows), :mod:`~regkit.local.search.company_request`
(validating a body), :mod:`~regkit.local.search.company_columns` and :mod:`~regkit.local.search.company_text`
(filters), :mod:`~regkit.local.search.company_terms` (vocabulary, bitmaps, query plans) and
:mod:`~regkit.local.search.company_index` (:class:`~regkit.local.search.company_index.CompanyIndex`).

Person search (``POST /v1/search/person``): :mod:`~regkit.local.search.person_rows` (a person as the endpoints
show them, with their search terms), :mod:`~regkit.local.search.person_request` (validating a body) and
:mod:`~regkit.local.search.person_index` (:class:`~regkit.local.search.person_index.PersonIndex`, FTS5 over the
folded names in the search's order, numpy over the filters).

Each index is one SQLite file (:mod:`~regkit.local.search.index_file`): ``build(path, rows)`` streams the rows and
writes it under a temporary name, renamed into place when complete; ``open(path)`` checks it (a truncated file is
refused) and opens it read-only, reading a page or two; the rest is read when a search needs it.
``in_memory(rows)`` writes the same tables into a shared in-memory database.
"""

__all__: list[str] = []
