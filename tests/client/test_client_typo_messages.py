"""A typo'd keyword on a client method: Python's TypeError names ``Client.<method>``, the class the user holds, never
an internal helper (the client is one class, CONTRIBUTING "The client is one class")."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from regkit.client import Client

PUBLIC = sorted(
    name
    for name, member in inspect.getmembers(Client, inspect.isfunction)
    if not name.startswith("_")
    and not any(p.kind is p.VAR_KEYWORD for p in inspect.signature(member).parameters.values())
)


def test_every_public_method_is_checked() -> None:
    assert {"search_insolvencies", "search_companies", "get_company", "get_holdings", "estimate_cost"} <= set(PUBLIC)


@pytest.mark.parametrize("name", PUBLIC)
def test_a_typod_keyword_names_the_client_method(name: str, inprocess: Any) -> None:
    client = inprocess.client()
    with pytest.raises(TypeError) as caught:
        getattr(client, name)(sorting="name")  # no client method takes "sorting"
    message = str(caught.value)
    assert message.startswith(f"Client.{name}() got an unexpected keyword argument 'sorting'"), message
    assert inprocess.counter.counted == []  # refused before anything was sent
