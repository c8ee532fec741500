"""What each plot takes, checked before anything is drawn: a wrong input is named, with where the right one comes from.

Every public plot of :mod:`regkit.plot` starts with :func:`check_input`: it is handed the plot's name and the kinds
of input the plot takes (:class:`Input`: the frames, records and graphs of this module), finds which one it was
given, and otherwise raises :class:`~regkit.errors.ArgumentError` (a ``ValidationError`` and a ``TypeError``)
whose message names what the plot needs and what it got ("regkit.plot.balance_sheet needs the statements frame or
a financials answer; got the indicators frame of a financials answer (48 measures)"), and whose suggestion says
where to get it ("pass client.get_financials(id) or fin.statements()"). Nothing is drawn before. A string that
looks like a company id is answered with the call that fetches its data.

Frames are told apart by their columns (a frame is what it has the columns of; an empty frame with the right
columns is accepted, and the plot says in the figure that there is nothing to draw), records by their ``kind``
or the members of their JSON (a plain dict works as its record does). The client is not imported: records are
recognised by what they carry.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from regkit.errors import ArgumentError, ValidationError, unexpected_keyword

__all__ = [
    "Input",
    "STATEMENTS",
    "FINANCIAL_INDICATORS",
    "INDICATORS",
    "RATIOS_FRAME",
    "EVENTS",
    "PROCEEDINGS",
    "OWNERSHIP_FRAME",
    "COMPANY",
    "COMPANIES",
    "FINANCIALS",
    "INSOLVENCY",
    "INSOLVENCY_SEARCH",
    "OWNERSHIP_ANSWER",
    "GRAPH",
    "check_input",
    "check_columns",
    "check_axes",
    "check_dates",
    "check_keywords",
    "describe",
    "frame_with",
    "is_figure",
]

_COMPANY_ID = re.compile(r"^DE-[A-Za-z]+-[A-Z]\d{4}-\w+$")


class Input(NamedTuple):
    """A kind of input a plot takes.

    Attributes
    ----------
    name : str
        What it is, as a message says it ("the statements frame").
    where : str
        Where to get it ("fin.statements() or regkit.frames.statements(client.get_financials(id))").
    test : callable
        Whether a value is of this kind.
    fetch : str
        The client call that fetches it for a company id, with ``{id}`` for the id (records and graphs; "" for a
        frame, whose record the plot takes too).
    """

    name: str
    where: str
    test: Callable[[Any], bool]
    fetch: str = ""


def _raw(value: Any) -> Mapping[str, Any] | None:
    """The JSON object behind a record (its ``.raw``) or a dict; ``None`` for anything else."""
    raw = getattr(value, "raw", value)
    return raw if isinstance(raw, Mapping) else None


def frame_with(*columns: str) -> Callable[[Any], bool]:
    """The test of :class:`Input` for a DataFrame with ``columns`` (an empty one with them included)."""

    def test(value: Any) -> bool:
        return isinstance(value, pd.DataFrame) and len(value.columns) > 0 and all(c in value.columns for c in columns)

    return test


def _is_company(value: Any) -> bool:
    raw = _raw(value)
    return raw is not None and "id" in raw and "names" in raw


def _items(value: Any) -> list[Any] | None:
    """The items of a collection (a mapping's values), or ``None`` for a single thing, a string or a frame."""
    if isinstance(value, (str, bytes, pd.DataFrame)) or (_raw(value) is not None and not isinstance(value, Mapping)):
        return None
    if isinstance(value, Mapping):
        return list(value.values())
    if isinstance(value, Iterable) and not isinstance(value, Iterator):
        return list(value)
    return None


def _is_companies(value: Any) -> bool:
    if _is_company(value):
        return True
    items = _items(value)
    present = [item for item in items or [] if item is not None]  # a CompanyBatch's failed slots are None
    return bool(present) and all(_is_company(item) for item in present)


def _is_one_financials(value: Any) -> bool:
    raw = _raw(value)
    if getattr(value, "kind", None) == "financials":
        return True
    return raw is not None and "reports" in raw and "indicators" in raw and "id" not in raw


def _is_financials(value: Any) -> bool:
    """A financials answer, or a mapping of company id → financials answer."""
    if _is_one_financials(value):
        return True
    return isinstance(value, Mapping) and bool(value) and all(_is_one_financials(v) for v in value.values())


def _is_insolvency(value: Any) -> bool:
    raw = _raw(value)
    return raw is not None and "events" in raw and "case_number" in raw


def _is_proceeding_result(value: Any) -> bool:
    return isinstance(value, Mapping) and "case_number" in value and "current_status" in value


def _is_insolvency_search(value: Any) -> bool:
    if getattr(value, "results_of", None) == "insolvency":
        return True
    raw = _raw(value)
    if raw is not None and "results" in raw and "pagination" in raw:
        return all(_is_proceeding_result(r) for r in raw["results"] or [])
    if raw is not None or isinstance(value, (str, bytes, pd.DataFrame)):
        return False
    if isinstance(value, Iterator):  # iter_insolvencies: read by check_input, not here (it can be read once)
        return False
    items = _items(value)
    return bool(items) and all(_is_proceeding_result(i) or _is_insolvency_search(i) for i in items or [])


def _is_ownership_answer(value: Any) -> bool:
    kind = getattr(value, "kind", None)
    if kind is not None and kind != "record":
        return bool(kind == "ownership_history")
    raw = _raw(value)
    if raw is None or not isinstance(raw.get("owners"), list):
        return False
    return all(isinstance(o, Mapping) and "ownership_history" in o for o in raw["owners"])


def _is_graph(value: Any) -> bool:
    import networkx as nx

    return isinstance(value, nx.Graph)


STATEMENTS = Input(
    "the statements frame",
    "fin.statements() (regkit.frames.statements(fin))",
    frame_with(
        "statement",
        "level",
        "consolidated",
        "period_end",
        "report_id",
        "position",
        "path",
        "label",
        "value",
        "is_latest_revision",
    ),
)
RATIOS_FRAME = Input(
    "the ratios frame",
    "fin.ratios() (regkit.frames.ratios(indicators))",
    frame_with("company_id", "date", "equity_ratio"),
)
FINANCIAL_INDICATORS = Input(
    "the indicators frame of a financials answer (48 measures)",
    "fin.indicators() (regkit.frames.indicators(fin))",
    frame_with("date", "revenue", "ebit", "net_income"),
)
INDICATORS = Input(
    "the wide indicators frame",
    "regkit.frames.indicators(companies) (or a record's .indicators())",
    frame_with("company_id", "date", "revenue", "balance_sheet_total"),
)
EVENTS = Input(
    "the events frame of a proceeding",
    "client.get_insolvency(id).events() (regkit.frames.events(proceeding))",
    frame_with(
        "event_type",
        "published_at",
        "decision_date",
        "claims_filing_deadline",
        "report_meeting_at",
        "examination_meeting_at",
    ),
)
PROCEEDINGS = Input(
    "a proceedings frame (one row per proceeding)",
    "regkit.frames.insolvency_results(results) (client.search_all_insolvencies(...).to_dataframe())",
    frame_with("case_number", "current_status"),
)
OWNERSHIP_FRAME = Input(
    "the ownership-history frame",
    "regkit.frames.ownership_history(answer) (client.get_ownership_history(id).to_dataframe())",
    lambda value: (
        frame_with("document_date", "owner_name")(value) and ("share" in value.columns or "percentage" in value.columns)
    ),
)
COMPANY = Input(
    "one company", "client.get_company(id) (or a CompanyV1 dict)", _is_company, "client.get_company({id!r})"
)
COMPANIES = Input(
    "companies",
    "client.get_company(id) or client.get_companies(ids)",
    _is_companies,
    "client.get_company({id!r})",
)
FINANCIALS = Input(
    "a financials answer",
    "client.get_financials(id)",
    _is_financials,
    "client.get_financials({id!r})",
)
INSOLVENCY = Input("a proceeding", "client.get_insolvency(id)", _is_insolvency)
INSOLVENCY_SEARCH = Input(
    "insolvency search results",
    "client.search_all_insolvencies(...) (or a page of client.search_insolvencies(...))",
    _is_insolvency_search,
)
OWNERSHIP_ANSWER = Input(
    "an ownership-history answer",
    "client.get_ownership_history(id)",
    _is_ownership_answer,
    "client.get_ownership_history({id!r})",
)
GRAPH = Input(
    "a group graph",
    "regkit.crawl(client, id) (or regkit.graph.from_companies(companies))",
    _is_graph,
    "regkit.crawl(client, {id!r})",
)

_LONG_INDICATORS = Input(
    "the long indicators frame", "regkit.frames.indicators(..., wide=False)", frame_with("measure", "value", "date")
)
_TIMELINE_BARS = Input(
    "the bars of regkit.plot.timeline_bars",
    "",
    frame_with("lane", "row", "start", "end", "open", "text", "key"),
)

#: Every kind :func:`describe` can name, the most specific first (a ratios frame is also an indicators frame).
_KNOWN = (
    STATEMENTS,
    RATIOS_FRAME,
    FINANCIAL_INDICATORS,
    INDICATORS,
    _LONG_INDICATORS,
    EVENTS,
    PROCEEDINGS,
    OWNERSHIP_FRAME,
    _TIMELINE_BARS,
    COMPANY,
    FINANCIALS,
    INSOLVENCY,
    INSOLVENCY_SEARCH,
    OWNERSHIP_ANSWER,
    GRAPH,
    COMPANIES,
)


def _listed(names: Iterable[str], last: str = "or") -> str:
    names = list(names)
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} {last} {names[-1]}"


