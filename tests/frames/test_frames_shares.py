"""One unit for shares: every frame that carries a share gives it as ``share``, a fraction in [0, 1] (0.5 = 50 %),
null where the source gives none; ``percentage`` (and its kin) stay beside it in percent where the source gives one.

Through ``regkit.Client`` on the in-process local register. The expected values are the raw answers' (``record.raw``:
an owner's, a UBO's and an ownership-history entry's percentage, a holding's fraction, an extract's interest) and
the world's shareholdings rows, never the frames' code.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from typing import Any

import pandas as pd
import pytest

import regkit
from regkit.frames import beneficial_owners, holdings, owners, ownership_history, shareholder_list, ubos
from regkit.graph import add_ownership_history, from_companies
from regkit.graph import ubos as graph_ubos
from regkit.local.world.meta import TRANSPARENZREGISTER_ACCOUNTS

pytestmark = pytest.mark.slow

SEP = "DE-HRB-X1112-75364FL"  # SEP Leasing GmbH: the README's company for UBOs, ownership history and list PDFs
WALDSTEIN = "DE-HRB-X1517-62135KI"  # owners in percent on the wire, holdings as fractions
NO_OWNER = "DE-HRB-T2408-79657"  # nobody holds more than 25 %: a fictitious beneficial owner (notebook 06)


@pytest.fixture()
def client(isolated_env: Any) -> Iterator[regkit.Client]:
    """A client of the in-process local register, no cache, state in a temporary directory."""
    with regkit.Client(cache=False) as c:
        yield c


def _fraction(percent: float) -> Any:
    """The source's percentage / 100, to the last bit a fraction of at most 1 can differ by."""
    return pytest.approx(float(percent) / 100, rel=0, abs=1e-15)


def _partnership(world: Any) -> str:
    """A company a natural person holds more than 25 % of as a partner: its UBO answer gives only a maximum."""
    return min(
        r["company_id"]
        for r in world.shareholdings
        if r["end"] is None
        and r["holder_type"] == "natural_person"
        and r["relation_type"] in ("limited_partner", "general_partner")
        and r["share"] > 0.25
    )


def test_ownership_history_gives_each_lists_percentage_as_a_fraction(client: regkit.Client) -> None:
    record = client.get_ownership_history(SEP)
    frame = record.to_dataframe()
    assert frame.equals(ownership_history(record.raw, SEP))
    expected = {
        (owner["name"], entry["document_id"]): entry["percentage_shares"]
        for owner in record.raw["owners"]
        for entry in owner["ownership_history"]
    }
    assert len(frame) == len(expected) == 6  # three owners on each of the two lists (1990, 2021)
    assert (str(frame["share"].dtype), str(frame["percentage"].dtype)) == ("Float64", "Float64")
    for name, document, share, percentage in zip(
        frame["owner_name"], frame["document_id"], frame["share"], frame["percentage"]
    ):
        assert share == _fraction(expected[name, document]) and percentage == expected[name, document]
    assert frame.groupby("document_id")["share"].sum().tolist() == pytest.approx([1.0, 1.0], abs=1e-4)
    # the same holding on the same scale, to the bit, as the current owners' frame gives it
    latest = frame[frame["status"] == "active"]
    current = client.get_owners(SEP).to_dataframe()
    assert dict(zip(latest["owner_name"], latest["share"])) == dict(zip(current["holder_name"], current["share"]))


