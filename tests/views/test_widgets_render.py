"""``regkit.widgets.render`` (HTML of messages, tables, figures, credits) and the widget modules' doctests."""

from __future__ import annotations

import importlib
from typing import Any

import matplotlib.pyplot as plt
import pandas as pd
import pytest

from regkit.widgets.render import credits_html, draw_html, figure_html, frame_html, message_html

WIDGET_MODULES = [
    "regkit.widgets.render",
    "regkit.widgets.company_logic",
    "regkit.widgets.insolvency_logic",
    "regkit.widgets.group_logic",
    "regkit.widgets.group_drawing",
    "regkit.widgets.static",
]


def test_messages_are_escaped_and_coloured() -> None:
    html = message_html("<b>1 & 2</b>", "warning")
    assert "&lt;b&gt;1 &amp; 2&lt;/b&gt;" in html and "regkit-warning" in html
    with pytest.raises(KeyError):
        message_html("x", "loud")


def test_tables_escape_cut_and_show_nulls() -> None:
    frame = pd.DataFrame({"name": ["<script>", None, "c"], "n": pd.array([1, None, 3], dtype="Int64")})
    html = frame_html(frame, max_rows=2)
    assert "&lt;script&gt;" in html and "<script>" not in html
    body = html.split("<tbody>")[1]
    assert body.count("<tr>") == 2 and "… and 1 more rows" in html and ">–</td>" in body  # two rows of three
    only_name = frame_html(frame, columns=["name", "missing"])
    assert only_name.count("<th>") == 1 and "<th>Name</th>" in only_name


def test_figures_become_inline_svg_without_pyplot(fresh_figures: Any) -> None:
    html = draw_html(lambda ax: ax.plot([1, 2], [3, 4]), (4.0, 3.0))
    assert html.startswith('<div class="regkit-figure"><svg') and "<?xml" not in html
    assert html == draw_html(lambda ax: ax.plot([1, 2], [3, 4]), (4.0, 3.0))
    assert fresh_figures() == []
    two = draw_html(lambda axes: [ax.plot([0, 1]) for ax in axes], nrows=2)
    assert two.count("<svg") == 1
    fig, ax = plt.subplots()
    assert figure_html(fig).endswith("</svg>\n</div>")


def test_credits_show_the_budget_when_there_is_one(make_client: Any) -> None:
    client = make_client(budget=100)
    client.get_company("DE-HRB-R2103-65834")
    assert "Credits spent by this client: 10 · saved by the cache: 0 · budget left: 90 of 100" in credits_html(client)


@pytest.mark.parametrize("name", WIDGET_MODULES)
def test_doctests(name: str) -> None:
    import doctest

    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0