def describe(value: Any) -> str:
    """What ``value`` is, as an error message says it ("the statements frame", "None", "the string 'x'").

    Examples
    --------
    >>> describe(None), describe("DE-HRB-B1234-1"), describe(pd.DataFrame())
    ('None', "the string 'DE-HRB-B1234-1'", 'an empty DataFrame (no columns)')
    """
    if value is None:
        return "None"
    if isinstance(value, str):
        return f"the string {value!r}"
    if isinstance(value, pd.DataFrame) and len(value.columns) == 0:
        return "an empty DataFrame (no columns)"
    if _is_companies(value) and not _is_company(value):
        items = [item for item in _items(value) or [] if item is not None]
        return f"{len(items)} compan{'y' if len(items) == 1 else 'ies'} in a {type(value).__name__}"
    for known in _KNOWN:
        if known.test(value):
            return known.name + (f" ({type(value).__name__})" if hasattr(value, "raw") else "")
    if isinstance(value, pd.DataFrame):
        columns = [str(c) for c in value.columns[:6]]
        more = ", …" if len(value.columns) > 6 else ""
        return f"a DataFrame with the columns {', '.join(columns)}{more}"
    kind = getattr(value, "kind", None)
    if hasattr(value, "raw") and isinstance(kind, str):
        return f"a {type(value).__name__} (a {kind.replace('_', ' ')} record)"
    if isinstance(value, Mapping):
        keys = [str(k) for k in list(value)[:6]]
        return f"a dict with the keys {', '.join(keys)}" if keys else "an empty dict"
    if isinstance(value, (list, tuple)) and not value:
        return f"an empty {type(value).__name__}"
    name = type(value).__name__
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"


