"""Every mistake gets a regkit answer (issue 40): the public API called wrongly raises a ``RegkitError`` whose
message says what to do, and the client sends nothing for it.

The walk enumerates the public functions of ``regkit``, ``regkit.frames``, ``regkit.graph``, ``regkit.plot`` and
``regkit.widgets``, the classes users build and every public method of ``regkit.Client`` (never a hand list: a new
public function is walked the day it is exported), and calls each with (a) a mistyped keyword and (b) a first
argument of the wrong kind — ``None``, a string, an int, a frame of the wrong kind — filling the other required
arguments with real things from the bundled world (:mod:`misuse_support`). ``test_a_new_users_ten_mistakes`` makes
the mistakes of a first afternoon (the interrupt is tested with the client's interrupts).
"""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from misuse_support import (
    COMPANY,
    GROUP_TOP,
    PARENT,
    World,
    client_methods,
    keywords,
    open_world,
    public_classes,
    public_functions,
    takes_any_keyword,
    typo,
)

import regkit
from regkit.errors import ArgumentError, RegkitError, ValidationError

FUNCTIONS = public_functions()
CLASSES = public_classes()
METHODS = client_methods()

#: Classes a user builds (walked like functions); every other public class is one regkit hands out.
BUILT_BY_USERS = {
    "regkit.Client",
    "regkit.CachePolicy",
    "regkit.RetryPolicy",
    "regkit.widgets.CompanyExplorer",
    "regkit.widgets.InsolvencyExplorer",
    "regkit.widgets.GroupExplorer",
    "regkit.widgets.PersonExplorer",
    "regkit.CompanyExplorer",  # the explorers again, re-exported by regkit
    "regkit.InsolvencyExplorer",
    "regkit.GroupExplorer",
    "regkit.PersonExplorer",
    "regkit.plot.EuroFormatter",
    "regkit.plot.YearStepLocator",
}

#: What regkit hands out — records, results, estimates, reports — built by regkit from an answer, not by a user.
HANDED_OUT = {
    *(f"regkit.{name}" for name in dir(regkit) if name.endswith(("Record", "Page", "Results", "Suggestions"))),
    "regkit.CompanyBatch",
    "regkit.frames.CompanyAsOf",
    "regkit.CompanyAsOf",  # handed out by as_of
    "regkit.CostEstimate",
    "regkit.Downloads",
    "regkit.DownloadEstimate",
    "regkit.graph.Climb",
    "regkit.graph.ClimbEstimate",
    "regkit.graph.CrawlReport",
    "regkit.graph.LevelEstimate",
    "regkit.graph.Organkreis",
}

#: Functions that take anything as their first argument by design, with why (the walk skips their argument (b)).
TAKES_ANYTHING = {
    "regkit.frames.parse_amount": "published text → an amount; anything else is None, never an error (its docstring)",
    "regkit.frames.parse_date": "published text → a date; anything else is None, never an error (its docstring)",
    "regkit.plot.source_of": "the source line what it is given carries, else the session's default: any object",
    "regkit.frames.example_company": "takes no argument",
    "regkit.plot.deterministic": "ipython= and svg= are flags; the first is not data",
}

#: First parameters that take a string: a string is wrong only where it must be an id (or a date), and ``None`` only
#: where the parameter has no default of ``None``.
ID_PARAMETERS = {
    "text",
    "seeds",
    "company_id",
    "person_id",
    "insolvency_id",
    "extract_id",
    "document_id",
    "entity_id",
    "entity_type",
    "category",
    "date",
    "url",
}
FREE_TEXT_PARAMETERS = {"query", "source", "username", "call", "directory", "api_key", "path"}

#: First parameters for which a number is a right kind; ``None`` is right for the nullable ones.
NUMBER_PARAMETERS = {"amount", "value", "retries", "company", "max_ticks"}  # a number is right there
NULLABLE = {"amount", "value", "source"}  # a null amount or share; set_default_source(None) resets the line


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    yield from open_world(tmp_path_factory.mktemp("misuse"))


