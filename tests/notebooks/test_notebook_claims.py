"""What the notebooks' prose says about their figures and tables, checked against the data they show (issue 46,
"Notebooks say only what their data show").

Each test reads the claim from the notebook's markdown as it is written (so changing the words without the data, or
the data without the words, fails here), then asks the bundled register — in-process, its demo key — or the
drawing code for the fact.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import regkit
from regkit.local import open_local_register

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"


def _markdown(name: str) -> str:
    notebook = json.loads((NOTEBOOKS / f"{name}.ipynb").read_text(encoding="utf-8"))
    return "\n".join("".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "markdown")


def _code(name: str) -> str:
    notebook = json.loads((NOTEBOOKS / f"{name}.ipynb").read_text(encoding="utf-8"))
    return "\n".join("".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "code")


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory):
    base = tmp_path_factory.mktemp("claims")
    register = open_local_register(state_path=base / "state.sqlite", key_path=base / "register.key", rate_limit=None)
    with regkit.Client(
        api_key="demo-paid", base_url=register.base_url, adapter=register.adapter, cache=False
    ) as session:
        yield session
    register.close()


def test_03_sends_the_reader_to_the_notebook_that_shows_luxlogs_group() -> None:
    text = _markdown("03_financial_indicators")
    linked = re.search(r"Luxlog Holding AG\*[^)]*\[(\w+)\]\(\1\.ipynb\)", text, flags=re.S)
    assert linked, "03 no longer says where Luxlog's group is shown"
    shown_in = linked.group(1)
    outputs = (NOTEBOOKS / f"{shown_in}.ipynb").read_text(encoding="utf-8")
    assert "Luxlog Holding AG (DE-HRB-R2103-65834)" in outputs, f"{shown_in} does not show Luxlog's group"


def test_08_names_the_colours_the_person_drawing_uses() -> None:
    from regkit.plot.group_styles import EDGE_STYLES, ROLE_COLOUR

    text = _markdown("08_people")
    sentence = re.search(r"The person and every company the crawl reached,([^:]*):", text)
    assert sentence, "08 no longer describes its drawing's lines"
    said = " ".join(sentence.group(1).split())
    colours = {"green": "#2E6B3A", "black": "#333333", "red": "#C44E52", "grey": "#BBBBBB"}
    roles = re.search(r"(\w+) markers in the person's column are their roles", said)
    assert roles and colours[roles.group(1)] == ROLE_COLOUR
    holdings = re.search(r"(\w+) (?:lines|ones) shareholdings", said)
    assert holdings and colours[holdings.group(1)] == EDGE_STYLES["shareholder"][1]
    transfers = re.search(r"(\w+) ones profit-transfer agreements", said)
    assert transfers and colours[transfers.group(1)] == EDGE_STYLES["profit_transfer"][1]
    assert "persons=True" in _code("08_people")  # the drawing the sentence describes draws the person's roles


def _stakes(client, company_id: str) -> dict[str, list[tuple[str, float]]]:
    """Each filed list's owners: list date → [(owner, percentage)], the lists oldest first."""
    history = client.get_ownership_history(company_id).to_dataframe()
    lists: dict[str, list[tuple[str, float]]] = {}
    for date, rows in history.groupby(history["document_date"].dt.strftime("%Y-%m-%d"), sort=True):
        lists[date] = [(name, round(float(p), 2)) for name, p in zip(rows["owner_name"], rows["percentage"])]
    return lists


def _handovers(lists: dict[str, list[tuple[str, float]]]) -> list[tuple[str, str, float, str]]:
    """(from, to, percentage, year of the list) wherever an owner of a list is gone from the next one and a new
    owner holds the same percentage there."""
    out = []
    dates = list(lists)
    for before, after in zip(dates, dates[1:]):
        old, new = dict(lists[before]), dict(lists[after])
        for owner, share in old.items():
            if owner not in new:
                heirs = [o for o, s in new.items() if o not in old and s == share]
                out += [(owner, heir, share, after[:4]) for heir in heirs]
    return out


