"""The graph's date arguments (issue 40): ISO, or German ``DD.MM.YYYY`` read day first, or a ``ValidationError``.

The rule itself is tested in ``tests/frames/test_date_arguments.py``; here the graph functions that take a date.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pandas as pd
import pytest

from regkit.errors import ValidationError
from regkit.graph import (
    as_of,
    control_chain,
    controlled_companies,
    subsidiaries,
    ubos,
    ultimate_parent,
)


def _german(day: dt.date) -> str:
    return f"{day.day:02d}.{day.month:02d}.{day.year}"


@pytest.fixture(scope="module")
def top(readme_groups: list[dict[str, Any]]) -> str:
    """The Organträger of the largest group of the world (``data/README.md``)."""
    return readme_groups[0]["organtraeger"]


def test_subsidiaries_read_a_german_date_as_the_iso_one(world_graph: Any, top: str) -> None:
    german = subsidiaries(world_graph, top, date="01.02.2024")
    assert not german.empty
    pd.testing.assert_frame_equal(german, subsidiaries(world_graph, top, date="2024-02-01"))


@pytest.mark.parametrize("text", ["last year", "2024-02-31", "02/01/2024"])
def test_subsidiaries_refuse_what_is_no_date(world_graph: Any, top: str, text: str) -> None:
    with pytest.raises(ValidationError, match=rf"^date {text!r} is not a date") as caught:
        subsidiaries(world_graph, top, date=text)
    assert "DD.MM.YYYY, day first" in caught.value.suggestion


def test_control_functions_read_german_dates(world_graph: Any, top: str) -> None:
    member = sorted(controlled_companies(world_graph, top, "2024-02-01"))[0]
    assert controlled_companies(world_graph, top, "1.2.2024") == controlled_companies(world_graph, top, "2024-02-01")
    assert ultimate_parent(world_graph, member, "01.02.2024") == top
    assert control_chain(world_graph, member, "01.02.2024") == control_chain(world_graph, member, "2024-02-01")
    assert ubos(world_graph, top, "01.02.2024").equals(ubos(world_graph, top, "2024-02-01"))
    with pytest.raises(ValidationError, match="no month 13"):
        ultimate_parent(world_graph, member, "01.13.2024")


def test_as_of_takes_an_edge_from_its_first_day_written_day_first(world_graph: Any) -> None:
    """A link whose first day could be misread as a month (day <= 12, day != month) is in the graph
    from that day, written in German, and not on the day before — a month-first reading would move both."""
    u, v, key, start = next(
        (u, v, k, a["valid_from"])
        for u, v, k, a in world_graph.edges(keys=True, data=True)
        if a.get("valid_from") is not None
        and a["valid_from"].day <= 12
        and a["valid_from"].day != a["valid_from"].month
        and (a["valid_to"] is None or a["valid_to"] > a["valid_from"])
    )
    on, before = as_of(world_graph, _german(start)), as_of(world_graph, _german(start - dt.timedelta(days=1)))
    assert on.has_edge(u, v, key)
    assert not before.has_edge(u, v, key)
    assert sorted(on.edges(keys=True)) == sorted(as_of(world_graph, start.isoformat()).edges(keys=True))


@pytest.mark.parametrize("missing", [None, pd.NaT])
def test_as_of_requires_a_date(world_graph: Any, missing: Any) -> None:
    with pytest.raises(ValidationError, match=r"^date is required"):
        as_of(world_graph, missing)
