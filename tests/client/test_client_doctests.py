"""The examples in the client's docstrings run and show what they say."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import regkit.client

#: Every module of the client but the deprecated shim ``regkit.client.errors`` (importing it warns; its doctests
#: are those of ``regkit.errors``).
_MODULES = sorted(
    m.name for m in pkgutil.walk_packages(regkit.client.__path__, "regkit.client.") if m.name != "regkit.client.errors"
)


@pytest.mark.parametrize("name", _MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
