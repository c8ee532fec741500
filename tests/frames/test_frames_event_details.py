"""``events()``: event details published as text — parsed values beside the published text, never an exception."""

from __future__ import annotations

import json
import re
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from regkit.frames import events

AMOUNTS = ("distribution_available", "distribution_claims_total")
DATES = ("claims_filing_deadline", "closed_at")


def proceeding(*details: dict[str, Any]) -> dict[str, Any]:
    """A proceeding with one event per ``details`` (members not given are null)."""
    empty = {
        "insolvency_grounds": [],
        "meetings": [],
        "administrator_name": None,
        "administrator_address": None,
        "claims_filing_deadline": None,
        "closed_at": None,
        "discharge_granted": None,
        "distribution_available": None,
        "distribution_claims_total": None,
    }
    return {
        "id": "p",
        "events": [
            {
                "id": f"e{i}",
                "event_type": "other",
                "report_type": "misc",
                "published_at": f"2024-01-{i + 1:02d}",
                "decision_date": None,
                "effective_at": None,
                "summary": "",
                "details": {**empty, **d},
            }
            for i, d in enumerate(details)
        ],
    }


def test_text_in_several_forms_and_what_was_published_beside_it() -> None:
    frame = events(
        proceeding(
            {
                "distribution_available": "14.102,57 EUR",
                "distribution_claims_total": "EUR 1.000.000,-",
                "claims_filing_deadline": "01.03.2024",
                "closed_at": "2024-12-31",
            },
            {
                "distribution_available": "€ 14,102.57",
                "distribution_claims_total": "nicht beziffert",
                "claims_filing_deadline": "wird gesondert bekannt gemacht",
                "closed_at": "5.1.2025",
            },
            {
                "distribution_available": 14102.57,
                "distribution_claims_total": 250000,  # an older server: numbers
                "claims_filing_deadline": None,
                "closed_at": None,
            },
        )
    )
    assert frame["distribution_available"].tolist() == [14102.57, 14102.57, 14102.57]
    assert frame["distribution_available_text"].tolist() == ["14.102,57 EUR", "€ 14,102.57", "14102.57"]
    assert frame["distribution_claims_total"].tolist()[::2] == [1_000_000.0, 250_000.0]
    assert frame["distribution_claims_total"].isna().tolist() == [False, True, False]
    assert frame["distribution_claims_total_text"].tolist() == ["EUR 1.000.000,-", "nicht beziffert", "250000"]
    assert frame["claims_filing_deadline"].tolist()[0] == pd.Timestamp("2024-03-01")
    assert frame["claims_filing_deadline"].isna().tolist() == [False, True, True]
    assert frame["claims_filing_deadline_text"].tolist()[:2] == ["01.03.2024", "wird gesondert bekannt gemacht"]
    assert frame["closed_at"].tolist()[:2] == [pd.Timestamp("2024-12-31"), pd.Timestamp("2025-01-05")]
    assert pd.isna(frame["closed_at_text"].iloc[2])


def test_dtypes_of_the_parsed_and_published_columns() -> None:
    frame = events(proceeding({"distribution_available": "1,50"}))
    for name in AMOUNTS:
        assert frame[name].dtype == "Float64" and frame[f"{name}_text"].dtype == "str"
    for name in DATES:
        assert frame[name].dtype == np.dtype("datetime64[us]") and frame[f"{name}_text"].dtype == "str"
    columns = list(frame.columns)
    for name in (*AMOUNTS, *DATES):  # each published text right after its value
        assert columns.index(f"{name}_text") == columns.index(name) + 1


def test_meeting_times_in_text() -> None:
    frame = events(
        proceeding(
            {
                "meetings": [
                    {"kind": "report_meeting", "at": "02.05.2024, 10:00 Uhr", "location": "Saal 3"},
                    {"kind": "examination_meeting", "at": "bei Gericht zu erfragen", "location": None},
                ]
            }
        )
    )
    assert frame["report_meeting_at"].iloc[0] == pd.Timestamp("2024-05-02 08:00", tz="UTC")
    assert pd.isna(frame["examination_meeting_at"].iloc[0]) and frame["meeting_count"].iloc[0] == 2
    assert frame["meetings"].iloc[0] == (
        "report_meeting 02.05.2024, 10:00 Uhr Saal 3; examination_meeting bei Gericht zu erfragen"
    )


@pytest.mark.slow
def test_the_bundled_world(world: Any) -> None:
    """Every published value of the world that holds a digit parses, to the value the proceeding gives in
    typed form (its amounts in euros, its dates); the published text is kept as is."""
    parsed = 0
    for p in world.insolvencies.values():
        frame = events(p)
        by_id = {e["id"]: e["details"] for e in p["events"]}
        for row in frame.itertuples():
            details = by_id[row.id]
            for name in (*AMOUNTS, *DATES):
                published, value = details[name], getattr(row, name)
                text = getattr(row, f"{name}_text")
                if published is None:
                    assert pd.isna(value) and pd.isna(text)
                    continue
                assert text == (published if isinstance(published, str) else json.dumps(published))
                if pd.isna(value):
                    assert not re.search(r"[0-9]", text), (p["id"], name, text)
                    continue
                parsed += 1
                if name in AMOUNTS:
                    assert value == p[name], (p["id"], name, text)
                elif p[name] is not None:
                    assert value == pd.Timestamp(p[name]), (p["id"], name, text)
    assert parsed > 1000


anything = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=2) | st.dictionaries(st.text(max_size=4), inner, max_size=2),
    max_leaves=4,
)
amount_like = st.text(alphabet="0123456789.,' -+€EURuro", max_size=20)
date_like = st.text(alphabet="0123456789.-: TZ", max_size=22)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.fixed_dictionaries(
            {
                "distribution_available": anything | amount_like,
                "distribution_claims_total": anything | amount_like,
                "claims_filing_deadline": anything | date_like,
                "closed_at": anything | date_like,
                "meetings": st.lists(
                    st.fixed_dictionaries(
                        {
                            "kind": st.sampled_from(["report_meeting", "examination_meeting"]),
                            "at": st.none() | date_like | st.text(max_size=10),
                            "location": st.none() | st.text(max_size=5),
                        }
                    ),
                    max_size=2,
                ),
            }
        ),
        max_size=4,
    )
)
def test_never_an_exception_and_the_text_is_kept(details: list[dict[str, Any]]) -> None:
    frame = events(proceeding(*details))
    assert len(frame) == len(details)
    for d, (_, row) in zip(details, frame.iterrows()):
        for name in (*AMOUNTS, *DATES):
            if isinstance(d[name], str):
                assert row[f"{name}_text"] == d[name]
            elif d[name] is None:
                assert pd.isna(row[f"{name}_text"]) and pd.isna(row[name])


def test_discharge_granted_in_words_is_read_as_it_says() -> None:
    frame = events(
        proceeding(
            {"discharge_granted": True},
            {"discharge_granted": "nein"},
            {"discharge_granted": "Erteilt"},
            {"discharge_granted": "unklar"},
        )
    )
    assert frame["discharge_granted"].tolist() == [True, False, True, pd.NA]
