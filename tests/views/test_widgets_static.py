"""The explorers' static snapshot (``text/html`` beside the widget view): what a notebook opened untrusted, or
without a kernel, shows of an explorer. Driven headless against the local register; the HTML is read as a
sanitizer leaves it (no ``<style>``, no inline ``<svg>``: figures as images)."""

from __future__ import annotations

import base64
import re
from typing import Any

import pandas as pd

from regkit.widgets import GroupExplorer, InsolvencyExplorer
from regkit.widgets.group_logic import interlocks_frame
from regkit.widgets.static import inline_html
from regkit.widgets.tables import table_html

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.I)
IMAGE = re.compile(r'<img alt="figure"[^>]* src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)">')


def _snapshot(explorer: Any) -> str:
    bundle = explorer._repr_mimebundle_()
    assert WIDGET_VIEW in bundle and bundle[WIDGET_VIEW]["model_id"] == explorer.model_id
    assert "text/plain" in bundle
    html = bundle["text/html"]
    assert "<svg" not in html and "<style" not in html  # what JupyterLab's sanitizer would drop
    return str(html)


def _figures(html: str) -> list[str]:
    return [base64.b64decode(data).decode("utf-8") for data in IMAGE.findall(html)]


def test_an_insolvency_search_shows_as_a_snapshot(client: Any, world: Any) -> None:
    explorer = InsolvencyExplorer(client)
    explorer.query.value = "Ahrens"
    explorer.search_button.click()
    explorer.table.selected_rows = [0]
    proceeding = world.insolvencies[explorer.frame["id"].iloc[0]]
    html = _snapshot(explorer)
    assert "Insolvency proceedings" in html and "A snapshot of the explorer" in html
    assert "Query</span> <code>Ahrens</code>" in html
    assert "Search (0 credits, cached)" in html and "Credits spent by this explorer: 20" in html
    assert all(case in html for case in explorer.table.df["Case"])
    assert f"{proceeding['debtor_name']} ({proceeding['case_number']})" in html  # the events' line
    assert 'background:#ddf4ff"><td' in html  # the clicked row is marked
    figures = _figures(html)
    assert len(figures) == 1 and figures[0].startswith("<svg") and figures[0].endswith("</svg>")
    assert proceeding["case_number"] in figures[0]  # the chart's title, as the SVG's comments say it
    assert re.search(r'<td class="regkit-date" style="[^"]*white-space:nowrap', html)  # the table style, inline
    assert not UUID.search(re.sub(r'src="data:[^"]+"', "", html))


def test_the_snapshot_follows_the_explorer_and_greys_what_no_longer_applies(client: Any) -> None:
    explorer = InsolvencyExplorer(client)
    empty = _snapshot(explorer)
    assert "Search (10 credits)" in empty and "<table" not in empty
    explorer.statuses.value = ("opened",)
    explorer.search_button.click()
    assert "<table" in _snapshot(explorer) and "opacity:0.4" not in _snapshot(explorer)
    explorer.court.value = "Hof"
    html = _snapshot(explorer)
    assert "opacity:0.4" in html and "The results below are for the previous inputs" in html
    assert "regkit-stale{" not in html  # the explorer's own CSS widget is hidden: not in the snapshot


def test_a_crawled_group_shows_as_a_snapshot(client: Any) -> None:
    explorer = GroupExplorer(client, "DE-HRB-R2103-158659", direction="up")
    explorer.estimate_button.click()
    explorer.crawl_button.click()
    html = _snapshot(explorer)
    assert "Corporate group" in html and "Drawn: the " in html and "Crawled " in html
    figures = _figures(html)
    assert len(figures) == 1 and "and its group -->" in figures[0]
    current = interlocks_frame(explorer.graph, None)
    assert len(current) and all(name in html for name in current["name"])


def test_inline_html_moves_the_table_style_inline_and_figures_into_images() -> None:
    source = (
        '<style>.regkit-table{}</style><div class="regkit-figure"><svg xmlns="http://www.w3.org/2000/svg">'
        '<g/></svg></div><table class="regkit-table"><thead><tr><th>Name</th></tr></thead>'
        '<tbody><tr><td>A &amp; B</td><td class="regkit-num">€1,234</td><td class="regkit-date">2024-01-01'
        "</td></tr></tbody></table>"
    )
    html = inline_html(source)
    assert "<style" not in html and "<svg" not in html
    assert _figures(html) == ['<svg xmlns="http://www.w3.org/2000/svg"><g/></svg>']
    assert '<th style="text-align:left;' in html and '<td style="text-align:left;' in html and ">A &amp; B<" in html
    assert re.search(r'<td class="regkit-num" style="text-align:right;[^"]*white-space:nowrap', html)
    assert re.search(r'<td class="regkit-date" style="[^"]*white-space:nowrap', html)


def test_inline_html_styles_every_cell_of_a_real_table() -> None:
    frame = pd.DataFrame(
        {
            "name": ["Alpha GmbH", "Beta AG"],
            "capital": [25_000.0, None],
            "share": [0.5, 1.0],
            "registered_at": [pd.Timestamp("2020-01-02"), pd.NaT],
        }
    )
    html = inline_html(table_html(frame))
    cells = re.findall(r"<t[hd]\b[^>]*>", html)
    assert len(cells) == 4 + 2 * 4 and all(" style=" in cell for cell in cells)
    assert len(re.findall(r'<th class="regkit-num" style="text-align:right;', html)) == 2  # capital, share
    assert re.search(r'<th class="regkit-num" style="text-align:right;font-weight:600;border-bottom:', html)