def check_input(value: Any, plot: str, *accepted: Input) -> tuple[Input, Any]:
    """Which of ``accepted`` ``value`` is, and the value to draw from; else an error saying what ``plot`` needs.

    Parameters
    ----------
    value : object
        What the plot was given.
    plot : str
        The plot's name, for the message (``"balance_sheet"``).
    *accepted : Input
        The kinds the plot takes, in the order the message names them.

    Returns
    -------
    (Input, object)
        The kind found, and the value (a one-shot iterator, such as ``client.iter_insolvencies(...)``, read into
        a list).

    Raises
    ------
    regkit.errors.ArgumentError
        ``value`` is none of them (None, a string, another plot's frame, a frame without columns, a record of
        another kind); the message names what ``plot`` needs and what it got, the suggestion where to get it.

    Examples
    --------
    >>> check_input(None, "balance_sheet", STATEMENTS, FINANCIALS)
    Traceback (most recent call last):
    ...
    regkit.errors.ArgumentError: regkit.plot.balance_sheet needs the statements frame or a financials answer; got \
None — pass one of: fin.statements() (regkit.frames.statements(fin)); client.get_financials(id)
    """
    if isinstance(value, Iterator) and not isinstance(value, (str, bytes)):
        value = list(value)
    for kind in accepted:
        if kind.test(value):
            return kind, value
    needs = _listed(kind.name for kind in accepted)
    wheres = [kind.where for kind in accepted if kind.where]
    suggestion = "pass " + (wheres[0] if len(wheres) == 1 else "one of: " + "; ".join(wheres))
    if isinstance(value, str) and _COMPANY_ID.match(value.strip()):
        fetch = next((kind.fetch for kind in accepted if kind.fetch), "")
        if fetch:
            suggestion = f"a company id is not its data: fetch it first, e.g. {fetch.format(id=value.strip())}"
    raise ArgumentError(f"regkit.plot.{plot} needs {needs}; got {describe(value)}", suggestion=suggestion)


def check_columns(frame: pd.DataFrame, plot: str, needed: Mapping[str, str], accepted: Input) -> None:
    """Refuse a frame that lacks a column the call names (a date, an event): say which, and what was given.

    Parameters
    ----------
    frame : pandas.DataFrame
    plot : str
        The plot's name, for the message.
    needed : mapping of str to str
        Column → why it is needed (the argument that names it: ``"date='opened_at'"``).
    accepted : Input
        The frame the plot takes, for the suggestion.

    Raises
    ------
    regkit.errors.ValidationError
        A column of ``needed`` is not in ``frame``.
    """
    missing = [column for column in needed if column not in frame.columns]
    if missing:
        why = ", ".join(needed[column] for column in missing)
        raise ValidationError(
            f"regkit.plot.{plot} needs the column{'s' if len(missing) > 1 else ''} {', '.join(map(repr, missing))} "
            f"({why}); {describe(frame)} has no such column",
            suggestion=f"name a column the frame has, or pass {accepted.where}",
        )


