"""What the public-API misuse walk (``tests/test_public_misuse.py``) needs: the public callables, enumerated (never
hand-listed), and a small world to call them on — a client of a real local register whose requests are counted, two
company records, a group graph and the frames made of them."""

from __future__ import annotations

import inspect
import io
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import FunctionType, ModuleType
from typing import Any

#: The namespaces whose public functions the walk calls wrongly.
NAMESPACES = ("regkit.frames", "regkit.graph", "regkit.plot", "regkit.widgets", "regkit")  # re-exports last

#: A company with figures, owners and a group (the README's), its parent, and the top of a group to crawl down.
COMPANY = "DE-HRB-R3101-94644"
PARENT = "DE-HRB-R2103-65834"
GROUP_TOP = "DE-HRB-X1517-62135KI"


def public_functions() -> dict[str, Callable[..., Any]]:
    """``"regkit.graph.crawl"`` → the function, for every public function of :data:`NAMESPACES` (one name for each
    function object: ``regkit.crawl`` is ``regkit.graph.crawl`` and walked once, under its first name)."""
    import importlib

    found: dict[str, Callable[..., Any]] = {}
    seen: set[int] = set()
    for package in NAMESPACES:
        module = importlib.import_module(package)
        for name in module.__all__:
            value = getattr(module, name)
            if isinstance(value, FunctionType) and id(value) not in seen:
                seen.add(id(value))
                found[f"{package}.{name}"] = value
    return found


def public_classes() -> dict[str, type]:
    """``"regkit.Client"`` → the class, for every public class of :data:`NAMESPACES` but errors and warnings."""
    import importlib

    found: dict[str, type] = {}
    for package in NAMESPACES:
        module = importlib.import_module(package)
        for name in module.__all__:
            value = getattr(module, name)
            if isinstance(value, type) and not issubclass(value, (BaseException, Warning)):
                found.setdefault(f"{package}.{name}", value)
    return found


def client_methods() -> dict[str, Callable[..., Any]]:
    """``"get_company"`` → ``Client.get_company``, for every public method of :class:`regkit.Client`."""
    from regkit import Client

    return {name: member for name, member in inspect.getmembers(Client, inspect.isfunction) if not name.startswith("_")}


def typo(name: str) -> str:
    """``name`` mistyped as hands do: its last two letters swapped (``depth`` → ``depht``), or one doubled."""
    swapped = name[:-2] + name[-1] + name[-2] if len(name) > 2 else name + name[-1]
    return swapped if swapped != name else name + name[-1]


def keywords(function: Callable[..., Any]) -> list[str]:
    """The parameters of ``function`` that can be given by keyword (``self`` apart)."""
    kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    return [p.name for p in inspect.signature(function).parameters.values() if p.kind in kinds and p.name != "self"]


def takes_any_keyword(function: Callable[..., Any]) -> bool:
    return any(p.kind is p.VAR_KEYWORD for p in inspect.signature(function).parameters.values())


class RequestCounter:
    """WSGI middleware counting the requests that reach the register (``/v1/credits`` apart)."""

    def __init__(self, app: Callable[..., Any]) -> None:
        self.app = app
        self.counted: list[tuple[str, str]] = []
        self.lock = threading.Lock()

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        if environ.get("PATH_INFO") != "/v1/credits":
            length = int(environ.get("CONTENT_LENGTH") or 0)
            environ["wsgi.input"] = io.BytesIO(environ["wsgi.input"].read(length) if length > 0 else b"")
            with self.lock:
                self.counted.append((environ["REQUEST_METHOD"], environ.get("PATH_INFO", "")))
        return self.app(environ, start_response)


@dataclass
class World:
    """Real things to call the public API with, made from the bundled world."""

    client: Any
    counter: RequestCounter
    record: Any  #: CompanyRecord of COMPANY
    parent: Any  #: CompanyRecord of PARENT
    graph: Any  #: the group below GROUP_TOP, crawled down six levels
    financials: Any  #: FinancialsRecord of COMPANY
    names: Any  #: history(record, "names"): a frame of the wrong kind for almost everything
    indicators: Any  #: indicators(financials)
    directory: Path
    values: dict[str, Any] = field(default_factory=dict)  #: right arguments by parameter name, made once

    def sent(self) -> int:
        return len(self.counter.counted)


def open_world(directory: Path) -> Iterator[World]:
    """A :class:`World` on a fresh local register (state in ``directory``), closed after use."""
    import regkit
    from regkit.local import open_local_register

    register = open_local_register(state_path=directory / "state.sqlite", rate_limit=None, extract_delay=0.0)
    counter = RequestCounter(register.app.wsgi_app)
    register.app.wsgi_app = counter
    client = regkit.Client(
        api_key="demo-paid", base_url=register.base_url, adapter=register.adapter, cache="memory", ledger_file=None
    )
    try:
        record = client.get_company(COMPANY)
        financials = client.get_financials(COMPANY)
        graph = regkit.crawl(client, GROUP_TOP, depth=6, direction="down", progress=False)
        yield World(
            client=client,
            counter=counter,
            record=record,
            parent=client.get_company(PARENT),
            graph=graph,
            financials=financials,
            names=regkit.frames.history(record, "names"),
            indicators=regkit.frames.indicators(financials),
            directory=directory,
        )
    finally:
        client.close()
        register.close()


def module_of(name: str) -> ModuleType:
    import importlib

    return importlib.import_module(name.rpartition(".")[0])