def argument_values(world: World) -> dict[str, Any]:
    """Right values for the required parameters after the first, by name (made once per world: the answers in it are
    fetched before any count of what a wrong call sent)."""
    if world.values:
        return world.values
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    _, ax = plt.subplots()
    world.values = {
        "date": "2024-01-01",
        "field": "names",
        "seeds": COMPANY,
        "company_id": GROUP_TOP,
        "currency": "EUR",
        "scale": 100,
        "answer": world.client.get_ownership_history(GROUP_TOP),
        "service": world.client.get_ubos(GROUP_TOP),
        "extract": {"report": {}},
        "path": world.directory / "graph.out",
        "dates": ["2024-01-01"],
        "start": "2020-01-01",
        "end": "2024-01-01",
        "ax": ax,
        "G": world.graph,
        "client": world.client,
        "entity_id": COMPANY,
        "preferences": ["all"],
        "directory": world.directory / "downloads",
        "category": "AD",
        "password": "a password",
        "company": world.record,
        "after": world.record,
        "fig": ax.figure,
    }
    return world.values


def wrongs(parameter: inspect.Parameter) -> list[str]:
    """The wrong kinds of first argument to try for ``parameter``."""
    kinds = ["frame"]
    if parameter.name not in NULLABLE and parameter.default is not None:
        kinds.append("None")
    if parameter.name in ID_PARAMETERS or parameter.name not in FREE_TEXT_PARAMETERS:
        kinds.append("str")
    if parameter.name not in NUMBER_PARAMETERS:
        kinds.append("int")
    return kinds


def first_parameter(function: Callable[..., Any]) -> inspect.Parameter | None:
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    for p in inspect.signature(function).parameters.values():
        if p.name != "self":
            return p if p.kind in positional else None
    return None


def wrong_cases() -> list[Any]:
    cases = []
    walked: dict[str, Callable[..., Any]] = {
        **{n: f for n, f in FUNCTIONS.items() if n not in TAKES_ANYTHING},
        **{n: CLASSES[n] for n in sorted(BUILT_BY_USERS)},
        **{f"Client.{n}": m for n, m in METHODS.items()},
    }
    for name, function in walked.items():
        parameter = first_parameter(function)
        if parameter is not None:
            cases += [pytest.param(name, kind, id=f"{name}-{kind}") for kind in wrongs(parameter)]
    return cases


def call_with(world: World, name: str, first: Any) -> Any:
    """Call ``name`` with ``first`` as its first argument and right values for the other required ones."""
    values = argument_values(world)
    if name.startswith("Client."):
        function = getattr(world.client, name.partition(".")[2])
        parameters = list(inspect.signature(function).parameters.values())
    else:
        function = FUNCTIONS.get(name) or CLASSES[name]
        parameters = [p for p in inspect.signature(function).parameters.values() if p.name != "self"]
    args = [first]
    kwargs = {}
    for p in parameters[1:]:
        if p.default is not inspect.Parameter.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        if p.kind is p.KEYWORD_ONLY:
            kwargs[p.name] = values[p.name]
        else:
            args.append(values[p.name])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


# -- the walk covers everything public ----------------------------------------------------------------------------


def test_the_walk_covers_every_public_name() -> None:
    assert (
        len(FUNCTIONS) > 90
        and "regkit.parse_company_id" in FUNCTIONS
        and "regkit.graph.crawl" in FUNCTIONS
        and "regkit.frames.history" in FUNCTIONS
    )
    assert {"get_company", "get_companies", "search_insolvencies", "estimate_cost"} <= set(METHODS)
    unsorted = set(CLASSES) - BUILT_BY_USERS - HANDED_OUT
    assert not unsorted, f"new public classes: add each to BUILT_BY_USERS (walked) or HANDED_OUT: {sorted(unsorted)}"
    assert set(TAKES_ANYTHING) <= set(FUNCTIONS), "TAKES_ANYTHING names a function that is no longer public"


def test_dir_of_regkit_shows_public_names_only() -> None:
    shown = set(dir(regkit))
    assert not shown & {"annotations", "logging", "lazy_exports", "_EXPORTS", "_SUBPACKAGES"}
    assert set(regkit.__all__) <= shown
    assert all(not name.startswith("_") or name == "__version__" for name in shown), sorted(shown)


def test_a_signature_is_the_functions_own() -> None:
    """The wrapper that explains mistakes is invisible to ``inspect.signature``, ``help()`` and Sphinx."""
    from regkit.graph import crawler

    assert inspect.signature(regkit.graph.crawl) == inspect.signature(crawler.crawl)
    assert regkit.graph.crawl.__doc__ == crawler.crawl.__doc__
    assert regkit.crawl is regkit.graph.crawl
    assert "depth" in inspect.signature(regkit.crawl).parameters
    assert list(inspect.signature(regkit.plot.ratios).parameters)[0] == "frame"


