"""The application factory of the local register.

Request flow: access log → (fault injection) → (configured public origin) → routing (unknown route 404,
wrong method 405, both JSON; the routes are :mod:`regkit.local.urls`) → throttle of failed authentications
per client address (429) → bearer authentication (401) → per-key rate limit (429) → per-key bound on the work in
flight (429, :class:`~regkit.local.ratelimit.WorkBound`; released when the request is torn down) → handler
(:mod:`regkit.local.responses`, calling :mod:`regkit.local.models`) → ``X-Credits-Charged`` and
``X-Credits-Remaining`` on the way out. Handlers and models raise :class:`~regkit.local.exceptions.ApiError`;
any other exception is logged with its traceback and answered ``500 internal_error``. What is logged where:
:mod:`regkit.local.logs`.
"""

from __future__ import annotations

import logging
import math
import os

from flask import Flask, Response, g, request
from werkzeug.exceptions import HTTPException

from regkit.local.world.store import World
from regkit.schema.formatting import plural

from .config import Config
from .context import open_context
from .exceptions import ApiError
from .faults import FaultMiddleware, Faults
from .logs import USER_KEY, AccessLog, Scrubber
from .models.backend import EXTENSION, RegisterContext
from .models.catalog import Catalog
from .models.credits import remaining_credits
from .models.users import authenticate
from .origin import FixedOrigin
from .ratelimit import Admission, WorkBound
from .responses.context import current
from .responses.render import api_error_response, error_response
from .urls import PUBLIC_ENDPOINTS, add_routes

__all__ = ["create_app", "secrets", "MAX_BODY_BYTES"]

logger = logging.getLogger(__name__)

MAX_BODY_BYTES = 1 << 20
#: Codes for werkzeug's own HTTP errors; any other client error is ``invalid_request``.
_HTTP_CODES = {404: "not_found", 405: "method_not_allowed", 413: "payload_too_large"}


def _before_request() -> None:
    g.credits_charged = 0
    if request.routing_exception is not None or request.endpoint in PUBLIC_ENDPOINTS:
        return
    context = current()
    g.user = authenticate(context, request.headers.get("Authorization"), request.remote_addr or "-")
    request.environ[USER_KEY] = g.user.name
    if context.limiter is not None:
        wait = context.limiter.acquire(g.user.ref)
        if wait:
            seconds = max(1, math.ceil(wait))
            raise ApiError(
                "rate_limited",
                f"Too many requests for this API key; retry in {seconds} s.",
                headers={"Retry-After": str(seconds)},
            )
    if context.work_bound is not None:
        _admit(context.work_bound, g.user.ref)


def _admit(bound: WorkBound, key: str) -> None:
    """Let the request in under the key's bound on work in flight, or answer 429 with ``Retry-After``."""
    admitted = bound.admit(key, request.endpoint or request.path)
    if isinstance(admitted, Admission):
        g.admission = admitted
        return
    seconds = max(1, math.ceil(admitted.retry_after))
    raise ApiError(
        "rate_limited",
        f"This API key has {plural(admitted.requests, 'request')} in flight (about {admitted.work:.2f} s of work "
        f"expected, and {admitted.expected:.2f} s for this one; all keys {admitted.total:.2f} s): the register runs "
        f"no more at once for it now; retry in {seconds} s, or send fewer requests at once.",
        headers={"Retry-After": str(seconds)},
    )


def _release(error: BaseException | None) -> None:
    """Free the request's place under its key's bound on work in flight (whatever its outcome)."""
    admission = g.pop("admission", None)
    if admission is not None:
        bound = current().work_bound
        if bound is not None:
            bound.release(admission)


def _after_request(response: Response) -> Response:
    response.headers["X-Credits-Charged"] = str(g.get("credits_charged", 0))
    user = g.get("user")
    if user is not None:
        remaining = g.get("credits_remaining")
        if remaining is None:
            remaining = remaining_credits(current(), user)
        response.headers["X-Credits-Remaining"] = str(remaining)
    return response


def _http_error(error: HTTPException) -> Response:
    status = error.code or 500
    code = _HTTP_CODES.get(status) or ("internal_error" if status >= 500 else "invalid_request")
    headers = {k: v for k, v in error.get_headers() if k.lower() == "allow"}
    if status == 404:
        message = f"There is no {request.path}; the interface's paths are listed at /v1/openapi.json."
    elif status == 405:
        message = f"{request.method} is not allowed on {request.path}; use {headers.get('Allow', 'another method')}."
    else:
        message = error.description or error.name
    return error_response(status, code, message, headers)


def _internal_error(error: Exception) -> Response:
    user = g.get("user")
    logger.exception(
        "Internal error on %s %s (user %s)", request.method, request.path, user.name if user is not None else "-"
    )
    return error_response(
        500,
        "internal_error",
        "The local register failed on this request; it has been logged. Retry, and report it if it persists.",
    )


def secrets(catalog: Catalog) -> list[str]:
    """What no log line may contain: the world's API keys and Transparenzregister passwords."""
    return [*catalog.users, *(str(account.get("password", "")) for account in catalog.accounts.values())]


def create_app(
    world: World | None = None,
    *,
    data_dir: str | os.PathLike[str] | None = None,
    state_path: str | os.PathLike[str] | None = None,
    config: Config | None = None,
    faults: Faults | None = None,
    context: RegisterContext | None = None,
) -> Flask:
    """Create a local register application.

    Parameters
    ----------
    world : World, optional
        The world to serve; default: read from ``data_dir`` (cached per process).
    data_dir : str or Path, optional
        A world directory; default the bundled ``data/`` (``REGKIT_DATA_DIR`` overrides).
    state_path : str or Path, optional
        The SQLite state file; default ``REGKIT_LOCAL_STATE`` or ``<user data dir>/local-register.sqlite``.
    config : Config, optional
        Rate limit, extract delay, secret key, clock, ...
    faults : Faults, optional
        Faults to inject in front of the application (for testing clients).
    context : RegisterContext, optional
        A backend already opened with :func:`regkit.local.context.open_context` (then ``world``, ``data_dir``,
        ``state_path`` and ``config`` are not used).

    Returns
    -------
    flask.Flask
        A WSGI application; ``app.extensions["regkit.local"]`` is its :class:`RegisterContext`.
    """
    if context is None:
        context = open_context(world, data_dir=data_dir, state_path=state_path, config=config)
    catalog, config = context.catalog, context.config
    app = Flask(__name__)
    # "/v1/company/%2Fx" is a 404 in the interface's JSON, not a 308 redirect with an HTML body.
    app.url_map.merge_slashes = False
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY_BYTES
    app.extensions[EXTENSION] = context
    add_routes(app)
    app.before_request(_before_request)
    app.after_request(_after_request)
    app.teardown_request(_release)
    app.register_error_handler(ApiError, api_error_response)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(Exception, _internal_error)
    if config.public_url is not None:
        app.wsgi_app = FixedOrigin(app.wsgi_app, config.public_url)  # type: ignore[method-assign]
    if faults is not None and faults.active:
        app.wsgi_app = FaultMiddleware(app.wsgi_app, faults)  # type: ignore[method-assign]
    app.wsgi_app = AccessLog(app.wsgi_app, Scrubber(secrets(catalog)))  # type: ignore[method-assign]
    return app
