"""Checks as strict as the register's, before anything is sent; a company's former ids paid once.

Every refusal here is asserted with the register's own request counter: nothing reached it, nothing
was charged.
"""

from __future__ import annotations

from typing import Any

import pytest

from regkit.client import ValidationError


@pytest.fixture
def client(inprocess: Any) -> Any:
    """A client on a fresh in-process register; ``client.sent()`` counts requests that reached it."""
    made = inprocess.client()
    made.sent = lambda: len(inprocess.counter.counted)
    return made


@pytest.mark.parametrize("value", ["false", "true", 0, 1, None, "no"])
@pytest.mark.parametrize("argument", ["realtime", "export", "refresh_sources"])
def test_yes_no_arguments_take_booleans_only(client: Any, argument: str, value: Any) -> None:
    with pytest.raises(ValidationError, match=f"^{argument} must be True or False"):
        client.get_company("DE-HRB-R3101-94644", **{argument: value})
    assert client.sent() == 0 and client.credits_spent == 0


def test_bulk_and_estimate_take_booleans_only(client: Any) -> None:
    with pytest.raises(ValidationError, match="^realtime must be True or False"):
        client.get_companies(["DE-HRB-R3101-94644"], realtime="false", progress=False)
    with pytest.raises(ValidationError, match="^dry_run must be True or False"):
        client.get_companies(["DE-HRB-R3101-94644"], dry_run="yes", progress=False)
    with pytest.raises(ValidationError, match="^realtime must be True or False"):
        client.estimate_cost(["DE-HRB-R3101-94644"], realtime="false")
    assert client.sent() == 0


@pytest.mark.parametrize("bad", ["not-a-uuid", "eab7afa1-5101-41e0-9b9a", "../credits", "x" * 36])
def test_a_proceeding_id_must_be_uuid_shaped(client: Any, bad: str) -> None:
    with pytest.raises(ValidationError, match="is not a proceeding id"):
        client.get_insolvency(bad)
    assert client.sent() == 0


@pytest.mark.parametrize(
    "filters",
    [
        {"person_id": "x"},
        {"person_id": ["eab7afa1-5101-41e0-9b9a-161030e995b3", "x"]},
        [{"field": "person_id", "value": "DE-HRB-R3101-94644"}],
    ],
)
def test_a_person_filter_must_be_uuid_shaped(client: Any, filters: Any) -> None:
    with pytest.raises(ValidationError, match="is not a person id"):
        client.search_insolvencies(filters=filters)
    assert client.sent() == 0 and client.credits_spent == 0


@pytest.mark.parametrize(
    "filters",
    [{"court": "Charlotten\ud800burg"}, {"city": ["Berlin", "\udfff"]}, [{"field": "court", "keywords": ["a\ud800"]}]],
)
def test_text_that_is_not_valid_unicode_is_refused(client: Any, filters: Any) -> None:
    with pytest.raises(ValidationError, match="not valid text"):
        client.search_insolvencies(filters=filters)
    with pytest.raises(ValidationError, match="not valid text"):
        client.search_insolvencies(query="m\ud800ller")
    assert client.sent() == 0


@pytest.mark.parametrize("name", ["sandbox", "Sandbox", "SANDBOX", "sAnDbOx"])
def test_the_reserved_name_is_refused_in_any_case_before_the_password_is_sent(client: Any, name: str) -> None:
    with pytest.raises(ValidationError, match="reserved for the built-in test mode") as caught:
        client.store_credentials("tr-demo@regkit.example", "Transparenz-2026!", name=name)
    assert "Transparenz-2026!" not in str(caught.value)
    assert client.sent() == 0


@pytest.mark.parametrize("name", ["Sandbox", "SANDBOX"])
def test_only_the_exact_name_selects_the_test_mode(client: Any, name: str) -> None:
    with pytest.raises(ValidationError, match="use exactly 'sandbox'"):
        client.order_extract(credential_name=name)
    assert client.sent() == 0 and client.credits_spent == 0