def test_ubos_give_the_share_and_the_maximum_as_fractions_and_no_share_as_null(
    client: regkit.Client, world: Any
) -> None:
    record = client.get_ubos(SEP)
    frame = record.to_dataframe()
    assert frame.equals(ubos(record.raw))
    raw = record.raw["ubos"]
    assert len(frame) == len(raw) == 3 and all(u["percentage_share"] for u in raw)
    assert frame["share"].tolist() == [_fraction(u["percentage_share"]) for u in raw]
    assert frame["percentage"].tolist() == [u["percentage_share"] for u in raw]
    assert frame["max_share"].isna().all() and frame["max_percentage"].isna().all()
    assert (frame["share"] > 0.25).all()

    partnership = client.get_ubos(_partnership(world))
    frame = partnership.to_dataframe()
    raw = partnership.raw["ubos"]
    assert raw and all(u["percentage_share"] is None for u in raw)  # held through a partner's stake: a maximum
    assert frame["share"].isna().all() and not frame["is_fictitious"].any()
    assert frame["max_share"].tolist() == [_fraction(u["max_percentage_share"]) for u in raw]
    assert frame["max_percentage"].tolist() == [u["max_percentage_share"] for u in raw]

    fictitious = client.get_ubos(NO_OWNER).to_dataframe()
    assert len(fictitious) and fictitious["is_fictitious"].all()
    assert fictitious[["share", "max_share"]].isna().all().all()  # no share known: null, never 0


def test_a_shareholder_list_pdf_reads_back_the_history_of_its_document_as_fractions(
    client: regkit.Client, tmp_path: Any
) -> None:
    history = client.get_ownership_history(SEP)
    expected = {
        (owner["name"], entry["document_id"]): entry["percentage_shares"]
        for owner in history.raw["owners"]
        for entry in owner["ownership_history"]
    }
    company = client.get_company(SEP)
    lists = [(SEP, d["id"]) for d in company.raw["documents"] if d["type"] == "shareholder_list"]
    files = client.download(lists, tmp_path, progress=False)
    assert len(lists) == 2
    for file in files:
        frame = shareholder_list(file.path)
        assert (str(frame["share"].dtype), str(frame["total_share"].dtype)) == ("Float64", "Float64")
        for name, document, share, percentage in zip(
            frame["holder_name"], frame["document_id"], frame["share"], frame["percentage"]
        ):
            assert share == _fraction(expected[name, document]) and percentage == expected[name, document]
        by_holder = frame.groupby("holder_name")["share"].sum()
        for name, total in zip(frame["holder_name"], frame["total_share"]):
            assert total == pytest.approx(by_holder[name], abs=1e-12)
        # the PDF prints the history's percentages: the same fractions, to the bit, as the history frame gives
        mine = history.to_dataframe()
        mine = mine[mine["document_id"] == frame["document_id"].iloc[0]]
        assert sorted(zip(frame["holder_name"], frame["share"])) == sorted(zip(mine["owner_name"], mine["share"]))


def test_owners_percentages_and_holdings_fractions_come_out_on_one_scale(client: regkit.Client) -> None:
    record = client.get_owners(WALDSTEIN)
    frame = record.to_dataframe()
    raw = record.raw["owners"]
    assert frame["share"].tolist() == [_fraction(o["percentage_share"]) for o in raw]
    assert raw[0]["percentage_share"] == 33.33 and frame["share"].iloc[0] == 0.3333  # the example
    held = client.get_holdings(WALDSTEIN)
    frame = held.to_dataframe()
    assert len(frame) > 10 and frame.equals(holdings(held.raw))
    assert frame["share"].tolist() == [h["percentage_share"] for h in held.raw["holdings"]]  # a fraction already
    person = raw[0]["id"]
    personal = client.get_person_holdings(person)
    assert personal.to_dataframe()["share"].tolist() == [h["percentage_share"] for h in personal.raw["holdings"]]
    assert WALDSTEIN in set(personal.to_dataframe()["company_id"])
    mine = personal.to_dataframe().set_index("company_id")["share"]
    assert mine[WALDSTEIN] == owners(record.raw).set_index("holder_id")["share"][person]  # seen from either side