def test_a_typeerror_inside_a_function_is_not_mistaken_for_a_wrong_call() -> None:
    """Only Python's refusal to bind the call itself is explained; a TypeError raised inside passes as it is."""
    from regkit.errors import explain_arguments

    @explain_arguments
    def inner(x: Any) -> Any:
        return len(x)

    with pytest.raises(TypeError) as caught:
        inner(1)
    assert not isinstance(caught.value, RegkitError)
    with pytest.raises(ArgumentError, match=r"did you mean x=\?"):
        inner(xx=1)


# -- (a) a mistyped keyword --------------------------------------------------------------------------------------


def assert_explains_typo(caught: pytest.ExceptionInfo[BaseException], shown: str, bad: str, meant: str | None) -> None:
    error = caught.value
    assert isinstance(error, ArgumentError) and isinstance(error, TypeError), repr(error)
    message = str(error)
    assert f"{shown}() got an unexpected keyword argument '{bad}'" in message, message
    assert error.suggestion, message
    if meant is not None:
        assert f"{meant}=" in error.suggestion, message


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_a_mistyped_keyword_names_the_close_one(name: str, world: World) -> None:
    function = FUNCTIONS[name]
    names = keywords(function)
    meant = names[-1] if names else None
    bad = typo(meant) if meant else "progres"
    argument_values(world)
    before = world.sent()
    with pytest.raises(TypeError) as caught:
        if takes_any_keyword(function):  # its **kwargs take any name: it checks them itself, after binding
            values = argument_values(world)
            required = [
                values.get(p.name, world.record)
                for p in inspect.signature(function).parameters.values()
                if p.default is p.empty and p.kind is p.POSITIONAL_OR_KEYWORD
            ]
            function(*required, **{bad: 1})
        else:
            function(**{bad: 1})
    assert_explains_typo(caught, function.__name__, bad, meant)
    assert world.sent() == before


@pytest.mark.parametrize("name", sorted(BUILT_BY_USERS))
def test_a_mistyped_keyword_to_a_class_names_the_close_one(name: str, world: World) -> None:
    cls = CLASSES[name]
    names = keywords(cls)
    meant = names[-1]
    bad = typo(meant)
    with pytest.raises(TypeError) as caught:
        cls(world.client, **{bad: 1}) if "Explorer" in name else cls(**{bad: 1})
    assert_explains_typo(caught, f"{cls.__qualname__}.__init__", bad, meant)


@pytest.mark.parametrize("name", sorted(METHODS))
def test_a_mistyped_keyword_to_a_client_method_names_the_close_one(name: str, world: World) -> None:
    method = getattr(world.client, name)
    names = keywords(METHODS[name])
    meant = names[-1] if names else None
    bad = typo(meant) if meant else "progres"
    before = world.sent()
    with pytest.raises(TypeError) as caught:
        method(**{bad: 1})
    assert str(caught.value).startswith(f"Client.{name}() got an unexpected keyword argument '{bad}'")
    assert_explains_typo(caught, f"Client.{name}", bad, meant)
    assert world.sent() == before  # refused before anything was sent


def test_missing_and_extra_arguments_say_how_to_call(world: World) -> None:
    with pytest.raises(ArgumentError) as caught:
        regkit.frames.history()
    assert "missing" in str(caught.value) and "history(company, field" in caught.value.suggestion
    with pytest.raises(ArgumentError) as caught:
        regkit.graph.ultimate_parent(world.graph, GROUP_TOP, "2024-01-01", 4, 5)
    assert "positional" in str(caught.value) and "by keyword" in caught.value.suggestion


# -- (b) a first argument of the wrong kind --------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "kind"), wrong_cases())
def test_a_wrong_first_argument_says_what_to_pass(name: str, kind: str, world: World) -> None:
    first = {"None": None, "str": "x", "int": 1, "frame": world.names}[kind]
    argument_values(world)  # the right ones, fetched before counting
    before = world.sent()
    with pytest.raises(RegkitError) as caught:
        call_with(world, name, first)
    error = caught.value
    assert error.suggestion, str(error)
    if kind != "str" and not isinstance(error, (ValidationError,)):
        pytest.fail(f"{name}({kind}) raised {type(error).__name__}, not a ValidationError: {error}")
    assert world.sent() == before, f"{name}({kind}) sent {world.counter.counted[before:]}"


