"""The package itself: public names, module size and layering, doctests, documented columns, no warnings."""

from __future__ import annotations

import ast
import doctest
import importlib
import inspect
import pkgutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import regkit
import regkit.frames as frames
from regkit.frames.financials import MEASURES

PACKAGE = Path(frames.__file__).parent
MODULES = sorted(m.name for m in pkgutil.iter_modules([str(PACKAGE)]))


def test_public_names():
    for name in frames.__all__:  # every public name resolves (they are imported on first use)
        assert not inspect.ismodule(getattr(frames, name)), name
    public = {name for name in vars(frames) if not name.startswith("_") and not inspect.ismodule(getattr(frames, name))}
    public -= {"annotations", "lazy_exports"}
    assert set(frames.__all__) == public and set(dir(frames)) >= public
    assert not public & set(MODULES)  # no function shadows a submodule (regkit.frames.<module> stays a module)


def test_the_identity_and_parser_modules_import_without_pandas():
    """The graph imports ``regkit.frames.identity``; ``import regkit.graph.build`` must stay free of pandas."""
    code = (
        "import sys, regkit.frames, regkit.frames.identity, regkit.frames.published\n"
        "assert 'pandas' not in sys.modules\n"
        "import regkit.frames as f; f.events\n"
        "assert 'pandas' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize("name", MODULES)
def test_module_all_and_layering(name):
    """Records in, frames out: no module imports the client (not even for type hints) or a layer above."""
    path = PACKAGE / f"{name}.py"
    source = path.read_text(encoding="utf-8")
    module = importlib.import_module(f"regkit.frames.{name}")
    assert isinstance(module.__all__, list) and all(hasattr(module, n) for n in module.__all__)
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            target = node.module if isinstance(node, ast.ImportFrom) else node.names[0].name
            target = target or ""
            assert not target.startswith(("regkit.plot", "regkit.widgets", "regkit.graph", "regkit.client")), target


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    module = importlib.import_module(f"regkit.frames.{name}")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def _calls(company):
    proceeding = {
        "id": "p",
        "case_number": "1",
        "court": "AG",
        "current_status": "opened",
        "debtor_name": "D",
        "debtor_kind": None,
        "debtor_legal_form": None,
        "company_id": None,
        "proceeding_kind": None,
        "administration_kind": None,
        "administrator_name": None,
        "administrator_address": None,
        "insolvency_grounds": None,
        "claims_filing_deadline": None,
        "opened_at": None,
        "closed_at": None,
        "first_event_at": None,
        "last_event_at": None,
        "distribution_available": None,
        "distribution_claims_total": None,
        "events": [],
    }
    yield (
        frames.history,
        [frames.history(company, f) for f in ("names", "addresses", "purposes", "capitals", "registers")],
    )
    yield frames.representatives, [frames.representatives(company)]
    yield frames.indicators, [frames.indicators(company), frames.indicators(company, wide=False)]
    yield frames.ratios, [frames.ratios(frames.indicators(company))]
    for build in (
        frames.links,
        frames.documents,
        frames.insolvency_summaries,
        frames.industry_codes,
        frames.contact,
        frames.companies,
        frames.panel,
    ):
        yield build, [build(company)]
    yield frames.insolvency_results, [frames.insolvency_results([])]
    yield frames.events, [frames.events(proceeding)]
    yield frames.proceedings, [frames.proceedings(proceeding)]
    yield frames.beneficial_owners, [frames.beneficial_owners([])]


def test_every_column_is_documented_and_no_warning_is_raised(company):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        calls = list(_calls(company))
    for function, built in calls:
        doc = inspect.getdoc(function) + (inspect.getdoc(inspect.getmodule(function)) or "")
        assert "Returns" in doc and "Examples" in doc
        for frame in built:
            columns = frames.RATIOS if function is frames.ratios else frame.columns  # ratios: input's + six
            for column in columns:
                generic = (column in MEASURES and "measures" in doc.lower()) or (
                    column.startswith("ground_") and "ground_" in doc
                )
                assert column in doc or generic, f"{function.__name__}: column {column!r} is not documented"


def test_as_of_returns_documented_attributes(company):
    snapshot = frames.as_of(company, "2020-01-01")
    doc = inspect.getdoc(frames.as_of)
    for field in snapshot.__dataclass_fields__:
        assert field in doc


def test_company_card_escapes_values(company):
    company["name"]["name"] = "<script>alert(1)</script> GmbH"
    html = frames.company_card_html(company)
    assert "<script>" not in html and "&lt;script&gt;" in html


def test_every_record_method_takes_what_its_builder_takes():
    """A record's analysis method (a ``*Frames`` class of its resource module) passes its arguments to the frames builder of
    the same name: the two signatures must agree, past the record itself."""
    from regkit.client import company, extract, financials, insolvency, ownership, persons, search

    resources = (company, extract, financials, insolvency, ownership, persons, search)

    builders = {"to_dataframe": None, "_repr_html_": None}  # named differently: checked by test_frames_client
    checked = set()
    for mixin in (getattr(module, name) for module in resources for name in module.__all__ if name.endswith("Frames")):
        for name, method in vars(mixin).items():
            if not callable(method) or name in builders or name.startswith("__"):
                continue
            builder = getattr(frames, name)
            own = list(inspect.signature(method).parameters.values())[1:]
            theirs = list(inspect.signature(builder).parameters.values())[1:]
            assert own == theirs, (
                f"{mixin.__name__}.{name}{inspect.signature(method)} vs {name}{inspect.signature(builder)}"
            )
            checked.add(name)
    assert checked == {
        "history",
        "representatives",
        "indicators",
        "links",
        "panel",
        "documents",
        "insolvency_summaries",
        "industry_codes",
        "contact",
        "as_of",
        "events",
        "statements",
        "ratios",
    }


def test_the_unreleased_former_names_are_gone(company):
    from regkit.client import CompanyRecord

    record = CompanyRecord(company)
    with pytest.raises(TypeError, match="as_of"):
        record.representatives(as_of="2016-12-31")
    for package in (regkit, frames):
        with pytest.raises(AttributeError, match="companies_frame"):
            package.companies_frame  # noqa: B018
    with pytest.raises(AttributeError, match="company_id"):
        regkit.company_id  # noqa: B018
