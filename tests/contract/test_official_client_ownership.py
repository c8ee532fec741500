"""Contract test: the official client's owners, holdings and person methods, strictly validating, against
``regkit serve``.

``sdk.company.get_owners_v1``, ``get_holdings_v1``, ``sdk.person.get_details_v1`` and ``get_holdings_v1`` parse
every answer for a sample of the world's companies and persons (every legal form, every relation type, past
holdings, persons without a published date of birth); what they parse is compared with the world's records,
and the error statuses map to the client's exception classes with the register's codes.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import pytest
from openregister import BadRequestError, NotFoundError

pytestmark = pytest.mark.serve

NOT_IN_REGISTER = {"ag", "se", "kgaa"}


def dump(model: Any) -> dict[str, Any]:
    return model.to_dict(mode="json")


@pytest.fixture(scope="module")
def people(world):
    """Representation entries with a person id, by that id: ``(company, entry)``."""
    found = defaultdict(list)
    for company in world.companies.values():
        for entry in company["representation"]:
            if entry["type"] == "natural_person" and entry["id"]:
                found[entry["id"]].append((company, entry))
    return found


@pytest.mark.slow
def test_owners_and_holdings_parse_strictly_for_every_legal_form(register, world):
    sdk = register.client()
    by_form: dict[str, list[str]] = defaultdict(list)
    for company_id, company in world.companies.items():
        by_form[company["legal_form"]].append(company_id)
    sample = sorted(cid for ids in by_form.values() for cid in ids[:: max(1, len(ids) // 4)][:4])
    relations = set()
    for company_id in sample:
        legal_form = world.companies[company_id]["legal_form"]
        owners = sdk.company.get_owners_v1(company_id, best_available=legal_form in NOT_IN_REGISTER)
        assert owners.company_id == company_id and owners.best_available == (legal_form in NOT_IN_REGISTER)
        relations |= {o.relation_type for o in owners.owners}
        assert sum(o.percentage_share or 0 for o in owners.owners) <= 100.0001
        holdings = sdk.company.get_holdings_v1(company_id)
        assert holdings.company_id == company_id
    assert relations >= {"shareholder", "limited_partner", "general_partner"}


def test_a_holding_company_lists_current_and_past_holdings(register, world):
    sdk = register.client()
    organtraeger = max(world.meta["groups"], key=lambda g: len(g["members"]))["organtraeger"]
    holdings = sdk.company.get_holdings_v1(organtraeger).holdings
    listed = {
        (c["id"], e["start_date"], e["end_date"])
        for c in world.companies.values()
        for e in c["representation"]
        if e["id"] == organtraeger and e["role"] == "SHAREHOLDER"
    }
    parsed = {(h.company_id, dump(h).get("start"), dump(h).get("end")) for h in holdings}
    assert parsed == listed and all(0 < (h.percentage_share or 0) <= 1 for h in holdings)


def test_stock_corporation_owners_without_best_available_are_not_found(register, world):
    sdk = register.client()
    corporation = next(c for c in sorted(world.companies) if world.companies[c]["legal_form"] == "ag")
    with pytest.raises(NotFoundError) as raised:
        sdk.company.get_owners_v1(corporation)
    assert raised.value.body["error"]["code"] == "owners_not_available"


def test_persons_parse_strictly_with_their_positions_and_holdings(register, people):
    sdk = register.client()
    busy = sorted(people, key=lambda p: (-len(people[p]), p))[:5]
    unborn = [p for p in sorted(people) if people[p][0][1]["natural_person"]["date_of_birth"] is None][:3]
    holders = [p for p in sorted(people) if any(e["role"] == "SHAREHOLDER" and e["end_date"] for _, e in people[p])][:3]
    assert unborn and holders
    for person_id in busy + unborn + holders:
        person = sdk.person.get_details_v1(person_id)
        expected = sorted((c["id"], e["role"]) for c, e in people[person_id] if e["role"] != "SHAREHOLDER")
        assert sorted((p.register_id, p.role) for p in person.management_positions) == expected
        assert dump(person).get("date_of_birth") == people[person_id][0][1]["natural_person"]["date_of_birth"]
        holdings = sdk.person.get_holdings_v1(person_id)
        held = {(c["id"], e["end_date"]) for c, e in people[person_id] if e["role"] == "SHAREHOLDER"}
        assert {(h.company_id, dump(h).get("end")) for h in holdings.holdings} == held


def test_person_errors_map_to_the_clients_exceptions(register):
    sdk = register.client()
    with pytest.raises(BadRequestError) as bad:
        sdk.person.get_details_v1("not-a-uuid")
    assert bad.value.body["error"]["code"] == "invalid_person_id"
    with pytest.raises(NotFoundError) as unknown:
        sdk.person.get_holdings_v1("00000000-0000-4000-8000-000000000000")
    assert unknown.value.body["error"]["code"] == "person_not_found"


def test_a_consumer_debtor_is_a_person_without_positions(register, world, people):
    sdk = register.client()
    debtor = next(
        p
        for p in sorted(world.insolvencies.values(), key=lambda p: p["id"])
        if p.get("person_id") and p["person_id"] not in people
    )
    person = sdk.person.get_details_v1(debtor["person_id"])
    assert person.management_positions == [] and person.city == debtor["city"]
    assert f"{person.first_name} {person.last_name}" == debtor["debtor_name"]