# -- a new user's ten mistakes ---------------------------------------------------------------------------------------


def test_a_new_users_ten_mistakes(world: World) -> None:
    client = world.client
    before = world.sent()

    # 1. an id that does not exist: a NotFoundError (nothing charged) that says what to check
    with pytest.raises(regkit.NotFoundError) as caught:
        client.get_company("DE-HRB-R3101-99999999")
    assert "id" in caught.value.suggestion

    # 2. free text where an id belongs: a ValidationError naming parse_company_id (or the id it would be)
    with pytest.raises(ValidationError) as caught:
        client.get_company("Siemens AG")
    assert "parse_company_id" in str(caught.value) or "search_companies" in str(caught.value)
    sent_for_free_text = world.sent()

    # 3. a typo'd keyword: an ArgumentError naming the close one
    with pytest.raises(ArgumentError, match=r"did you mean depth=\?"):
        regkit.crawl(client, COMPANY, depht=3)
    with pytest.raises(ArgumentError, match=r"did you mean progress=\?"):
        client.get_companies([COMPANY], progres=False)

    # 4. a budget too small: refused before sending, saying what it would cost and how to raise it
    small = regkit.Client(
        api_key="demo-paid", base_url=client.base_url, adapter=client.target.adapter, cache="memory", budget=5
    )
    try:
        with pytest.raises(regkit.BudgetExceededError) as caught:
            small.get_companies([PARENT, GROUP_TOP, COMPANY], progress=False)
        assert "budget" in str(caught.value).lower() and caught.value.suggestion
    finally:
        small.close()

    # 5. a wrong filter: a ValidationError listing the filters there are
    with pytest.raises(ValidationError) as caught:
        client.search_insolvencies(filters={"cuort": "Darmstadt"})
    assert "court" in str(caught.value)

    # 6. a company without figures: a warning that says so (the answer, empty, is returned), and a plot of nothing
    #    that says why there is nothing to draw
    with pytest.warns(regkit.NoFinancialReportsWarning, match="no annual report"):
        empty = client.get_financials(first_company_without_reports(world))
    with pytest.warns(regkit.NoFinancialReportsWarning, match="nothing to draw"):
        regkit.plot.indicators(regkit.frames.indicators(empty))

    # 7. a bad date: a ValidationError saying the date cannot be
    with pytest.raises(ValidationError) as caught:
        regkit.frames.as_of(world.record, "2024-02-31")
    assert "2024-02-31" in str(caught.value)

    # 8. a plot given the wrong frame: says which frame it draws
    with pytest.raises(ValidationError) as caught:
        regkit.plot.balance_sheet(world.indicators)
    assert "statements" in str(caught.value)

    # 9. (the interrupt: tested with the client's interrupts)

    # 9. an interrupt: tests/client/test_client_interrupts.py (a real SIGINT, interrupt_main and a real kernel
    #    against `regkit serve`): regkit.Interrupted says what arrived, what it cost, and that the same call resumes

    # 10. a German date: read day first — never a silent month-first guess
    german = regkit.frames.as_of(world.record, "01.02.2024")
    iso = regkit.frames.as_of(world.record, "2024-02-01")
    assert german.date == iso.date == pd.Timestamp("2024-02-01")

    # Sent: the unknown id (a free 404) and the financials of mistake 6; every other mistake sent nothing.
    assert sent_for_free_text == before + 1 and world.sent() == before + 2


def first_company_without_reports(world: World) -> str:
    """A company of the world that has filed no annual report."""
    from regkit.local.world import read_world

    return str(next(c["id"] for c in read_world().companies.values() if not c["indicators"]))


def test_nothing_is_written_where_a_path_is_wrong(world: World, tmp_path: Path) -> None:
    """``read_graphml(1)`` once closed the caller's standard output (file descriptor 1): a number is no path."""
    for read in (regkit.graph.read_graphml, regkit.graph.read_gexf, regkit.graph.read_node_link):
        with pytest.raises(ValidationError):
            read(1)
    for write in (regkit.graph.write_graphml, regkit.graph.write_gexf, regkit.graph.write_node_link):
        with pytest.raises(ValidationError):
            write(world.graph, 1)
