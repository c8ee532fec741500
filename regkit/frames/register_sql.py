"""Register-wide questions in DuckDB over a Parquet export: the tables as views, interlocks and ownership chains in SQL.

A world export (:func:`regkit.frames.world_export.export_world`, ``regkit world export parquet``) holds a whole
register; a cache export (``regkit export parquet``) what was looked up. :func:`connect` opens either in DuckDB
with every table as a view, so a question about five million companies is one query, run on every core, reading
only the columns it needs. Two questions regkit answers on a graph are answered here in SQL with the same rules and
the same frame, so the register-wide answer equals the graph's on the same companies:

- :func:`interlocks` — persons serving several companies at the same time (:func:`regkit.graph.interlocks`);
- :func:`subsidiaries` — every company a company or person holds, through chains of holdings, with the effective
  share (:func:`regkit.graph.subsidiaries` over a graph with the export's holdings).
"""

from __future__ import annotations

import datetime as _dt
import json
import os
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from regkit.errors import ValidationError
from regkit.schema import validate_date

from .export_files import MANIFEST

__all__ = ["connect", "interlocks", "subsidiaries", "SERVING_ROLES"]

#: Roles in which a person serves a company: every role but ``SHAREHOLDER`` (as :data:`regkit.graph.SERVING_ROLES`).
SERVING_ROLES = ("DIRECTOR", "PROKURA", "OWNER", "PARTNER", "PERSONAL_LIABLE_DIRECTOR", "LIQUIDATOR", "OTHER")

# The open bounds of a mandate, as regkit.graph.interlocks sweeps them (datetime.date's range).
_FIRST, _LAST = _dt.date.min, _dt.date.max


def _duckdb() -> Any:
    try:
        import duckdb
    except ImportError as exc:
        raise ImportError(
            "register-wide SQL needs duckdb, which is not installed: pip install duckdb (regkit's notebooks extra: "
            "pip install -e '.[notebooks]' in the checkout)"
        ) from exc
    return duckdb


