"""Companies: what ``get_company`` sends, the :class:`CompanyRecord` and :class:`CompanyBatch` it and
``get_companies`` return, their HTML summaries and analysis methods, and the company lookups of
:class:`~regkit.client.Client` and its bulk fetcher (one company, the cached ones of many).

:class:`CompanyLookups` turns a company answer into a :class:`CompanyRecord`: presigned source URLs older than
``policy.url_lifetime`` are left out (or refetched, paid, with ``refresh_sources``), and a fresh answer is made to
serve every id the company stands for (its former ids too), so a lookup by either is free from now on.


The analysis methods
--------------------
``company.history("names")``, ``batch.indicators()``, ``company.as_of(date)`` and friends are plain methods of the records here, each importing its builder from :mod:`regkit.frames` when called (see
:mod:`regkit.client.records`, "The analysis methods").
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from regkit.common.html import SummaryTable, plural, summary_html
from regkit.common.memory import gc_paused
from regkit.errors import NotFoundError, RegkitError, ValidationError
from regkit.schema.derived import HEADER as DERIVED_HEADER
from regkit.schema.derived import parse_marks
from regkit.schema.endpoints import by_operation
from regkit.schema.formatting import MISSING, count_text, credits_text
from regkit.schema.labels import display_label

from .cache.client_cache import ClientCache
from .cache.policy import CachePolicy
from .cache.store import CHUNK
from .records import (
    Record,
    RecordMeta,
    company_register_text,
    record_meta,
    urls_stale,
)
from .transport.call import Caller
from .transport.operation import Answer, Operation, flag_params, operation

if TYPE_CHECKING:
    import pandas as pd

    from regkit.frames.snapshot import CompanyAsOf

__all__ = [
    "COMPANY_HINTS",
    "HINTS",
    "CompanyRecord",
    "CompanyBatch",
    "CompaniesFrames",
    "CompanyFrames",
    "batch_html",
    "CompanyLookups",
    "derived_members",
]


COMPANY_HINTS = {
    404: "no credits were spent; check the id where you found it (ids are case-sensitive)",
    402: "not enough credits: see client.get_credits()",
}

#: What an error of each of this resource's operations tells the user, by operation id.
HINTS = {"get_company": COMPANY_HINTS}


def _company_operation(company_id: str, realtime: bool, export: bool) -> Operation:
    return operation(
        "get_company",
        {"company_id": company_id},
        params=flag_params(realtime=realtime, export=export),
        realtime=realtime,
        hints=COMPANY_HINTS,
    )


class CompaniesFrames:
    """Frames that one company and a batch of companies both offer (mixed into
    :class:`~regkit.client.company.CompanyBatch`, and through :class:`CompanyFrames` into
    :class:`~regkit.client.company.CompanyRecord`); a batch's frame is the concatenation over its fetched
    companies."""

    def to_dataframe(self) -> pd.DataFrame:
        """One row per company: its current values and latest indicators (see ``regkit.frames.companies``)."""
        from regkit.frames.overview import companies

        return companies(self)

    def history(self, field: str) -> pd.DataFrame:
        """The history of one member (``"names"``, ``"addresses"``, ``"capitals"``, ...), one row per version
        (see ``regkit.frames.history``); ``valid_from_derived`` / ``valid_to_derived`` mark the dates a world
        imported from OffeneRegister derived (the record's ``derived``)."""
        from regkit.frames.histories import history

        return history(self, field)

    def representatives(self, active_on: Any = None, *, person_city: bool = False) -> pd.DataFrame:
        """One row per role held (see ``regkit.frames.representatives``; ``active_on``: a date, ISO or
        ``DD.MM.YYYY`` read day first)."""
        from regkit.frames.roles import representatives

        return representatives(self, active_on, person_city=person_city)

    def indicators(self, unit: str = "EUR", wide: bool = True) -> pd.DataFrame:
        """Published indicators per reporting date (see ``regkit.frames.indicators``)."""
        from regkit.frames.financials import indicators

        return indicators(self, unit=unit, wide=wide)

    def links(self) -> pd.DataFrame:
        """Mergers, spin-offs and profit-transfer agreements as a relation frame (see ``regkit.frames.links``)."""
        from regkit.frames.relations import links

        return links(self)

    def panel(self, years: Iterable[int] | None = None, unit: str = "EUR") -> pd.DataFrame:
        """A company-year panel (see ``regkit.frames.panel``)."""
        from regkit.frames.panels import panel

        return panel(self, years=years, unit=unit)


class CompanyFrames(CompaniesFrames):
    """Frames of one company (mixed into :class:`~regkit.client.company.CompanyRecord`): those of
    :class:`CompaniesFrames`, and what only one company has (its documents, contact, the company on a date,
    the card Jupyter shows)."""

    def documents(self) -> pd.DataFrame:
        """The company's documents (see ``regkit.frames.documents``)."""
        from regkit.frames.details import documents

        return documents(self)

    def insolvency_summaries(self) -> pd.DataFrame:
        """One row per insolvency proceeding against the company (see ``regkit.frames.insolvency_summaries``)."""
        from regkit.frames.details import insolvency_summaries

        return insolvency_summaries(self)

    def industry_codes(self) -> pd.DataFrame:
        """The company's WZ 2025 codes, one row per code (see ``regkit.frames.industry_codes``)."""
        from regkit.frames.details import industry_codes

        return industry_codes(self)

    def contact(self) -> pd.DataFrame:
        """Contact data: website, e-mail, phone, VAT id, social media (see ``regkit.frames.contact``)."""
        from regkit.frames.details import contact

        return contact(self)

    def as_of(self, date: Any, *, person_city: bool = False) -> CompanyAsOf:
        """The company as it stood on ``date`` — a date, ISO (``"2024-02-01"``) or ``DD.MM.YYYY`` read day first
        (``"01.02.2024"`` is 1 February) — see ``regkit.frames.as_of``; ``person_city=True`` adds the city to
        derived person keys."""
        from regkit.frames.snapshot import as_of

        return as_of(self, date, person_city=person_city)

    def _repr_html_(self) -> str | None:
        """The compact company card Jupyter shows (``None`` falls back to the repr)."""
        from regkit.frames.card import company_card_html

        try:
            return company_card_html(self)
        except RegkitError:
            return None


class CompanyRecord(CompanyFrames, Record):
    """A company (CompanyV1).

    When a cached answer is older than a presigned source URL lives, ``sources`` is removed
    (``meta.urls_expired`` is ``True``): a dead URL is never handed out.  Ask
    ``client.get_company(id, refresh_sources=True)`` for fresh ones.

    ``derived`` names the members of the record that are derived, not the register's: a world imported from
    OffeneRegister derives dates its source lacks (the incorporation date, the dates of names and addresses, an
    officer's missing start date, ...), and the local register serving it names them in the answer's
    ``X-Regkit-Derived`` header, which the cache keeps with the answer. The history frames mark those dates
    (``record.history("names")["valid_from_derived"]``). Empty for the live service and the bundled world.
    """

    kind = "company"
    _derived: frozenset[str] = frozenset()

    def __init__(
        self, raw: Mapping[str, Any], meta: RecordMeta | None = None, derived: Iterable[str] | None = None
    ) -> None:
        super().__init__(raw, meta)
        if derived:
            self._derived = frozenset(derived)

    @property
    def derived(self) -> frozenset[str]:
        """The record's derived members, as paths (``"incorporated_at"``, ``"names.start_date"`` — every entry of
        ``names`` —, ``"representation[2].start_date"``: see :mod:`regkit.schema.derived`); empty when the answer
        named none (the live service, the bundled world), or for a record made from a dict."""
        return self._derived

    def _missing(self, name: str) -> str:
        if name == "sources" and self.meta.urls_expired:
            return (
                "the cached source URLs of this company expired (they live 30 minutes) and were "
                "removed; call client.get_company(id, refresh_sources=True) for fresh ones (paid)"
            )
        return super()._missing(name)

    def _label(self) -> str:
        name = (self.raw.get("name") or {}).get("name", "")
        return f"{self.raw.get('id', '')} {name}".strip()


class CompanyBatch(CompaniesFrames, Sequence[CompanyRecord | None]):
    """The result of a bulk lookup, in input order.

    Attributes
    ----------
    ids : list of str
        The ids asked for, in input order (duplicates kept).
    records : list of CompanyRecord or None
        One entry per id; ``None`` where that id failed (``errors="collect"``).
    errors : dict of str to RegkitError
        The failure of each failed id (malformed ones included); ``batch.summary()`` lists them and
        ``client.get_companies(batch.failed_ids)`` resumes, paying only for what is still missing.
    """

    def __init__(
        self, ids: Sequence[str], records: Sequence[CompanyRecord | None], errors: Mapping[str, RegkitError]
    ) -> None:
        self.ids = list(ids)
        self.records = list(records)
        self.errors = dict(errors)

    def __getitem__(self, index: Any) -> Any:
        return self.records[index]

    def __len__(self) -> int:
        return len(self.records)

    @property
    def ok(self) -> list[CompanyRecord]:
        """The records that were fetched, in input order."""
        return [r for r in self.records if r is not None]

    @property
    def failed_ids(self) -> list[str]:
        """The ids whose lookup failed, in input order, once each — malformed ids apart (they were
        never sent and would fail again).  ``client.get_companies(batch.failed_ids)`` asks for them
        again; nothing already fetched is paid twice."""
        return [cid for cid, error in self.errors.items() if not isinstance(error, ValidationError)]

    def summary(self, limit: int = 10) -> str:
        """What was fetched, each failed id with its error (the first ``limit``), and how to resume."""
        lines = [f"{len(self.ok)} of {len(self.records)} companies fetched, {len(self.errors)} failed"]
        lines += [f"  {cid}: {type(error).__name__}: {error}" for cid, error in list(self.errors.items())[:limit]]
        lines += [f"  … and {len(self.errors) - limit} more (batch.errors)"] if len(self.errors) > limit else []
        lines += (
            [
                "To resume: client.get_companies(batch.failed_ids, errors='collect') — the fetched companies are "
                "cached and cost nothing again; only the missing ones are paid."
            ]
            if self.failed_ids
            else []
        )
        return "\n".join(lines)

    def __repr__(self) -> str:
        text = f"<CompanyBatch {len(self.ok)} of {len(self.records)} fetched, {len(self.errors)} failed"
        if self.failed_ids:
            text += "; batch.summary() names them, client.get_companies(batch.failed_ids) resumes"
        return text + ">"

    def _repr_html_(self) -> str:
        """The summary Jupyter shows: counts fetched, missing and failed, credits spent and saved, the first
        companies (name, legal form, register) and failures."""
        return batch_html(self.ids, self.records, self.errors, self.failed_ids)


def _company_row(record: Any) -> list[str]:
    raw: Mapping[str, Any] = record.raw
    name = (raw.get("name") or {}).get("name") if isinstance(raw.get("name"), Mapping) else raw.get("name")
    form = raw.get("legal_form") or (raw.get("name") or {}).get("legal_form")
    status = raw.get("status")
    return [
        str(name or raw.get("id") or MISSING),
        display_label("legal_form", form) if form else MISSING,
        company_register_text(raw),
        display_label("status", status) if status else MISSING,
    ]


def _error_text(error: RegkitError) -> str:
    if isinstance(error, NotFoundError):
        return "not found"
    if isinstance(error, ValidationError):
        return "malformed id (not sent)"
    return f"{type(error).__name__}: {error}"[:90]


def batch_html(
    ids: Sequence[str], records: Sequence[Any], errors: Mapping[str, RegkitError], failed_ids: Sequence[str]
) -> str:
    """A bulk lookup's result: how many companies were fetched, missing or failed, what it cost and saved, the
    first companies and the first failures."""
    fetched = list({id(r): r for r in records if r is not None}.values())  # each distinct record once
    from_cache = sum(1 for r in fetched if r.meta.from_cache)
    spent = sum(r.meta.credits for r in fetched)
    missing = sum(1 for e in errors.values() if isinstance(e, NotFoundError))
    malformed = sum(1 for e in errors.values() if isinstance(e, ValidationError))
    failed = len(errors) - missing - malformed
    facts = [("Fetched", f"{count_text(len(fetched))} ({count_text(from_cache)} from the cache)")]
    facts += [("Not found", count_text(missing))] if missing else []
    facts += [("Malformed ids", count_text(malformed))] if malformed else []
    facts += [("Failed", count_text(failed))] if failed else []
    facts.append(
        (
            "Credits",
            f"{credits_text(spent)} spent · {credits_text(from_cache * by_operation('get_company').credits())} saved by the cache",
        )
    )
    if len(set(ids)) < len(ids):
        facts.append(("Duplicates", f"{count_text(len(ids) - len(set(ids)))} ids asked again (fetched once)"))
    tables = [
        SummaryTable(
            ("Company", "Legal form", "Register", "Status"),
            [_company_row(r) for r in fetched],
            nowrap=(2,),
            limit=8 if not errors else 6,
            where="batch.to_dataframe()",
        )
    ]
    if errors:
        tables.append(
            SummaryTable(
                ("Id", "Error"),
                [[cid, _error_text(e)] for cid, e in errors.items()],
                limit=3,
                where="batch.summary()",
                caption="Failed",
            )
        )
    note = (
        (
            "client.get_companies(batch.failed_ids, errors='collect') asks again for the failed ones; the fetched "
            "ones are cached and free"
        )
        if failed_ids
        else ""
    )
    badge = ("all fetched", "ok") if not errors else (f"{count_text(len(errors))} failed", "error")
    return summary_html(
        plural(len(ids), "company", "companies"),
        facts,
        badge=badge,
        tables=[t for t in tables if t.rows],
        note=note,
        kind="batch",
    )


logger = logging.getLogger(__name__)


class CompanyLookups:
    """``get_company`` and the cache's part of ``get_companies``, over a client's caller.

    Parameters
    ----------
    caller : Caller
        Sends operations (cache, budget, ledger, retries).
    cache : ClientCache
        The client's cache (whether it is on).
    policy : CachePolicy
        Cache lifetimes, among them ``url_lifetime``.
    """

    def __init__(self, caller: Caller, cache: ClientCache, policy: CachePolicy) -> None:
        self.caller = caller
        self.cache = cache
        self.policy = policy

    def get(
        self, company_id: str, realtime: bool = False, export: bool = False, refresh_sources: bool = False
    ) -> CompanyRecord:
        """One company (``company_id`` already checked); see :meth:`regkit.client.Client.get_company`."""
        op = _company_operation(company_id, realtime, export)
        return self.record(op, self.caller.call(op), refresh_sources)

    def record(self, op: Operation, answer: Answer, refresh_sources: bool = False) -> CompanyRecord:
        """The record of a company answer, its presigned URLs checked."""
        stale = urls_stale(answer, self.policy.url_lifetime)
        if stale and refresh_sources:
            answer, stale = self.caller.call(replace(op, refresh=True)), False
        data = answer.data
        if stale:
            data = {k: v for k, v in data.items() if k != "sources"}
            logger.info("%s: cached source URLs expired and were left out (refresh_sources=True fetches them)", op.path)
        return CompanyRecord(data, record_meta(answer, urls_expired=stale), derived_members(op, answer))

    def cached(self, company_ids: Sequence[str], realtime: bool = False) -> dict[str, CompanyRecord]:
        """The companies of ``company_ids`` (valid, distinct) the cache answers now, read in one batch, each with
        its ledger row as :meth:`get` records a hit; the others are left out."""
        found: dict[str, CompanyRecord] = {}
        for start in range(0, len(company_ids), CHUNK):  # a chunk at a time: few temporary objects live at once
            part = company_ids[start : start + CHUNK]
            ops = [_company_operation(cid, realtime, False) for cid in part]
            with gc_paused():  # many short-lived objects per answer beside the records already read
                for cid, op, answer in zip(part, ops, self.caller.cached_many(ops)):
                    if answer is not None:
                        found[cid] = self.record(op, answer)
        return found


def derived_members(op: Operation, answer: Answer) -> frozenset[str]:
    """The derived members the answer's ``X-Regkit-Derived`` header names (:mod:`regkit.schema.derived`); none
    without the header. A header that cannot be read is logged and names none."""
    try:
        return parse_marks(answer.derived)
    except ValueError as exc:
        logger.warning("%s: the %s header is not readable, its marks are left out (%s)", op.path, DERIVED_HEADER, exc)
        return frozenset()
