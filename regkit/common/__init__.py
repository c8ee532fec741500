"""Helpers every layer above may use: the shared layer beside :mod:`regkit.schema`.

:mod:`regkit.common.memory` pauses the garbage collector while many short-lived objects are made;
:mod:`regkit.common.html` draws the small HTML summaries Jupyter shows (the client's records, the graph's report).
Modules here import :mod:`regkit.schema` and :mod:`regkit.errors` only.
"""

__all__: list[str] = []
