"""The figure gallery of the documentation site, drawn at build time by :mod:`regkit.plot` on the bundled world.

Each entry is a few lines of code that a user would write: they run against a private, throw-away local register
(synthetic data, no key, no credits), and the page shows the code beside the figure it drew. So the gallery
always shows what the plots draw today — a change to a plot function changes its picture at the next build —
and nothing here is drawn by hand. ``docs/conf.py`` calls :func:`build` before Sphinx reads the sources; it
writes ``docs/gallery/index.md`` and one SVG per figure there (git-ignored, rewritten by every build).

Run ``python docs/gallery.py [DIRECTORY]`` to draw it without Sphinx (default ``docs/gallery``).
"""

from __future__ import annotations

import sys
import tempfile
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["FIGURES", "Figure", "build", "main"]

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DIRECTORY = ROOT / "docs" / "gallery"

SETUP = """\
import regkit
import regkit.plot
from regkit import graph
from regkit.local import open_local_register

regkit.plot.deterministic()
register = open_local_register(state_path=workdir / "register.sqlite", key_path=workdir / "keys" / "register.key")
client = regkit.Client(cache=workdir / "cache.sqlite", adapter=register.adapter)
"""
"""What every entry's code may use (``workdir``: a temporary directory): the notebooks start the same way."""


@dataclass(frozen=True)
class Figure:
    """One picture of the gallery: its ``name`` (the SVG's file name), a ``title``, what a reader learns from it
    (``caption``, Markdown), the ``code`` that draws it (ends with the Axes in ``ax``) and the notebook that tells
    its story (``notebook``, a file name under ``notebooks/``)."""

    name: str
    title: str
    caption: str
    code: str
    notebook: str


FIGURES: tuple[Figure, ...] = (
    Figure(
        "indicators",
        "Financial indicators over the years",
        "A company's published indicators, one line each, amounts in euros from zero.",
        """\
luxlog = client.get_company("DE-HRB-R2103-65834")
ax = regkit.plot.indicators(luxlog, ["revenue", "balance_sheet_total", "equity"])
""",
        "03_financial_indicators.ipynb",
    ),
    Figure(
        "indicators_negative",
        "Indicators that turn negative",
        "Equity of a company heading into insolvency: where the line crosses zero is the point.",
        """\
elbwind = client.get_company("DE-HRB-P2408-81776")
ax = regkit.plot.indicators(elbwind, ["equity", "liabilities"])
""",
        "03_financial_indicators.ipynb",
    ),
    Figure(
        "balance_sheet",
        "Balance sheet structure",
        "Aktiva beside passiva by year, stacked by their top-level items.",
        """\
statements = client.get_financials("DE-HRB-R2103-65834").statements()
ax = regkit.plot.balance_sheet(statements, years=8)
""",
        "03_financial_indicators.ipynb",
    ),
    Figure(
        "pnl_waterfall",
        "Profit and loss as a waterfall",
        "One year's P&L from revenue to net income: gains up, charges down.",
        """\
financials = client.get_financials("DE-HRB-R2103-65834")
ax = regkit.plot.pnl_waterfall(financials)
""",
        "03_financial_indicators.ipynb",
    ),
    Figure(
        "timeline",
        "A company's history",
        "Names, addresses, registers, representatives and status as bars over time.",
        """\
gbr = client.get_company("DE-HRA-B8535-46272")
ax = regkit.plot.timeline(gbr, until="2026-06-30")
""",
        "02_company_history.ipynb",
    ),
    Figure(
        "insolvency_timeline",
        "One insolvency proceeding",
        "A proceeding's events: when each was decided and when it was published.",
        """\
debtor = client.get_company("DE-HRB-P2408-81776")
proceeding = client.get_insolvency(debtor.insolvency_summaries()["id"].iloc[0])
ax = regkit.plot.insolvency_timeline(proceeding)
""",
        "04_insolvency_research.ipynb",
    ),
    Figure(
        "insolvency_trend",
        "Insolvencies per quarter",
        "Proceedings against companies opened per quarter, stacked by legal form.",
        """\
opened = client.search_all_insolvencies(
    filters={"debtor_kind": "legal_person", "opened_at": ("2024-01-01", "2025-12-31")}, progress=False
).to_dataframe()
ax = regkit.plot.insolvency_trend(opened, "Q", by="legal_form")
""",
        "04_insolvency_research.ipynb",
    ),
    Figure(
        "insolvency_breakdown",
        "Insolvencies by court",
        "The courts with the most proceedings opened, split by legal form.",
        """\
opened = client.search_all_insolvencies(
    filters={"debtor_kind": "legal_person", "opened_at": ("2024-01-01", "2025-12-31")}, progress=False
).to_dataframe()
ax = regkit.plot.insolvency_breakdown(opened, by="court", split="legal_form")
""",
        "04_insolvency_research.ipynb",
    ),
    Figure(
        "group",
        "A corporate group",
        "The Waldstein group crawled down from its parent: who holds whom, with the shares.",
        """\
top = regkit.parse_company_id("HRB 62135 KI Kiel")
G = graph.crawl(client, [top], depth=5, direction="down", budget=600, progress=False)
ax = regkit.plot.group(G, company_id=top)
""",
        "05_group_structures.ipynb",
    ),
    Figure(
        "cap_table",
        "A cap table over time",
        "Who held the shares of a company, by filed shareholder list.",
        """\
owners = client.get_ownership_history("DE-HRB-X1112-75364FL").to_dataframe()
ax = regkit.plot.cap_table(owners, until="2026-06-30", title="SEP Leasing GmbH: shareholders by shareholder list")
""",
        "11_ownership_and_filings.ipynb",
    ),
)
"""The gallery, in the order of the page."""


