"""An older answer in a client's cache, made as the register would have served it before an event: the bundled
register's world stands still, so the tests of versions edit the stored answer and let it expire."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from typing import Any

from requests_cache import CachedResponse


def store_older(client: Any, edit: Callable[[dict[str, Any]], Any], fetched_at: datetime) -> dict[str, Any]:
    """Replace the client's stored company answer by an edited copy of it, fetched at ``fetched_at`` and expired,
    so the next ``get_company`` fetches the company again; return the edited answer."""
    [stored] = [answer for answer in client.cache.scan() if "/v1/company/" in answer.url]
    held = client.cache.backend.get_response(stored.key)
    older = json.loads(stored.body)
    edit(older)
    crafted = CachedResponse(
        content=json.dumps(older).encode(),
        status_code=200,
        url=held.url,
        headers=dict(held.headers),
        request=held.request,
        created_at=fetched_at,
    )
    client.cache.backend.save_response(crafted, cache_key=stored.key, expires=datetime.now(timezone.utc) - timedelta(1))
    return older