def _sql_text(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def connect(directory: str | os.PathLike[str], database: str = ":memory:") -> Any:
    """A DuckDB connection with every table of the Parquet export in ``directory`` as a view of its part files.

    Parameters
    ----------
    directory : str or path
        A directory ``export_world`` or ``export_parquet`` wrote (it holds ``manifest.json``).
    database : str, default ``":memory:"``
        Where DuckDB keeps what you create beside the views (a file path keeps it).

    Returns
    -------
    duckdb.DuckDBPyConnection
        With one view per table of the manifest (``companies``, ``representatives``, ``holdings``, …): ``SELECT
        legal_form, count(*) FROM companies GROUP BY ALL``. The views read the part files when queried; nothing is
        loaded before.

    Raises
    ------
    ValidationError
        ``directory`` holds no regkit export.
    ImportError
        duckdb is not installed.

    Examples
    --------
    >>> from regkit.frames.register_sql import connect                 # doctest: +SKIP
    >>> con = connect("register-dataset")                               # doctest: +SKIP
    >>> con.sql("SELECT status, count(*) AS n FROM companies GROUP BY ALL ORDER BY n DESC").df()  # doctest: +SKIP
    """
    duckdb = _duckdb()
    root = Path(directory).expanduser()
    try:
        manifest = json.loads((root / MANIFEST).read_text(encoding="utf-8"))
        tables = manifest["tables"]
    except (OSError, ValueError, KeyError, TypeError):
        raise ValidationError(
            f"{root} holds no regkit Parquet export (no readable {MANIFEST})",
            suggestion="write one first: regkit world export parquet DIR (a whole world) or regkit export parquet "
            "DIR (the cache)",
        ) from None
    connection = duckdb.connect(database)
    for name, table in tables.items():
        files = ", ".join(_sql_text(str(root / f)) for f in table["files"])
        connection.execute(f'CREATE OR REPLACE VIEW "{name}" AS SELECT * FROM read_parquet([{files}])')
    return connection


def _check_min(min_companies: Any) -> int:
    if isinstance(min_companies, bool) or not isinstance(min_companies, int) or min_companies < 1:
        raise ValidationError(f"min_companies must be a positive integer, not {min_companies!r}")
    return min_companies


# The mandates that serve days (a start on or after the end serves none: regkit.frames.mandates), the open bounds
# as the first and last date; per person and company the union of their overlapping or touching days; the days on
# which a person's set of companies changes; the set on each period between them; periods with the same set, one
# after the other, merged.
_INTERLOCKS = """
WITH entries AS (
    SELECT id AS person, company_id AS company, name, type, role, start_date, end_date,
           row_number() OVER () AS position
    FROM representatives
),
mandates AS (
    SELECT person, company,
           coalesce(CAST(start_date AS DATE), DATE '0001-01-01') AS s,
           coalesce(CAST(end_date AS DATE), DATE '9999-12-31') AS e
    FROM entries
    WHERE type = 'natural_person' AND role IN ({roles})
      AND (start_date IS NULL OR end_date IS NULL OR start_date < end_date)
),
served AS (
    SELECT person FROM mandates GROUP BY person HAVING count(DISTINCT company) >= {minimum}
),
flagged AS (
    SELECT m.*, CASE WHEN s <= max(e) OVER (PARTITION BY m.person, company ORDER BY s, e
                                          ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)
                     THEN 0 ELSE 1 END AS opens
    FROM mandates AS m SEMI JOIN served USING (person)
),
islands AS (
    SELECT *, sum(opens) OVER (PARTITION BY person, company ORDER BY s, e ROWS UNBOUNDED PRECEDING) AS island
    FROM flagged
),
spans AS (
    SELECT person, company, min(s) AS s, max(e) AS e FROM islands GROUP BY person, company, island
),
days AS (
    SELECT DISTINCT person, s AS day FROM spans UNION SELECT DISTINCT person, e FROM spans
),
periods AS (
    SELECT person, day AS start, lead(day) OVER (PARTITION BY person ORDER BY day) AS stop FROM days
),
sets AS (
    SELECT p.person, p.start, p.stop, list(sp.company ORDER BY sp.company) AS companies
    FROM periods AS p JOIN spans AS sp ON sp.person = p.person AND sp.s <= p.start AND sp.e >= p.stop
    WHERE p.stop IS NOT NULL
    GROUP BY p.person, p.start, p.stop
    HAVING count(*) >= {minimum}
),
runs AS (
    SELECT *, CASE WHEN lag(companies) OVER w = companies AND lag(stop) OVER w = start THEN 0 ELSE 1 END AS opens
    FROM sets WINDOW w AS (PARTITION BY person ORDER BY start)
),
numbered AS (
    SELECT *, sum(opens) OVER (PARTITION BY person ORDER BY start ROWS UNBOUNDED PRECEDING) AS run FROM runs
),
merged AS (
    SELECT person, any_value(companies) AS companies, min(start) AS start, max(stop) AS stop
    FROM numbered GROUP BY person, run
),
names AS (
    SELECT person, arg_min(name, position) AS name FROM entries SEMI JOIN served USING (person) GROUP BY person
),
flat AS (
    SELECT person, start, unnest(companies) AS company, generate_subscripts(companies, 1) AS i FROM merged
),
company_names AS (
    SELECT f.person, f.start, list(c.name ORDER BY f.i) AS company_names
    FROM flat AS f LEFT JOIN companies AS c ON c.company_id = f.company
    GROUP BY f.person, f.start
)
SELECT m.person, n.name, len(m.companies) AS n_companies, m.companies, cn.company_names, m.start, m.stop
FROM merged AS m JOIN names AS n USING (person) JOIN company_names AS cn USING (person, start)
ORDER BY m.person, m.start
"""


def interlocks(connection: Any, min_companies: int = 2, *, roles: Any = SERVING_ROLES) -> pd.DataFrame:
    """People who serve several companies at the same time, and when — :func:`regkit.graph.interlocks` in SQL.

    Parameters
    ----------
    connection : duckdb.DuckDBPyConnection
        From :func:`connect` (its ``representatives`` and ``companies`` views).
    min_companies : int, default 2
        Report periods in which a person serves at least this many distinct companies.
    roles : iterable of str
        Roles that count as serving; default :data:`SERVING_ROLES` (all but ``SHAREHOLDER``).

    Returns
    -------
    pandas.DataFrame
        The frame of :func:`regkit.graph.interlocks` with the same rules (natural persons; a mandate serves the days
        of :func:`regkit.frames.mandates.mandate_days`; several mandates at one company count once; half-open
        periods), over every company of the export: equal to ``regkit.graph.interlocks(G)`` for ``G =
        regkit.graph.from_companies(the same company records)``. A person's ``name`` is the one of their first entry
        (in the order of the export: by company id).

        =============  ===============  ======================================================
        person         str              the person's id (``representatives.id``)
        name           str              the person's name
        n_companies    int64            companies served at the same time
        companies      object           tuple of their ids, sorted
        company_names  object           tuple of their current names, in the order of ``companies``
        start          datetime64[us]   first day of the overlap (NaT: a mandate without start date)
        end            datetime64[us]   first day it no longer holds (NaT: still ongoing)
        days           Int64            ``end - start`` in days (<NA> when open)
        =============  ===============  ======================================================
    """
    minimum = _check_min(min_companies)
    wanted = sorted({str(r) for r in roles})
    if not wanted:
        raise ValidationError("roles must name at least one role", suggestion=f"e.g. {SERVING_ROLES}")
    sql = _INTERLOCKS.format(roles=", ".join(_sql_text(r) for r in wanted), minimum=minimum)
    found = connection.execute(sql).fetchall()
    starts = [None if row[5] == _FIRST else row[5] for row in found]
    ends = [None if row[6] == _LAST else row[6] for row in found]
    return pd.DataFrame(
        {
            "person": _str([row[0] for row in found]),
            "name": _str([row[1] for row in found]),
            "n_companies": np.array([row[2] for row in found], dtype=np.int64),
            "companies": _objects([tuple(row[3]) for row in found]),
            "company_names": _objects([tuple(row[4]) for row in found]),
            "start": _dates(starts),
            "end": _dates(ends),
            "days": pd.array([(e - s).days if s and e else None for s, e in zip(starts, ends)], dtype="Int64"),
        }
    )


def _company_names(connection: Any, ids: set[str]) -> dict[str, Any]:
    if not ids:
        return {}
    rows = connection.execute(
        "SELECT company_id, name FROM companies WHERE company_id IN (SELECT unnest(?::VARCHAR[]))", [sorted(ids)]
    )
    return dict(rows.fetchall())


def _str(values: list[Any]) -> pd.Series:
    return pd.Series(np.array(values, dtype=object), dtype="str")


def _objects(values: list[Any]) -> pd.Series:
    column = np.empty(len(values), dtype=object)
    column[:] = values
    return pd.Series(column, dtype=object)


def _dates(values: list[_dt.date | None]) -> np.ndarray:
    return np.array([np.datetime64("NaT") if v is None else np.datetime64(v, "D") for v in values]).astype(
        "datetime64[us]"
    )


def subsidiaries(connection: Any, company_id: str, min_share: float = 0.0, date: Any = None) -> pd.DataFrame:
    """Every company ``company_id`` holds, directly or through others, with its effective share — in SQL.

    The chains are followed by a recursive query over the export's ``holdings`` (an ownership edge each, holder →
    company, shares as fractions) and its ``representatives`` ``SHAREHOLDER`` entries (a holding of unknown share
    where no holding row is in force), with the rules of :func:`regkit.graph.subsidiaries`: a chain never visits a
    company twice; its share is the product of its shares; a company's effective share is the sum over its chains,
    unknown (<NA>) when a chain through it has an unknown share.

    Parameters
    ----------
    connection : duckdb.DuckDBPyConnection
        From :func:`connect` (its ``holdings``, ``representatives`` and ``companies`` views).
    company_id : str
        The holder: a company id or a person's id.
    min_share : float, default 0.0
        Keep companies held at least this fraction (0.5 = 50 %); unknown shares only with 0.
    date : date-like, optional
        Holdings in force on this day; default those in force now (without an end).

    Returns
    -------
    pandas.DataFrame
        The frame of :func:`regkit.graph.subsidiaries` (``company_id``, ``name``, ``effective_share``,
        ``direct_share``, ``depth``, ``parents``, ``paths``), in its order; no rows for a holder that holds
        nothing.
    """
    if not isinstance(company_id, str) or not company_id:
        raise ValidationError(f"company_id must be a company id or a person's id, not {company_id!r}")
    if isinstance(min_share, bool) or not isinstance(min_share, (int, float)) or not 0.0 <= min_share <= 1.0:
        raise ValidationError(
            f"min_share must be a fraction between 0 and 1, not {min_share!r}",
            suggestion="e.g. min_share=0.5 for more than half (fractions: 0.5 = 50 %)",
        )
    day = validate_date(date, "date", optional=True)
    _ownership_edges(connection, day)
    chains = connection.execute(
        """
        WITH RECURSIVE chains(company, parent, share, depth, path) AS (
            SELECT company, holder, share, 1, [holder, company] FROM regkit_edges WHERE holder = ?
            UNION ALL
            SELECT e.company, e.holder, c.share * e.share, c.depth + 1, list_append(c.path, e.company)
            FROM chains AS c JOIN regkit_edges AS e ON e.holder = c.company
            WHERE NOT list_contains(c.path, e.company)
        )
        SELECT company, parent, share, depth FROM chains
        """,
        [company_id],
    ).fetchall()
    direct = dict(
        connection.execute("SELECT company, share FROM regkit_edges WHERE holder = ?", [company_id]).fetchall()
    )
    found: dict[str, dict[str, Any]] = {}
    for company, parent, share, depth in chains:
        row = found.setdefault(company, {"share": 0.0, "unknown": False, "depth": depth, "parents": set(), "paths": 0})
        row["paths"] += 1
        row["parents"].add(parent)
        row["depth"] = min(row["depth"], depth)
        if share is None:
            row["unknown"] = True
        else:
            row["share"] += share
    floor = float(min_share)
    rows = [
        (cid, row)
        for cid, row in found.items()
        if (not row["unknown"] and row["share"] >= floor - 1e-12) or (row["unknown"] and floor == 0.0)
    ]
    rows.sort(key=lambda item: (item[1]["depth"], item[1]["unknown"], -item[1]["share"], item[0]))
    names = _company_names(connection, {cid for cid, _ in rows})
    return pd.DataFrame(
        {
            "company_id": _str([cid for cid, _ in rows]),
            "name": _str([names.get(cid) for cid, _ in rows]),
            "effective_share": pd.array([None if r["unknown"] else r["share"] for _, r in rows], dtype="Float64"),
            "direct_share": pd.array([direct.get(cid) for cid, _ in rows], dtype="Float64"),
            "depth": np.array([r["depth"] for _, r in rows], dtype=np.int64),
            "parents": _objects([tuple(sorted(r["parents"])) for _, r in rows]),
            "paths": np.array([r["paths"] for _, r in rows], dtype=np.int64),
        }
    )


def _in_force_sql(start: str, end: str, day: _dt.date | None) -> str:
    """The SQL condition that a row with the bounds ``start`` and ``end`` is in force on ``day`` (None: now), as
    :func:`regkit.frames.mandates.mandate_active` says."""
    some_day = f"({start} IS NULL OR {end} IS NULL OR {start} < {end})"
    if day is None:
        return f"{some_day} AND {end} IS NULL"
    on = f"DATE '{day.isoformat()}'"
    return f"{some_day} AND ({start} IS NULL OR {start} <= {on}) AND ({end} IS NULL OR {on} < {end})"


def _ownership_edges(connection: Any, day: _dt.date | None) -> None:
    """The temporary table ``regkit_edges`` (holder, company, share): the holding rows in force on ``day`` (None:
    now) added up over a pair (unknown, NULL, if one has no share), and a ``SHAREHOLDER`` entry in force where no
    holding row is, of unknown share — the ownership edges :func:`regkit.graph.subsidiaries` follows."""
    connection.execute(
        f"""
        CREATE OR REPLACE TEMP TABLE regkit_edges AS
        WITH owned AS (
            SELECT holder_id AS holder, company_id AS company,
                   CASE WHEN bool_or(share IS NULL) THEN NULL ELSE sum(share) END AS share
            FROM holdings
            WHERE holder_id IS NOT NULL AND {_in_force_sql("start", '"end"', day)}
            GROUP BY holder_id, company_id
        ),
        listed AS (
            SELECT DISTINCT id AS holder, company_id AS company, CAST(NULL AS DOUBLE) AS share
            FROM representatives
            WHERE role = 'SHAREHOLDER' AND id IS NOT NULL AND {_in_force_sql("start_date", "end_date", day)}
        )
        SELECT * FROM owned UNION ALL (SELECT * FROM listed ANTI JOIN owned USING (holder, company))
        """
    )
