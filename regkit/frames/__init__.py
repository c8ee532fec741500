"""Interface records as tidy pandas DataFrames with honest dtypes.

Every builder accepts a client record (anything with ``.raw``) or a plain dict of the interface, and most
accept many at once (a list, a ``CompanyBatch``, a mapping of id → company); the frame of many companies is
the concatenation of the frames of each, in input order. Text is pandas' ``str`` dtype, enums are
categoricals with the interface's values as categories, dates ``datetime64[us]``, amounts nullable
``Float64`` (EUR) or ``Int64`` (cents) — a null is never 0. Each function's docstring lists its columns.

======================  ===============================================================================
history                 names / addresses / purposes / capitals / registers, one row per version
representatives         one row per role held
indicators, ratios      yearly indicators (EUR or cents, wide or long) and six ratios
links                   mergers, spin-offs, profit-transfer agreement as source → target relations
documents, contact      documents; contact data
insolvency_summaries    the record's insolvency summaries
industry_codes          WZ 2025 codes
as_of                   the company on a date (facts, status, active representatives)
companies_frame         one row per company: current facts and latest indicators
insolvency_results      insolvency search results (a page, pages, or ``iter_insolvencies``)
events, proceedings     a proceeding's events (details flattened); proceedings one row each
insolvencies            page through a search with the client, minding the budget
panel                   company-year research panel
company_card_html       the HTML card of a company record in Jupyter
======================  ===============================================================================
"""

from . import _hooks
from ._example import example_company
from .card import company_card_html
from .companies import companies_frame
from .details import contact, documents, industry_codes, insolvency_summaries
from .extracts import beneficial_owners
from .financial_ratios import RATIOS, ratios
from .financials import MEASURES, indicators
from .histories import history
from .insolvency import events, insolvency_results, proceedings
from .money import DEM_PER_EUR, MAX_EXACT_CENTS, capital_eur
from .panels import panel
from .relations import links
from .roles import representatives
from .search import insolvencies
from .snapshot import CompanyAsOf, as_of

__all__ = [
    "CompanyAsOf",
    "DEM_PER_EUR",
    "MAX_EXACT_CENTS",
    "MEASURES",
    "RATIOS",
    "as_of",
    "beneficial_owners",
    "capital_eur",
    "companies_frame",
    "company_card_html",
    "contact",
    "documents",
    "events",
    "example_company",
    "history",
    "indicators",
    "industry_codes",
    "insolvencies",
    "insolvency_results",
    "insolvency_summaries",
    "links",
    "panel",
    "proceedings",
    "ratios",
    "representatives",
]

_hooks.register()