def test_an_extracts_beneficial_owners_and_the_graphs_give_fractions(client: regkit.Client) -> None:
    account = TRANSPARENZREGISTER_ACCOUNTS[0]
    assert account["state"] == "valid"
    client.store_credentials(account["username"], account["password"])
    extract = client.wait_for_extract(client.order_extract(SEP).id, timeout=30, poll=0.05)
    frame = extract.to_dataframe()
    assert frame.equals(beneficial_owners(extract.raw))
    interests = [u["interest"]["percentage"] for u in extract.raw["report"]["ubos"]]
    assert len(interests) == 4 and frame["share"].tolist() == [_fraction(p) for p in interests]
    assert frame["interest_percentage"].tolist() == interests
    fictional = client.wait_for_extract(client.order_extract(NO_OWNER).id, timeout=30, poll=0.05).to_dataframe()
    assert fictional["interest_type"].tolist() == ["fictional"] and fictional["share"].isna().all()

    history = client.get_ownership_history(SEP)
    G = from_companies([client.get_company(SEP)], relations=("representation", "ownership"))
    add_ownership_history(G, SEP, history)
    derived = graph_ubos(G, SEP)
    service = {u["name"]: u["percentage_share"] for u in client.get_ubos(SEP).raw["ubos"]}
    assert dict(zip(derived["name"], derived["share"])) == {n: _fraction(p) for n, p in service.items()}
    assert dict(zip(derived["name"], derived["percentage"])) == service


def _share_columns(frame: pd.DataFrame) -> list[str]:
    """The columns of a frame that carry a share: ``share`` and ``…_share`` but the nominal amount in EUR."""
    return [c for c in frame.columns if (c == "share" or c.endswith("_share")) and c != "nominal_share"]


def test_no_frame_gives_a_share_above_one(client: regkit.Client, world: Any, tmp_path: Any) -> None:
    companies = sorted(world.companies)
    walked = [SEP, WALDSTEIN, NO_OWNER, _partnership(world), *companies[::100]]
    frames: dict[str, list[pd.DataFrame]] = defaultdict(list)
    for company_id in walked:
        company = client.get_company(company_id)
        owned = client.get_owners(company_id, best_available=True)  # an AG's from filed documents
        frames["owners"].append(owned.to_dataframe())
        frames["holdings"].append(client.get_holdings(company_id).to_dataframe())
        for person in {o["id"] for o in owned.raw["owners"] if o["type"] == "natural_person" and o.get("id")}:
            frames["person holdings"].append(client.get_person_holdings(person).to_dataframe())
        frames["ubos"].append(client.get_ubos(company_id).to_dataframe())
        lists = [(company_id, d["id"]) for d in company.raw["documents"] or () if d["type"] == "shareholder_list"]
        if lists:
            history = client.get_ownership_history(company_id)
            frames["ownership history"].append(history.to_dataframe())
            files = client.download(lists[-1:], tmp_path / company_id, progress=False)
            frames["shareholder list"].append(shareholder_list(files[0].path))
            G = from_companies([company], relations=("representation", "ownership"))
            add_ownership_history(G, company_id, history)
            frames["graph ubos"].append(graph_ubos(G, company_id))
    client.store_credentials(TRANSPARENZREGISTER_ACCOUNTS[0]["username"], TRANSPARENZREGISTER_ACCOUNTS[0]["password"])
    frames["extract"].append(
        client.wait_for_extract(client.order_extract(SEP).id, timeout=30, poll=0.05).to_dataframe()
    )

    percent_seen = 0.0
    for what, found in frames.items():
        frame = pd.concat(found, ignore_index=True)
        columns = _share_columns(frame)
        assert "share" in columns, what
        for name in columns:
            assert str(frame[name].dtype) == "Float64", (what, name)
            values = frame[name].dropna()
            assert values.between(0, 1).all(), (what, name, values[~values.between(0, 1)].tolist())
        percents = [frame[c].dropna() for c in frame.columns if "percentage" in c]
        percent_seen = max([percent_seen, *(float(v.max()) for v in percents if len(v))])
    assert percent_seen > 1  # the percent columns beside the shares are on the other scale: the walk would see it
    assert min(len(frames["ownership history"]), len(frames["shareholder list"]), len(frames["graph ubos"])) >= 10
    assert pd.concat(frames["ubos"])["max_share"].notna().any()  # a maximum through a partner's stake was walked
