"""The plots' date arguments (issue 40): ISO, or German ``DD.MM.YYYY`` read day first, or a ``ValidationError``.

The rule itself is tested in ``tests/frames/test_date_arguments.py``; here the figures that take a date.
"""

from __future__ import annotations

from typing import Any

import matplotlib.pyplot as plt
import pandas as pd
import pytest

import regkit.plot
from regkit.errors import ValidationError
from regkit.graph import from_companies
from regkit.plot.history import timeline, timeline_bars

UG = "DE-HRB-R3101-94644"  # UG → GmbH, roles still open
CHANGING = "DE-HRB-U1308-101888"  # a GmbH with four shareholder lists (1995 … 2014)
TOP = "DE-HRB-R2103-65834"  # an Organträger


def test_timeline_until_reads_a_german_date_day_first(company: Any) -> None:
    record = company(UG)
    german = timeline_bars(record, until="01.02.2027")
    pd.testing.assert_frame_equal(german, timeline_bars(record, until="2027-02-01"))
    assert german.loc[german["open"], "end"].eq(pd.Timestamp("2027-02-01")).all() and german["open"].any()


@pytest.mark.parametrize("text", ["yesterday", "2027-02-30", "02/01/2027"])
def test_timeline_refuses_what_is_no_date(company: Any, text: str) -> None:
    with pytest.raises(ValidationError, match=rf"^until {text!r} is not a date"):
        timeline(company(UG), until=text)


def test_timeline_until_today_still_works(company: Any) -> None:
    before = pd.Timestamp.today().normalize()
    bars = timeline_bars(company(UG), until="today")
    assert bars.loc[bars["open"], "end"].isin([before, pd.Timestamp.today().normalize()]).all()  # across midnight


def test_cap_table_until_reads_a_german_date(client: Any) -> None:
    history = client.get_ownership_history(CHANGING).to_dataframe()
    german = regkit.plot.cap_table(history, until="30.06.2026")
    iso = regkit.plot.cap_table(history, until="2026-06-30")
    assert german.get_xlim() == iso.get_xlim()
    assert [b.get_paths()[0].vertices.tolist() for b in german.collections] == [
        b.get_paths()[0].vertices.tolist() for b in iso.collections
    ]
    with pytest.raises(ValidationError, match=r"^until '06/30/2026' is not a date: slashed dates"):
        regkit.plot.cap_table(history, until="06/30/2026")
    plt.close("all")


def test_group_date_reads_a_german_date(company: Any) -> None:
    G = from_companies([company(TOP)])
    ax = regkit.plot.group(G, company_id=TOP, date="01.02.2020")
    assert ax.get_title().endswith("on 2020-02-01")
    with pytest.raises(ValidationError, match=r"^date 'last year' is not a date"):
        regkit.plot.group(G, company_id=TOP, date="last year")


def test_fiscal_years_read_text_day_first() -> None:
    # 01.06.2015 is 1 June (fiscal year 2015); read month first it would be 6 January (fiscal year 2014)
    assert regkit.plot.fiscal_years(["31.12.2014", "01.06.2015", "2015-03-31"]).tolist() == [2014, 2015, 2014]
    assert regkit.plot.fiscal_year_label("30.06.2015") == "2014/15"
    with pytest.raises(ValidationError, match=r"^dates '2015' is not a date"):
        regkit.plot.fiscal_years(["2015"])


def test_year_axis_reads_german_dates() -> None:
    _, ax = plt.subplots()
    german = regkit.plot.year_axis(ax, "01.03.2024", "20.03.2024").get_xlim()
    _, ax = plt.subplots()
    assert german == regkit.plot.year_axis(ax, "2024-03-01", "2024-03-20").get_xlim()
    with pytest.raises(ValidationError, match=r"^end '03/20/2024' is not a date"):
        regkit.plot.year_axis(ax, "2024-03-01", "03/20/2024")