def is_figure(value: Any) -> bool:
    """Whether ``value`` is a matplotlib Figure (a plain bool: the caller's variable keeps its type)."""
    from matplotlib.figure import Figure

    return isinstance(value, Figure)


def check_axes(ax: Any, what: str = "ax", *, optional: bool = True) -> Any:
    """``ax`` if it is a matplotlib Axes (or ``None``: the plot makes a figure), else :class:`ArgumentError`.

    Parameters
    ----------
    ax : matplotlib.axes.Axes or None
    what : str
        The parameter's name, for the message.
    optional : bool
        ``None`` is allowed (the plot makes a figure); ``False`` for a function that changes the Axes it is given
        (:func:`regkit.plot.year_axis`), which names itself in ``what`` (``"year_axis: ax"``).

    Returns
    -------
    matplotlib.axes.Axes or None
        ``ax``.
    """
    if ax is None and optional:
        return None
    from matplotlib.axes import Axes

    if isinstance(ax, Axes):
        return ax
    if not optional:
        raise ArgumentError(
            f"{what} must be a matplotlib Axes (the one to change); got {describe(ax)}",
            suggestion="pass the Axes a plot drew on (fig, ax = plt.subplots(), or the ax a regkit plot returned)",
        )
    raise ArgumentError(
        f"{what} must be a matplotlib Axes or None; got {describe(ax)}",
        suggestion="pass ax= an Axes (fig, ax = plt.subplots()), or leave it out for a new figure",
    )


def check_dates(dates: Any, function: str) -> np.ndarray:
    """``dates`` as a one-dimensional array, if it is a collection of dates (a list, tuple, array, Series or Index;
    an iterator is read), else :class:`ArgumentError` saying what ``function`` takes.

    The dates themselves are read by the function (text by :func:`regkit.schema.dates.validate_date`); refused
    here is what holds no dates: None, one string, a number, a frame (which of its columns?), numbers (years or
    positions are not dates: ``pandas`` would read them as nanoseconds since 1970).

    Examples
    --------
    >>> check_dates(("2014-12-31",), "fiscal_years").tolist()
    ['2014-12-31']
    >>> check_dates(None, "fiscal_years")
    Traceback (most recent call last):
    ...
    regkit.errors.ArgumentError: regkit.plot.fiscal_years needs the dates the reports end on (a list, array or \
Series of dates); got None — pass a column of dates, e.g. fin.indicators()["date"]; one date in a list: [date]
    """
    if isinstance(dates, Iterator):
        dates = list(dates)
    values = None
    if isinstance(dates, Iterable) and not isinstance(dates, (str, bytes, Mapping, pd.DataFrame)):
        values = np.asarray(dates)
    if values is None or values.ndim != 1 or (values.size and values.dtype.kind in "iufcb"):
        shown = "numbers (years or positions are not dates)" if values is not None and values.ndim == 1 else None
        raise ArgumentError(
            f"regkit.plot.{function} needs the dates the reports end on (a list, array or Series of dates); "
            f"got {shown or describe(dates)}",
            suggestion='pass a column of dates, e.g. fin.indicators()["date"]; one date in a list: [date]',
        )
    return values


def check_keywords(function: str, given: Iterable[str], keywords: Sequence[str], call: str) -> None:
    """Refuse a keyword of ``given`` that is none of ``keywords``, as Python refuses a keyword a function does not
    take ("figure_svg() got an unexpected keyword argument 'x'"), for a plot whose ``**kwargs`` it hands on (to
    ``savefig``, to ``ipysigma.Sigma``): before anything is drawn, with the close keyword (difflib) suggested.

    Parameters
    ----------
    function : str
        The plot's name.
    given : iterable of str
        The keywords its ``**kwargs`` took.
    keywords : sequence of str
        Every keyword it takes: its own and those of what it hands them on to.
    call : str
        What it takes, for the suggestion (``"figure_svg(fig, close=False, **savefig)"``).

    Raises
    ------
    regkit.errors.ArgumentError
        A keyword of ``given`` is not in ``keywords``.
    """
    error = unexpected_keyword(function, given, keywords, call)
    if error is not None:
        raise error
