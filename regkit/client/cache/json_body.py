"""A response body as JSON, parsed once per response object (the cache's filter and the transport both read it)."""

from __future__ import annotations

import json
from typing import Any

__all__ = ["parsed_json"]

_JSON_ATTR = "_regkit_json"


def parsed_json(response: Any) -> Any:
    """The response body as JSON, parsed once per response object.

    Parameters
    ----------
    response : requests.Response or alike
        Anything with ``content`` (bytes).

    Raises
    ------
    ValueError
        When the body is empty, truncated or otherwise not JSON.
    """
    cached = getattr(response, _JSON_ATTR, None)
    if cached is not None:
        return cached
    data = json.loads(response.content.decode("utf-8"))
    try:
        setattr(response, _JSON_ATTR, data)
    except AttributeError:  # a response class without __dict__: parse again next time
        pass
    return data
