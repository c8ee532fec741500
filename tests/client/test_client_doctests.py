"""The examples in the client's docstrings run and show what they say."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import regkit.client
import regkit.common

#: Every module of the client, and of the shared helpers it uses (``regkit.common``).
_MODULES = sorted(
    m.name
    for package in (regkit.client, regkit.common)
    for m in pkgutil.walk_packages(package.__path__, f"{package.__name__}.")
)


@pytest.mark.parametrize("name", _MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
