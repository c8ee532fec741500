"""The documents tab of ``CompanyExplorer``: pick, see the cost on the button, download, read path and size —
driven headless against the in-process local register."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from regkit.widgets import CompanyExplorer
from regkit.widgets import company_documents as docs

WALDSTEIN = "DE-HRB-X1517-62135KI"


def test_the_tab_offers_listed_documents_and_categories_with_their_cost(
    client: Any, world: Any, tmp_path: Path
) -> None:
    explorer = CompanyExplorer(client, WALDSTEIN)
    assert explorer.document_downloads.button.disabled and explorer.document_downloads.choice.options == ()
    explorer.load()
    listed = world.companies[WALDSTEIN]["documents"]
    options = explorer.document_downloads.choice.options
    assert len(options) == len(listed) + 6
    assert {value[1] for _, value in options[: len(listed)]} == {d["id"] for d in listed}
    panel = explorer.document_downloads
    panel.directory.value = str(tmp_path / "docs")
    panel.choice.value = options[0][1]
    assert panel.button.description == "Download (0 credits)"
    panel.choice.value = (WALDSTEIN, "current_printout")
    assert panel.button.description == "Download (20 credits)"
    assert client.requests_sent == 1  # the company; pricing sends nothing


def test_download_shows_path_and_size_and_the_cost_drops_to_zero(client: Any, tmp_path: Path) -> None:
    explorer = CompanyExplorer(client, WALDSTEIN)
    explorer.load()
    panel = explorer.document_downloads
    panel.directory.value = str(tmp_path / "docs")
    panel.choice.value = (WALDSTEIN, "structured_information")
    panel.button.click()
    saved = [p for p in (tmp_path / "docs").iterdir() if not p.name.startswith(".")]
    assert len(saved) == 1 and saved[0].suffix == ".xml"
    assert str(saved[0]) in panel.result.value and f"{saved[0].stat().st_size:,} bytes" in panel.result.value
    assert client.credits_spent == 30 and "Credits spent by this explorer: 30" in explorer.credits.value
    assert panel.button.description == "Download (0 credits)"  # the directory has it now
    panel.button.click()
    assert "kept" in panel.result.value and client.credits_spent == 30


def test_an_error_is_shown_not_raised(client: Any, tmp_path: Path) -> None:
    explorer = CompanyExplorer(client, WALDSTEIN)
    explorer.load()
    (tmp_path / "file").write_text("x")
    panel = explorer.document_downloads
    panel.directory.value = str(tmp_path / "file" / "sub")
    panel.choice.value = panel.choice.options[0][1]
    assert panel.download() is None
    assert "Not downloaded. Cannot write documents" in panel.result.value and client.credits_spent == 10
    assert "What to do: choose a directory" in panel.result.value  # a sentence: what happened, what to do


def test_choices_and_result_html_without_widgets(client: Any, tmp_path: Path) -> None:
    record = client.get_company(WALDSTEIN)
    choices = docs.document_choices(record)
    assert [value for _, value in choices[-6:]] == [(WALDSTEIN, c) for c in docs.CATEGORY_LABELS]
    dates = [label.split()[0] for label, _ in choices[:-6]]
    assert dates == sorted(dates, reverse=True)
    files = client.download(choices[0][1], tmp_path, progress=False)
    assert str(files[0].path) in docs.downloads_html(files)
