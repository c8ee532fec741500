"""Contract test: the official client's ``company.get_ubos_v1`` and ``company.get_historical_owners_v1``, strictly
validating, against ``regkit serve``.

A sample of the world's companies of every legal form is asked for both; what the client parses is compared with
the world's shareholdings and documents, and the errors map to the client's exception classes with the
register's codes.
"""

from __future__ import annotations

from collections import defaultdict

import pytest
from openregister import NotFoundError

pytestmark = pytest.mark.serve

LIST_FORMS = {"gmbh", "ug", "ggmbh"}


@pytest.fixture(scope="module")
def sample(world):
    by_form = defaultdict(list)
    for company_id, company in sorted(world.companies.items()):
        by_form[company["legal_form"]].append(company_id)
    picked = {cid for ids in by_form.values() for cid in ids[:: max(1, len(ids) // 4)][:4]}
    planted = {p["company_id"] for p in world.meta["transparenzregister"]["discrepancies"]}
    return sorted(picked | planted)


def test_ubos_parse_strictly_for_every_legal_form(register, world, sample):
    sdk = register.client()
    kinds = set()
    for company_id in sample:
        answer = sdk.company.get_ubos_v1(company_id)
        assert answer.company_id == company_id
        for ubo in answer.ubos:
            assert ubo.natural_person is not None and ubo.natural_person.full_name == ubo.name
            share = ubo.percentage_share if ubo.percentage_share is not None else ubo.max_percentage_share
            kinds.add("fictitious" if share is None else "owner")
            assert share is None or 25 < share <= 100
    assert kinds == {"fictitious", "owner"}


def test_ownership_history_parses_strictly_and_names_the_filed_lists(register, world, sample):
    sdk = register.client()
    shareholdings = defaultdict(list)
    for row in world.shareholdings:
        shareholdings[row["company_id"]].append(row)
    asked = 0
    for company_id in sample:
        company = world.companies[company_id]
        lists = {d["id"]: d["date"] for d in company["documents"] if d["type"] == "shareholder_list"}
        if not lists:
            with pytest.raises(NotFoundError) as raised:
                sdk.company.get_historical_owners_v1(company_id)
            assert raised.value.body["error"]["code"] == "owners_not_available"
            continue
        asked += 1
        owners = sdk.company.get_historical_owners_v1(company_id).owners
        seen = {h.document_id: h.document_date.date().isoformat() for o in owners for h in o.ownership_history}
        assert seen == lists
        current = {r["holder_id"] for r in shareholdings[company_id] if r["end"] is None}
        assert {o.id for o in owners if o.status == "active"} == current
        for owner in owners:
            assert owner.first_appearance == owner.ownership_history[0].document_date
            assert (owner.last_appearance is None) == (owner.status == "active")
    assert asked >= 6


def test_an_unknown_company_is_not_found_for_both(register):
    sdk = register.client()
    for call in (sdk.company.get_ubos_v1, sdk.company.get_historical_owners_v1):
        with pytest.raises(NotFoundError) as raised:
            call("DE-HRB-X9999-1")
        assert raised.value.body["error"]["code"] == "company_not_found"
