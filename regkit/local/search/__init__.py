"""The insolvency search: the query model, the body parser, and the index (FTS5 and numpy columns).

:mod:`~regkit.local.search.query` (folded text, phrases, filters, the request and result rows),
:mod:`~regkit.local.search.request` (validating a search body), :mod:`~regkit.local.search.build` (building
the index in result order), :mod:`~regkit.local.search.columns` (filters over column arrays),
:mod:`~regkit.local.search.terms` (the vocabulary and bitmaps of common words) and
:mod:`~regkit.local.search.index` (running searches, side by side).
"""

__all__: list[str] = []
