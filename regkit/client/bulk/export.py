"""``client.export_parquet(directory)``: the client's cache written out as a Parquet dataset (0 credits).

Like the analysis methods of the records (``company.history(...)``), the function (which ``Client.export_parquet``
calls) imports its implementation from
:mod:`regkit.frames` when it is called, so ``import regkit.client`` stays free of pandas and pyarrow; the export
itself is :func:`regkit.frames.export.export_parquet`.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..cache.client_cache import ClientCache

__all__ = ["export_parquet"]


def export_parquet(cache: ClientCache, directory: str | os.PathLike[str], overwrite: bool = False) -> dict[str, Any]:
    """Write everything ``cache`` (a client's cache) holds as Parquet tables with the frames' dtypes (free).

    Companies and their frames (histories, representatives, indicators, links, documents, industry codes,
    contact, insolvency summaries), owners, holdings, persons and their positions, insolvency proceedings
    and their events, the results of cached search pages, and a ``sources`` table saying where and when each
    answer was fetched — one directory of part files per table, and ``manifest.json``. Only the cache is
    read: nothing is sent, no credit is spent, the ledger is untouched. User-scoped answers (extracts) are
    left out. See :func:`regkit.frames.export.export_parquet` for the tables and the manifest.

    Parameters
    ----------
    cache : ClientCache
        The cache to read (``client.cache``; :meth:`regkit.client.Client.export_parquet` passes its own).
    directory : str or path
        A new or empty directory (created with its parents).
    overwrite : bool, default False
        Replace a previous export in ``directory`` (only its manifest and table directories; anything else
        there makes the export refuse, and nothing is deleted).

    Returns
    -------
    dict
        The manifest (also written to ``directory/manifest.json``): per table its rows, files and column
        dtypes; per kind of answer how many were read, exported and expired, from which service and when.

    Raises
    ------
    ValidationError
        The cache is off (``cache=False``), or ``directory`` is a file, or not empty (without ``overwrite``).
    ImportError
        pyarrow is missing: ``pip install pyarrow``.

    Examples
    --------
    >>> manifest = client.export_parquet("register-dataset")   # doctest: +SKIP
    >>> import pandas as pd                                     # doctest: +SKIP
    >>> pd.read_parquet("register-dataset/companies")           # doctest: +SKIP
    """
    from regkit.frames.export import export_parquet

    from ..cache.policy import SCOPE_HEADER

    return export_parquet(cache, directory, overwrite=overwrite, scope_header=SCOPE_HEADER)
