"""``regkit.client.protocol``: what a crawl and the explorers need of a client, and that ``regkit.Client`` has it.

mypy proves the assignment ``Client -> RegisterClient`` (the ``TYPE_CHECKING`` block at the end of the module,
checked by ``mypy regkit``); these tests check the same at run time on a real client of the bundled register:
every member is there, every parameter a protocol passes is one the client takes (same name, kind and
default), and each method returns the record class the protocol names — by calling it.
"""

from __future__ import annotations

import inspect
import typing

import pytest

import regkit
from regkit.client import CompanyBatch, CostEstimate
from regkit.client.protocol import BudgetView, CrawlClient, CreditCounts, RegisterClient

PROTOCOLS = (CreditCounts, CrawlClient, RegisterClient)
COMPANY = "DE-HRB-R1102-109244"


@pytest.fixture()
def client():
    with regkit.Client(cache="memory") as client:  # the bundled local register, in-process, no key
        yield client


def _methods(protocol: type) -> list[str]:
    """The methods ``protocol`` declares, its bases' included (``typing.get_protocol_members`` is 3.13+)."""
    found = {
        name
        for base in protocol.__mro__
        if getattr(base, "_is_protocol", False) and base is not typing.Protocol
        for name, value in vars(base).items()
        if inspect.isfunction(value) and not name.startswith("_")
    }
    return sorted(found)


def test_a_client_is_every_protocol(client):
    for protocol in PROTOCOLS:
        assert isinstance(client, protocol), protocol.__name__
    assert isinstance(client.budget, BudgetView)
    assert not isinstance(object(), CrawlClient)


@pytest.mark.parametrize("name", _methods(RegisterClient))
def test_every_parameter_a_protocol_passes_is_one_the_client_takes(name):
    wanted = inspect.signature(getattr(RegisterClient, name)).parameters
    taken = inspect.signature(getattr(regkit.Client, name)).parameters
    for parameter in wanted.values():
        if parameter.name == "self":
            continue
        assert parameter.name in taken, f"Client.{name} has no parameter {parameter.name}"
        theirs = taken[parameter.name]
        assert theirs.default == parameter.default, f"Client.{name}({parameter.name}=...) has another default"
        if parameter.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD:  # passed by position: same place
            assert list(wanted).index(parameter.name) == list(taken).index(parameter.name)
        else:
            assert theirs.kind in (inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    required = [p for p in taken.values() if p.default is inspect.Parameter.empty and p.name != "self"]
    assert all(p.name in wanted for p in required), f"Client.{name} requires more than the protocol passes"


@pytest.mark.parametrize("name", _methods(RegisterClient))
def test_each_method_returns_the_record_the_protocol_names(name):
    import pandas as pd

    names = {"pd": pd}  # frames are named for type checkers only: importing regkit.client imports no pandas
    promised = typing.get_type_hints(getattr(RegisterClient, name), localns=names)["return"]
    returned = typing.get_type_hints(getattr(regkit.Client, name), localns=names)["return"]
    assert promised == returned or promised in typing.get_args(returned), (name, promised, returned)


def test_the_lookups_return_those_records(client):
    estimate = client.estimate_cost([COMPANY])
    assert isinstance(estimate, CostEstimate) and estimate.credits == 10
    batch = client.get_companies([COMPANY], errors="collect", progress=False)
    assert isinstance(batch, CompanyBatch) and [r.raw["id"] for r in batch.ok] == [COMPANY]
    assert client.is_cached(COMPANY) and client.estimate_cost([COMPANY]).credits == 0
    assert (client.credits_spent, client.credits_saved) == (10, 0)
    assert isinstance(client.get_company(COMPANY), typing.get_type_hints(RegisterClient.get_company)["return"])
    assert client.credits_saved == 10  # the second lookup came from the cache
