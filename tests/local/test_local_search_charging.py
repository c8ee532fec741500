"""A search is charged only when it is answered: refused, failed or abandoned searches cost nothing.

The charge is made in the same SQLite transaction as the state change, after the page is ready
(:func:`regkit.local.models.credits.spend`). A search refused by the parser (400, including one past the limits)
never reaches it; a search whose client the server knows to have disconnected (waitress's
``waitress.client_disconnected``, which it offers in the WSGI environ) is not charged either.
"""

from __future__ import annotations

from local_support import PAID

from regkit.schema.interface import MAX_QUERY_LENGTH

SEARCH = "/v1/search/insolvency"


def _post(register, body, **environ):
    client = register.app.test_client()
    return client.post(SEARCH, json=body, headers={"Authorization": f"Bearer {PAID}"}, environ_overrides=environ)


def _used(api) -> int:
    return api().get("/v1/credits").json()["used_credits"]


def test_a_search_whose_client_has_gone_is_not_charged(register, api):
    before = _used(api)
    response = _post(register, {"query": "müller"}, **{"waitress.client_disconnected": lambda: True})
    assert response.status_code == 200
    assert response.headers["X-Credits-Charged"] == "0"
    assert _used(api) == before


def test_a_search_whose_client_is_there_is_charged(register, api):
    before = _used(api)
    response = _post(register, {"query": "müller"}, **{"waitress.client_disconnected": lambda: False})
    assert response.status_code == 200 and response.headers["X-Credits-Charged"] == "10"
    assert _used(api) == before + 10


def test_a_search_refused_for_its_limits_costs_nothing(register, api):
    before = _used(api)
    response = _post(register, {"query": "in " * 80_000})
    assert response.status_code == 400 and response.headers["X-Credits-Charged"] == "0"
    assert f"at most {MAX_QUERY_LENGTH} characters" in response.get_json()["error"]["message"]
    assert _used(api) == before