def _draw(figure: Figure, workdir: Path) -> Any:
    namespace: dict[str, Any] = {"workdir": workdir}
    exec(compile(SETUP + figure.code, f"<gallery: {figure.name}>", "exec"), namespace)  # our own code
    return namespace["ax"]


def build(directory: Path = DEFAULT_DIRECTORY, log: Callable[[str], None] = print) -> list[Path]:
    """Draw every figure of :data:`FIGURES` into ``directory`` as SVG and write its page, ``index.md``.

    A figure whose code fails is an error (the build must not show a gallery that silently lost a picture).

    Returns
    -------
    list of pathlib.Path
        The SVG files written, in the order of :data:`FIGURES`.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from regkit.plot import figure_svg

    directory.mkdir(parents=True, exist_ok=True)
    written = []
    sections = []
    with tempfile.TemporaryDirectory(prefix="regkit-gallery-", ignore_cleanup_errors=True) as scratch:
        for figure in FIGURES:
            ax = _draw(figure, Path(scratch) / figure.name)
            path = directory / f"{figure.name}.svg"
            svg = figure_svg(ax.figure)
            if not path.exists() or path.read_text(encoding="utf-8") != svg:
                path.write_text(svg, encoding="utf-8")
            plt.close(ax.figure)
            written.append(path)
            log(f"gallery: {path.name}")
            sections.append(_section(figure))
    page = "\n".join([_HEAD, *sections])
    index = directory / "index.md"
    if not index.exists() or index.read_text(encoding="utf-8") != page:
        index.write_text(page, encoding="utf-8")
    for stale in directory.glob("*.svg"):
        if stale not in written:
            stale.unlink()
    return written


_HEAD = (
    """\
# Gallery

The figures of {mod}`regkit.plot`, drawn on the bundled synthetic world when this site was built — each by the
code beside it, which you can run as it stands after the setup below (a private local register: no key, no
credits). Each links to the notebook that tells its story.

```python
import tempfile
from pathlib import Path

workdir = Path(tempfile.mkdtemp())
"""
    + SETUP
    + "```\n"
)


def _section(figure: Figure) -> str:
    stem = figure.notebook.removesuffix(".ipynb")
    return (
        f"\n## {figure.title}\n\n{figure.caption} From [{stem}](../notebooks/{stem}.ipynb).\n\n"
        f"```python\n{textwrap.dedent(figure.code).rstrip()}\n```\n\n"
        f"```{{image}} {figure.name}.svg\n:alt: {figure.title}\n:class: regkit-gallery\n```\n"
    )


def main(argv: list[str] | None = None) -> int:
    """Draw the gallery into the directory given (default ``docs/gallery``)."""
    args = sys.argv[1:] if argv is None else argv
    build(Path(args[0]) if args else DEFAULT_DIRECTORY)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    raise SystemExit(main())