def test_a_password_that_is_not_valid_unicode_is_refused_unseen(client: Any) -> None:
    with pytest.raises(ValidationError, match="password contains a character") as caught:
        client.store_credentials("tr-demo@regkit.example", "geheim\ud800")
    assert "geheim" not in str(caught.value)
    assert client.sent() == 0


# -- former ids ----------------------------------------------------------------------------------


def _moved(world_meta: dict[str, Any]) -> tuple[str, str]:
    former, current = sorted(world_meta["former_ids"].items())[0]
    return former, current


def test_a_lookup_by_a_former_id_is_paid_once(inprocess: Any, world_meta: dict[str, Any]) -> None:
    former, current = _moved(world_meta)
    client = inprocess.client()
    first = client.get_company(former)
    assert first.id == current and first.meta.credits == 10
    for _ in range(20):
        assert client.get_company(former).meta.from_cache
    assert client.get_company(current).meta.from_cache  # the same company, under its current id
    assert client.credits_spent == inprocess.used() == 10
    estimate = client.estimate_cost([former, current])
    assert (estimate.cached, estimate.credits) == (2, 0)


def test_a_lookup_by_the_current_id_also_serves_the_former_one(inprocess: Any, world_meta: dict[str, Any]) -> None:
    former, current = _moved(world_meta)
    client = inprocess.client()
    client.get_company(current)
    assert client.estimate_cost([former]).credits == 0
    assert client.get_company(former).meta.from_cache and client.credits_spent == inprocess.used() == 10


def test_former_ids_are_remembered_across_clients_sharing_the_cache(inprocess: Any, world_meta: dict[str, Any]) -> None:
    former, current = _moved(world_meta)
    inprocess.client().get_company(former)
    again = inprocess.client()
    assert again.get_company(current).meta.from_cache and again.get_company(former).meta.from_cache
    assert inprocess.used() == 10


# -- files ---------------------------------------------------------------------------------------


def test_cache_files_are_readable_by_their_owner_only(inprocess: Any, tmp_path: Any) -> None:
    import stat

    client = inprocess.client(cache=tmp_path / "private" / "cache.sqlite")
    client.get_company("DE-HRB-R3101-94644")
    files = sorted((tmp_path / "private").iterdir())
    assert {f.name for f in files} >= {"cache.sqlite"}
    for path in files:  # the database and SQLite's -wal / -shm beside it
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path.name
    assert stat.S_IMODE((tmp_path / "private").stat().st_mode) == 0o700


# -- the interface's search limits, checked before sending ---------------------------------------

from regkit.schema import interface as api  # noqa: E402


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({"query": "a" * (api.MAX_QUERY_LENGTH + 1)}, "characters long"),
        ({"query": " ".join(["in"] * (api.MAX_QUERY_TERMS + 1))}, "search terms"),
        ({"filters": {"court": "x" * (api.MAX_FILTER_TEXT + 1)}}, "characters long"),
        ({"filters": {"city": [f"Stadt {n}" for n in range(api.MAX_FILTER_VALUES + 1)]}}, "entries"),
        ({"filters": [{"field": "court", "value": f"Amtsgericht {n}"} for n in range(api.MAX_FILTERS + 1)]}, "filters"),
        ({"page": api.PAGE_MAX + 1}, "past the last possible page"),
    ],
)
def test_search_limits_are_refused_before_sending(client: Any, kwargs: dict[str, Any], fragment: str) -> None:
    with pytest.raises(ValidationError, match=fragment):
        client.search_insolvencies(**kwargs)
    assert client.sent() == 0 and client.credits_spent == 0


def test_searches_at_the_limits_are_answered(client: Any) -> None:
    page = client.search_insolvencies(
        query=" ".join(["gmbh"] * api.MAX_QUERY_TERMS),
        filters={"city": [f"Stadt {n}" for n in range(api.MAX_FILTER_VALUES - 1)] + ["Berlin"]},
    )
    assert client.sent() == 1 and page.meta.credits == 10