def test_11_westkraft_two_stakes_changed_hands_once_each(client) -> None:
    text = " ".join(_markdown("11_ownership_and_filings").split())
    claim = re.search(r"Westkraft Handelsgesellschaft GmbH\* filed (\w+), and (.*?)\.\s", text)
    assert claim, "11 no longer describes Westkraft's lists"
    lists = _stakes(client, "DE-HRB-U1308-101888")
    assert claim.group(1) == {3: "three", 4: "four", 5: "five"}[len(lists)]
    said = re.findall(
        r"(\w[\w .]+?)(?:'s|') ([\d.]+) % (?:went )?to ([\w .]+?) \(the list of (\d{4})\)", claim.group(2)
    )
    assert said, claim.group(2)
    found = _handovers(lists)
    assert sorted((a, b, float(p), y) for a, p, b, y in said) == sorted(found)
    assert "two of its three stakes" in claim.group(2) and len(found) == 2 and len(lists[min(lists)]) == 3
    assert len({a for a, *_ in found}) == len(found)  # once each


def test_11_sep_leasing_the_largest_stake_went_from_tacke_to_koegel(client) -> None:
    text = " ".join(_markdown("11_ownership_and_filings").split())
    claim = re.search(
        r"the largest stake, ([\d.]+) %, is (.+?)'s now: the list of (\d{4}) .*? the list of (\d{4}) showed (.+?)'s\.",
        text,
    )
    assert claim, "11 no longer says whose the largest stake is"
    percent, owner, new_year, old_year, former = claim.groups()
    lists = _stakes(client, "DE-HRB-X1112-75364FL")
    newest, oldest = lists[max(lists)], lists[min(lists)]
    assert max(newest, key=lambda o: o[1]) == (owner, float(percent)) and max(lists)[:4] == new_year
    assert max(oldest, key=lambda o: o[1]) == (former, float(percent)) and min(lists)[:4] == old_year
    assert "the three current shareholders" in text and len(newest) == 3
    ubos = client.get_ubos("DE-HRB-X1112-75364FL").to_dataframe()
    assert len(ubos) == 3 and (ubos["share"] > 0.25).all()  # "each with more than a quarter"


def _outputs(name: str) -> list[tuple[str, dict]]:
    """(cell source, output) of every output of a notebook, in order."""
    notebook = json.loads((NOTEBOOKS / f"{name}.ipynb").read_text(encoding="utf-8"))
    return [("".join(c["source"]), o) for c in notebook["cells"] if c["cell_type"] == "code" for o in c["outputs"]]


def test_08_shows_its_explorer_after_driving_it() -> None:
    """Issue 46: the person explorer's snapshot was stored by the cell before the one that drives it — an empty
    form. The stored snapshot shows the person loaded, their positions on the summary tab."""
    shown = [
        "".join(o["data"]["text/html"])
        for _, o in _outputs("08_people")
        if "".join(o.get("data", {}).get("text/plain", "")).startswith("PersonExplorer(")
    ]
    assert len(shown) == 1
    text = " ".join(re.sub(r"<[^>]+>", " ", shown[0]).split())
    assert "Loaded Horst Westebbe and their holdings" in text and "Mainlog Holding AG — director" in text


def test_08_writes_company_names_one_way() -> None:
    """Issue 46: 08 showed an interlock's companies once as text ("A · B") and once as a tuple ("(A, B)")."""
    tables = [
        "".join(o["data"]["text/html"])
        for source, o in _outputs("08_people")
        if "interlocks(" in source and "text/html" in o.get("data", {})
    ]
    assert len(tables) == 2
    for table in tables:
        cells = re.findall(r"<td>([^<]*Mainlog[^<]*)</td>", table)
        assert cells and all(" · " in c or c.count("Mainlog") == 1 for c in cells), cells
        assert not any(c.startswith("(") for c in cells), cells
