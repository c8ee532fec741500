"""The public surface of ``import regkit``: what it exports, how fast and how lazily it imports."""

from __future__ import annotations

import subprocess
import sys

import regkit


def test_every_exported_name_resolves():
    for name in regkit.__all__:
        assert getattr(regkit, name) is not None, name


def test_unknown_names_raise_attribute_error():
    try:
        regkit.NoSuchThing  # noqa: B018
    except AttributeError as error:
        assert "NoSuchThing" in str(error)
    else:  # pragma: no cover
        raise AssertionError("regkit.NoSuchThing resolved")


def test_errors_are_one_tree_with_the_stdlib_bases_plain_except_clauses_expect():
    assert issubclass(regkit.ValidationError, (regkit.RegkitError, ValueError))
    assert issubclass(regkit.ValidationError, ValueError)
    assert issubclass(regkit.NotFoundError, LookupError)
    for name in regkit.__all__:
        value = getattr(regkit, name)
        if isinstance(value, type) and issubclass(value, Warning):
            assert issubclass(value, regkit.RegkitWarning), name
        elif isinstance(value, type) and issubclass(value, Exception):
            assert issubclass(value, regkit.RegkitError), name


def test_import_regkit_loads_no_heavy_dependency():
    code = (
        "import sys, regkit; heavy = [m for m in ('pandas', 'matplotlib', 'flask', 'networkx', 'requests_cache', 'ipywidgets')"
        " if m in sys.modules]; print(','.join(heavy))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == ""
