"""Company search and autocomplete: a page of companies for 10 credits, the first few for nothing.

A search is charged after its page is ready, and not at all when the client has gone by then (as the
insolvency search). An autocomplete costs nothing; like every authenticated call it counts against the rate
limit.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..search.company_request import AUTOCOMPLETE_LIMIT, completes_nothing
from ..search.query import SearchRequest
from .credits import Charged, charged_page
from .users import User

if TYPE_CHECKING:
    from .backend import RegisterContext

__all__ = ["search_company", "autocomplete_company"]


def search_company(
    context: RegisterContext, user: User, search: SearchRequest, *, client_gone: Callable[[], bool] = lambda: False
) -> Charged[dict[str, Any]]:
    """One page of companies matching a validated search, best match first (without a query: by id).

    ``client_gone`` is asked once the page is ready: when it says the client has disconnected, nothing is
    charged.
    """
    results, total = context.world_day().company_index.search(search)
    return charged_page(context, user, results, total, search.page, search.per_page, "company_search", client_gone)


def autocomplete_company(context: RegisterContext, user: User, query: str) -> dict[str, Any]:
    """The first companies a validated query finds, best first (at most ``AUTOCOMPLETE_LIMIT``), free; none for
    a text without a letter or digit or with more search terms than a query may have
    (:data:`~regkit.schema.interface.MAX_QUERY_TERMS`)."""
    if completes_nothing(query):
        return {"results": []}
    return {"results": context.world_day().company_index.autocomplete(query, AUTOCOMPLETE_LIMIT)}
