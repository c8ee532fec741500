"""The register's answers as FollowTheMoney entities: the format of Aleph, OpenSanctions and their tools, which take
them on to Neo4j (``ftm export-neo4j-bulk``), Gephi (``ftm export-gexf``), CSV or RDF.

One answer gives the entities it says something about (:class:`FtmMapper`); an entity is made once, by the answer
that says most about it (persons from person answers before their representation entries, proceedings from their
own answers before a company's summaries, companies from their own records — a company only named elsewhere, as an
owner or a link's other side, gets a short entity at the end).

=====================  ========================================================================================
FtM schema             made from
=====================  ========================================================================================
Company                a company answer: name, former names, register number and court, legal form, status,
                       address, incorporation and dissolution, WZ codes, LEI, website, e-mail, phone, VAT id
Person                 a person answer, or a natural person's representation entry or shareholding
LegalEntity            a legal person without a company id (a foreign company, a municipality) as representative
                       or owner
Directorship           a representation entry but ``SHAREHOLDER``: role, start and end
Ownership              a shareholding (owners and holdings answers): percentage, nominal amount in EUR, start and
                       end; a ``SHAREHOLDER`` entry where no shareholding says more (no percentage)
Succession             a merger (the merged company → the acquirer) and a spin-off (the company → the one spun off)
UnknownLink            a profit-transfer agreement (the controlled company → its controlling company)
CourtCase              an insolvency proceeding (from its answer, else a company's summary of it)
CourtCaseParty         the debtor of a proceeding
=====================  ========================================================================================

Ids: a company's id is its register id, a person's their UUID; a key regkit derives for a representative without
id (:func:`regkit.schema.identity.person_key`) and every link are hashed into an FtM id (``make_id``), so that the
same thing gets the same id in every export.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

import orjson

from regkit.schema.identity import is_company_id, legal_key, person_key
from regkit.schema.labels import ROLE_LABELS

__all__ = ["FTM_ORDER", "FtmMapper", "require_followthemoney"]

#: The order in which the kinds of answer are mapped: the answers that say most about a thing first.
FTM_ORDER = ("person", "insolvency", "owners", "holdings", "person_holdings", "company")

_FTM_ID = re.compile(r"[0-9a-zA-Z]([0-9a-zA-Z.\-]*[0-9a-zA-Z])?")
_COUNTRY = {"DE": "de", "Deutschland": "de", "Germany": "de"}


def require_followthemoney() -> Any:
    """``followthemoney.model``, or an ImportError that says how to install it."""
    try:
        from followthemoney import model
    except ImportError as exc:
        raise ImportError(
            "the FollowTheMoney export needs followthemoney 4 (Python >= 3.11), which is not installed: pip install "
            "followthemoney (regkit's ftm extra: pip install -e '.[ftm]' in the checkout; it builds PyICU, which "
            "needs ICU's headers: apt-get install libicu-dev pkg-config)"
        ) from exc
    return model


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value.strip() else None


class FtmMapper:
    """Makes FtM entities from answers, each entity once (the ids made are remembered).

    Parameters
    ----------
    publisher : str
        What each entity's ``publisher`` says (the world's source, or the service a cache was filled from).
    """

    def __init__(self, publisher: str):
        self.model = require_followthemoney()
        self.publisher = publisher
        self.made: set[str] = set()
        self.named: dict[str, str | None] = {}  # companies named by an answer without a record of their own: id → name
        self.held: set[tuple[str, str, Any]] = set()  # (owner, asset, start) of the shareholdings made
        self.counts: dict[str, int] = {}

    # -- the answers ------------------------------------------------------------------------------------------------
    def entities(self, kind: str, answer: Mapping[str, Any]) -> Iterator[Any]:
        """The entities ``answer`` (of ``kind``: company, owners, holdings, person_holdings, person, insolvency)
        gives that were not made before."""
        if kind == "company":
            yield from self._company(answer)
        elif kind == "owners":
            for owner in answer.get("owners") or ():
                yield from self._owner(answer["company_id"], owner)
        elif kind in ("holdings", "person_holdings"):
            holder = answer.get("company_id") or answer.get("person_id")
            for holding in answer.get("holdings") or ():
                yield from self._holding(str(holder), holding)
        elif kind == "person":
            yield from self._person_answer(answer)
        elif kind == "insolvency":
            yield from self._proceeding(answer, full=True)
        else:
            raise ValueError(f"unknown kind of answer {kind!r}")

    def named_companies(self) -> Iterator[Any]:
        """A short Company entity (id and name) of every company an answer named but none described."""
        for company_id, name in sorted(self.named.items()):
            if company_id not in self.made:
                entity = self._new("Company", company_id)
                self._add(entity, "name", name or company_id)
                self._add(entity, "registrationNumber", company_id)
                self._add(entity, "jurisdiction", "de")
                yield from self._done(entity)

    # -- making entities --------------------------------------------------------------------------------------------
    def _new(self, schema: str, entity_id: str) -> Any:
        entity = self.model.make_entity(schema)
        entity.id = entity_id
        return entity

    def _link(self, schema: str, *parts: Any) -> Any:
        entity = self.model.make_entity(schema)
        entity.make_id("regkit", schema, *(str(p) for p in parts))
        return entity

    @staticmethod
    def node_id(key: str) -> str:
        """The FtM id of a thing regkit knows by ``key``: the key itself where FtM takes it (a register id, a UUID),
        else a hash of it."""
        if _FTM_ID.fullmatch(key):
            return key
        from followthemoney.util import make_entity_id

        return str(make_entity_id("regkit", key))

    def _add(self, entity: Any, prop: str, value: Any) -> None:
        if value is None or value == "" or value == []:
            return
        entity.add(prop, value)

    def _done(self, entity: Any) -> Iterator[Any]:
        if entity.id in self.made:
            return
        self.made.add(entity.id)
        self._add(entity, "publisher", self.publisher)
        self.counts[entity.schema.name] = self.counts.get(entity.schema.name, 0) + 1
        yield entity

    def _mention(self, company_id: str | None, name: str | None) -> None:
        if is_company_id(company_id) and company_id not in self.made:
            self.named.setdefault(company_id, _text(name))

    # -- companies --------------------------------------------------------------------------------------------------
    def _company(self, record: Mapping[str, Any]) -> Iterator[Any]:
        company_id = record["id"]
        company = self._new("Company", company_id)
        name = (record.get("name") or {}).get("name")
        self._add(company, "name", name)
        former = sorted({n.get("name") for n in record.get("names") or () if n.get("name") and n.get("name") != name})
        self._add(company, "previousName", former)
        register = record.get("register") or {}
        number = " ".join(p for p in (register.get("register_type"), register.get("register_number")) if p)
        self._add(company, "registrationNumber", number or None)
        self._add(company, "registrationNumber", company_id)
        self._add(company, "jurisdiction", "de")
        self._add(company, "legalForm", record.get("legal_form"))
        self._add(company, "status", record.get("status"))
        address = record.get("address") or {}
        self._add(company, "address", address.get("formatted_value"))
        self._add(company, "country", _COUNTRY.get(str(address.get("country")), "de"))
        self._add(company, "incorporationDate", record.get("incorporated_at"))
        self._add(company, "dissolutionDate", record.get("terminated_at"))
        self._add(company, "summary", _text((record.get("purpose") or {}).get("purpose")))
        codes = (record.get("industry_codes") or {}).get("WZ2025") or ()
        self._add(company, "sector", [f"WZ 2025 {c['code']}" for c in codes if c.get("code")])
        self._add(company, "leiCode", record.get("lei"))
        contact = record.get("contact") or {}
        self._add(company, "website", contact.get("website_url"))
        self._add(company, "email", contact.get("email"))
        self._add(company, "phone", contact.get("phone"))
        self._add(company, "vatCode", contact.get("vat_id"))
        yield from self._done(company)
        for entry in record.get("representation") or ():
            yield from self._representation(company_id, entry)
        merged = record.get("merged_into")
        if merged:
            yield from self._succession(company_id, merged["company_id"], merged, "merger", merged.get("name"))
        for acquired in record.get("acquisitions") or ():
            yield from self._succession(acquired["company_id"], company_id, acquired, "merger", acquired.get("name"))
        for spin in record.get("asset_spin_offs") or ():
            yield from self._succession(company_id, spin["company_id"], spin, "spin-off", spin.get("name"))
        agreement = record.get("profit_transfer_agreement")
        if agreement:
            link = self._link("UnknownLink", "profit_transfer", company_id, agreement["company_id"])
            self._add(link, "subject", company_id)
            self._add(link, "object", agreement["company_id"])
            self._add(link, "role", "profit-transfer agreement (Gewinnabführungsvertrag)")
            self._add(link, "startDate", agreement.get("registration_date"))
            self._add(link, "date", agreement.get("agreement_date"))
            self._mention(agreement["company_id"], agreement.get("name"))
            yield from self._done(link)
        for summary in record.get("insolvencies") or ():
            yield from self._proceeding({**summary, "company_id": company_id, "debtor_name": name}, full=False)

    def _succession(
        self, predecessor: str, successor: str, link: Mapping[str, Any], what: str, other_name: str | None
    ) -> Iterator[Any]:
        entity = self._link("Succession", what, predecessor, successor)
        self._add(entity, "predecessor", predecessor)
        self._add(entity, "successor", successor)
        self._add(entity, "role", what)
        self._add(entity, "startDate", link.get("registration_date"))
        self._add(entity, "date", link.get("agreement_date"))
        for company_id in (predecessor, successor):
            self._mention(company_id, other_name)
        yield from self._done(entity)

    # -- persons ----------------------------------------------------------------------------------------------------
    def _person_answer(self, answer: Mapping[str, Any]) -> Iterator[Any]:
        person = self._new("Person", self.node_id(str(answer["id"])))
        first, last = answer.get("first_name"), answer.get("last_name")
        self._add(person, "name", " ".join(p for p in (first, last) if p) or None)
        self._add(person, "firstName", first)
        self._add(person, "lastName", last)
        self._add(person, "birthDate", answer.get("date_of_birth"))
        self._add(person, "address", answer.get("city"))
        yield from self._done(person)

    def _party(self, entry: Mapping[str, Any], company_id: str) -> tuple[str, Iterator[Any]]:
        """The FtM id of the representative or owner ``entry`` describes, and its entity if not made yet."""
        if entry.get("type") == "legal_person":
            given = entry.get("id")
            if is_company_id(given):
                self._mention(given, entry.get("name"))
                return given, iter(())
            key = given if isinstance(given, str) and given else legal_key(entry)
            legal = entry.get("legal_person") or {}
            entity = self._new("LegalEntity", self.node_id(key))
            self._add(entity, "name", legal.get("name") or entry.get("name"))
            self._add(entity, "address", legal.get("city"))
            self._add(entity, "country", (legal.get("country") or "").lower() or None)
            return entity.id, self._done(entity)
        natural = entry.get("natural_person") or {}
        entity = self._new("Person", self.node_id(person_key(entry, company_id)))
        self._add(entity, "name", entry.get("name"))
        self._add(entity, "firstName", natural.get("first_name"))
        self._add(entity, "lastName", natural.get("last_name"))
        self._add(entity, "birthDate", natural.get("date_of_birth"))
        self._add(entity, "address", natural.get("city"))
        return entity.id, self._done(entity)

    def _representation(self, company_id: str, entry: Mapping[str, Any]) -> Iterator[Any]:
        party, made = self._party(entry, company_id)
        yield from made
        role = entry.get("role")
        if role == "SHAREHOLDER":  # a shareholding (owners, holdings) of the holder here since then says more
            if (party, company_id, entry.get("start_date")) not in self.held:
                yield from self._ownership(
                    party, company_id, {"start": entry.get("start_date"), "end": entry.get("end_date")}
                )
            return
        # an entry repeated word for word is one mandate (as the graph has it); entries that differ stay apart
        link = self._link("Directorship", party, company_id, orjson.dumps(entry, option=orjson.OPT_SORT_KEYS).decode())
        self._add(link, "director", party)
        self._add(link, "organization", company_id)
        self._add(link, "role", ROLE_LABELS.get(str(role), role))
        self._add(link, "startDate", entry.get("start_date"))
        self._add(link, "endDate", entry.get("end_date"))
        yield from self._done(link)

    # -- ownership --------------------------------------------------------------------------------------------------
    def _ownership(
        self, owner: str, asset: str, holding: Mapping[str, Any], percent: float | None = None
    ) -> Iterator[Any]:
        self.held.add((owner, asset, holding.get("start")))
        relation = holding.get("relation_type") or "shareholder"  # a SHAREHOLDER entry is a shareholder's
        link = self._link("Ownership", owner, asset, relation, holding.get("start"))
        self._add(link, "owner", owner)
        self._add(link, "asset", asset)
        self._add(link, "role", relation)
        if percent is not None:
            self._add(link, "percentage", f"{percent:g}")
        nominal = holding.get("nominal_share")
        if nominal is not None:
            self._add(link, "sharesValue", f"{nominal:g}")
            self._add(link, "sharesCurrency", "EUR")
        self._add(link, "startDate", holding.get("start"))
        self._add(link, "endDate", holding.get("end"))
        yield from self._done(link)

    def _owner(self, company_id: str, owner: Mapping[str, Any]) -> Iterator[Any]:
        entry = {
            "id": owner.get("id"),
            "name": owner.get("name"),
            "type": owner.get("type"),
            "natural_person": owner.get("natural_person"),
            "legal_person": owner.get("legal_person"),
        }
        party, made = self._party(entry, company_id)
        yield from made
        share = owner.get("percentage_share")
        yield from self._ownership(party, company_id, owner, None if share is None else float(share))
        self._mention(company_id, None)

    def _holding(self, holder: str, holding: Mapping[str, Any]) -> Iterator[Any]:
        owner = holder if is_company_id(holder) else self.node_id(holder)
        if is_company_id(holder):
            self._mention(holder, None)
        share = holding.get("percentage_share")
        yield from self._ownership(owner, holding["company_id"], holding, None if share is None else float(share) * 100)
        self._mention(holding["company_id"], holding.get("name"))

    # -- proceedings ------------------------------------------------------------------------------------------------
    def _proceeding(self, proceeding: Mapping[str, Any], *, full: bool) -> Iterator[Any]:
        case = self._new("CourtCase", self.node_id(str(proceeding["id"])))
        if case.id in self.made:
            return
        self._add(case, "name", f"Insolvenzverfahren {proceeding.get('case_number') or ''}".strip())
        self._add(case, "caseNumber", proceeding.get("case_number"))
        self._add(case, "court", proceeding.get("court"))
        self._add(case, "category", proceeding.get("proceeding_kind"))
        self._add(case, "status", proceeding.get("current_status"))
        self._add(case, "fileDate", proceeding.get("opened_at"))
        self._add(case, "closeDate", proceeding.get("closed_at"))
        self._add(case, "country", "de")
        yield from self._done(case)
        company_id = proceeding.get("company_id")
        if is_company_id(company_id):
            debtor = company_id
            self._mention(company_id, proceeding.get("debtor_name"))
        elif full and _text(proceeding.get("debtor_name")):
            schema = "Person" if proceeding.get("debtor_kind") == "natural_person" else "LegalEntity"
            entity = self._new(schema, self.node_id(f"debtor:{proceeding['id']}"))
            self._add(entity, "name", proceeding["debtor_name"])
            debtor = entity.id
            yield from self._done(entity)
        else:
            return
        party = self._link("CourtCaseParty", case.id, debtor)
        self._add(party, "case", case.id)
        self._add(party, "party", debtor)
        self._add(party, "role", "debtor (Schuldner)")
        yield from self._done(party)
