"""Interface records as tidy pandas DataFrames with honest dtypes.

Every builder accepts a client record (anything with ``.raw``) or a plain dict of the interface, and most
accept many at once (a list, a ``CompanyBatch``, a mapping of id → company); the frame of many companies is
the concatenation of the frames of each, in input order. Text is pandas' ``str`` dtype, enums are
categoricals with the interface's values as categories, dates ``datetime64[us]``, amounts nullable
``Float64`` (EUR) or ``Int64`` (cents) — a null is never 0. Each function's docstring lists its columns.

======================  ===============================================================================
history                 names / addresses / purposes / capitals / registers, one row per version
representatives         one row per role held
indicators, ratios      yearly indicators (13 of a company record or 48 of a financials answer; EUR or
                        cents, wide or long) and eleven ratios
statements              balance sheets and P&L as filed, one row per line item and report;
                        ``statement_reports`` rebuilds the trees
links                   mergers, spin-offs, profit-transfer agreement as source → target relations
documents, contact      documents; contact data
insolvency_summaries    the record's insolvency summaries
industry_codes          WZ 2025 codes
as_of                   the company on a date (facts, status, active representatives)
companies               one row per company: current facts and latest indicators
insolvency_results      insolvency search results (a page, all pages of a search, or ``iter_insolvencies``)
company_search_results  company search results (a page, all pages, ``iter_companies``, or autocomplete)
owners, holdings        who holds shares in whom; ``share`` is a fraction in [0, 1] in both
person_search_results   person search results
persons                 one row per person; ``management_positions`` one row per position held
events, proceedings     a proceeding's events (details flattened); proceedings one row each
panel                   company-year research panel
company_card_html       the HTML card of a company record in Jupyter (``person_card_html``: of a person)
person_key              who a representative is: the key ``representatives`` and the graph share
parse_amount/_date      published text → exact amounts and dates (event details), never raising
ownership_history       owners on every filed shareholder list; ``ubos`` the beneficial owners (``share``)
shareholder_list        the table of a shareholder list PDF read back, one row per share
changes                 what changed between two answers, one row per typed change; ``changes_table``
                        the frame of changes already made (a webhook event's)
======================  ===============================================================================

Names are imported on first use: ``import regkit.frames`` alone loads neither pandas nor the builders.
"""

from regkit._lazy import lazy_exports
from regkit.errors import explain_arguments as _explain_arguments

#: Public name → module that defines it (imported on first use, so ``regkit.frames.identity`` and
#: ``regkit.frames.published`` can be imported without pandas — the graph does).
_EXPORTS = {
    "CompanyAsOf": "snapshot",
    "DEM_PER_EUR": "money",
    "MAX_EXACT_CENTS": "money",
    "FINANCIAL_MEASURES": "financials",
    "FINANCIAL_RATIOS": "financial_ratios",
    "MEASURES": "financials",
    "OWNERSHIP_COLUMNS": "ownership",
    "RATIOS": "financial_ratios",
    "RELATION_TYPES": "ownership",
    "as_of": "snapshot",
    "beneficial_owners": "extracts",
    "capital_eur": "money",
    "companies": "overview",
    "company_card_html": "card",
    "company_search_results": "company_search",
    "contact": "details",
    "documents": "details",
    "events": "insolvency",
    "example_company": "_example",
    "history": "histories",
    "holdings": "ownership",
    "indicators": "financials",
    "industry_codes": "details",
    "insolvency_results": "insolvency",
    "insolvency_summaries": "details",
    "links": "relations",
    "management_positions": "people",
    "owners": "ownership",
    "panel": "panels",
    "parse_amount": "published",
    "parse_date": "published_dates",
    "person_card_html": "person_card",
    "person_key": "identity",  # defined in regkit.schema.identity, below every layer
    "person_search_results": "people",
    "persons": "people",
    "proceedings": "insolvency",
    "ratios": "financial_ratios",
    "representatives": "roles",
    "share_fraction": "ownership",
    # issue 23: shareholder lists, ownership over time, beneficial owners
    "OWNER_ENTITY_TYPES": "ownership_histories",
    "SHAREHOLDER_LIST_TITLE": "shareholder_lists",
    "ownership_history": "ownership_histories",
    "shareholder_list": "shareholder_lists",
    "ubos": "ownership_histories",
    "statements": "financial_statements",
    "statement_reports": "financial_statements",
    # issue 43: what changed
    "changes": "change_tables",
    "changes_table": "change_tables",
}

__all__, __getattr__, __dir__ = lazy_exports(
    __name__,
    {n: f"regkit.frames.{home}" for n, home in _EXPORTS.items()},
    wrap=_explain_arguments,
)
