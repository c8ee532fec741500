"""The download part of :class:`~regkit.widgets.CompanyExplorer`'s **documents** tab: pick a document the company
lists (free) or one the register makes now (20 credits), see the cost on the button, download it into a
directory, and read back the file's path and size.

The choices, the button's text and the result's HTML are plain functions (tested without widgets);
:class:`DocumentDownloads` wires them to an ``ipywidgets`` dropdown, a directory input and a button.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from regkit.errors import RegkitError
from regkit.schema.formatting import credits_text
from regkit.schema.interface import DOCUMENT_CATEGORIES

from .messages import error_text
from .render import message_html

if TYPE_CHECKING:
    from regkit.client import CompanyRecord, Downloads
    from regkit.client.protocol import RegisterClient

__all__ = [
    "DEFAULT_DIRECTORY",
    "CATEGORY_LABELS",
    "document_choices",
    "download_cost",
    "download_button_text",
    "downloads_html",
    "DocumentDownloads",
]

#: Where the tab saves files unless another directory is typed.
DEFAULT_DIRECTORY = "documents"

#: How the register's categories read in the dropdown.
CATEGORY_LABELS = {
    "current_printout": "current printout (AD)",
    "chronological_printout": "chronological printout (CD)",
    "historical_printout": "historical printout (HD)",
    "structured_information": "structured information (SI, XML)",
    "shareholder_list": "latest shareholder list",
    "articles_of_association": "latest articles of association",
}

#: A choice: ``(company_id, document_id)`` for a listed document, ``(company_id, category)`` for one made now.
Choice = tuple[str, str]


def document_choices(record: CompanyRecord) -> list[tuple[str, Choice]]:
    """The dropdown's options for a company: its listed documents (newest first), then every category the
    register makes now. Each is ``(label, (company_id, document_id or category))``.

    Examples
    --------
    >>> from regkit.client import CompanyRecord
    >>> record = CompanyRecord({"id": "DE-HRB-F1103-1", "documents": [
    ...     {"id": "d1", "type": "shareholder_list", "date": "2020-06-28", "latest": True}]})
    >>> document_choices(record)[0]
    ('2020-06-28 shareholder list (listed, free)', ('DE-HRB-F1103-1', 'd1'))
    >>> document_choices(record)[1][0]
    'current printout (AD), fetched now (20 credits)'
    """
    company = str(record.raw["id"])
    listed = sorted(
        record.raw.get("documents") or (), key=lambda d: (str(d.get("date")), str(d.get("id"))), reverse=True
    )
    options: list[tuple[str, Choice]] = [
        (f"{d.get('date')} {str(d.get('type')).replace('_', ' ')} (listed, free)", (company, str(d["id"])))
        for d in listed
    ]
    options += [
        (f"{CATEGORY_LABELS[category]}, fetched now (20 credits)", (company, category))
        for category in DOCUMENT_CATEGORIES
    ]
    return options


def download_cost(client: RegisterClient, choice: Choice | None, directory: str) -> int | None:
    """Credits downloading ``choice`` into ``directory`` would cost now (0 for a listed document, for a file the
    directory holds and for a cached answer; else 20); ``None`` when it cannot be known (bad input)."""
    if choice is None:
        return None
    try:
        return client.estimate_download_cost(choice, directory or DEFAULT_DIRECTORY).credits
    except RegkitError:
        return None


def download_button_text(client: RegisterClient, choice: Choice | None, directory: str) -> str:
    """``"Download (0 credits)"``, ``"Download (20 credits)"`` — the cost on the button (``"Download"`` when nothing
    is chosen or the choice cannot be priced)."""
    cost = download_cost(client, choice, directory)
    return "Download" if cost is None else f"Download ({credits_text(cost)})"


def downloads_html(files: Downloads) -> str:
    """What was saved: one line per file with its path, size and cost (``kept``: the directory had it)."""
    lines = []
    for file in files:
        how = "kept, already in the directory" if file.status == "kept" else f"downloaded, {credits_text(file.credits)}"
        lines.append(f"<li><code>{html.escape(str(file.path))}</code> — {file.size:,} bytes ({how})</li>")
    return (
        message_html(f"Saved {len(lines)} file{'s' if len(lines) != 1 else ''}:", "ok") + f"<ul>{''.join(lines)}</ul>"
    )


class DocumentDownloads(widgets.VBox):
    """The download controls of the documents tab: ``choice`` (a dropdown of :func:`document_choices`),
    ``directory`` (where files go), ``button`` (its label says the cost) and ``result`` (path and size of what
    was saved, or the error).

    Parameters
    ----------
    client : RegisterClient
        The explorer's client.
    meter : callable, optional
        ``meter(action)`` runs a download and returns its result: the explorer counts what it spent as its own
        and refreshes its credits line (:meth:`regkit.widgets.base.Explorer.metered`). Default: just run it.
    """

    def __init__(self, client: RegisterClient, meter: Callable[[Callable[[], Any]], Any] | None = None) -> None:
        self.client = client
        self.record: CompanyRecord | None = None
        self._meter: Callable[[Callable[[], Any]], Any] = meter or (lambda action: action())
        self.choice = widgets.Dropdown(description="Document", options=[], layout=widgets.Layout(width="520px"))
        self.directory = widgets.Text(
            description="Save in",
            value=DEFAULT_DIRECTORY,
            continuous_update=False,
            layout=widgets.Layout(width="360px"),
        )
        self.button = widgets.Button(
            description="Download",
            disabled=True,
            tooltip="listed documents are free; a document fetched now costs 20 credits (0 when the directory has it)",
            layout=widgets.Layout(width="auto"),
        )
        self.result = widgets.HTML()
        super().__init__([widgets.HBox([self.choice, self.button]), self.directory, self.result])
        self.choice.observe(lambda _: self._price(), names="value")
        self.directory.observe(lambda _: self._price(), names="value")
        self.button.on_click(lambda _: self.download())

    def show(self, record: CompanyRecord) -> None:
        """Offer the documents of ``record`` (nothing is fetched)."""
        self.record = record
        self.choice.options = document_choices(record)
        self.result.value = ""
        self._price()

    def clear(self) -> None:
        """No company: nothing to offer."""
        self.record = None
        self.choice.options = []
        self.result.value = ""
        self.button.description = "Download"
        self.button.disabled = True

    def _price(self) -> None:
        self.button.disabled = self.choice.value is None
        self.button.description = download_button_text(self.client, self.choice.value, self.directory.value)

    def download(self) -> Downloads | None:
        """Download the chosen document; returns the files (``None`` on an error, which ``result`` shows)."""
        if self.choice.value is None:
            return None
        files: Downloads | None = None
        try:
            files = self._meter(
                lambda: self.client.download(
                    self.choice.value, self.directory.value or DEFAULT_DIRECTORY, progress=False
                )
            )
            self.result.value = downloads_html(files)
        except RegkitError as exc:
            self.result.value = message_html(f"Not downloaded. {error_text(exc)}", "error")
        self._price()
        return files
