"""The exceptions regkit raises, rooted at one class.

Every error carries what was asked (``method``, ``path``), what came back (``status``, the server's
error ``code`` and ``message``) and a ``suggestion`` of what to do next.  None of them ever carries
the API key: messages are built from the path and the server's answer only, and the client scrubs
the key out of anything it passes in.

The tree (``except`` any inner node to catch everything below it)::

    RegkitError
    ├── ValidationError           (also ValueError)  rejected before anything was sent; no credits
    │   └── ArgumentError         (also TypeError)   a keyword no function of regkit takes, or a wrong kind of
    │                                                 argument; names the close ones
    ├── BudgetExceededError                           the call would cross the budget; not sent
    ├── BudgetUnavailableError                        the team budget cannot be read or trusted (Redis
    │                                                 down, restarted or emptied); not sent
    ├── CacheError                                    the cache cannot be opened, read or is corrupt
    │   └── CacheUnavailableError                     the cache is down; a paid call was not sent
    ├── OfflineCacheMiss          (also LookupError) offline mode and the answer is not cached
    ├── WaitTimeout               (also TimeoutError) an extract still processing when waiting ended
    ├── TransportError                                connection refused or dropped, timeout,
    │                                                 truncated or undecodable body
    ├── NotInGraphError           (also networkx.NodeNotFound, ValueError) a graph question about a
    │                                                 company the graph does not hold; defined in
    │                                                 ``regkit.graph.errors``, beside networkx, which this
    │                                                 module does not import
    └── APIError                                      the interface answered with an error status
        ├── BadRequestError       (also ValueError)  400
        ├── AuthenticationError                       401
        ├── PaymentRequiredError                      402
        ├── PermissionDeniedError                     403
        ├── NotFoundError         (also LookupError) 404
        ├── ConflictError                             409
        ├── RateLimitedError                          429, with ``retry_after`` in seconds
        └── ServerError                               5xx

A call that creates something paid (an extract order, a monitor) is never retried blindly: it is sent
again only after a ``429 rate_limited``, which the rate limiter answers before the request is looked at.  When
it fails in a way that leaves its outcome open (timeout, connection dropped after sending, 5xx) the
error's ``outcome_unknown`` is ``True`` and its suggestion says how to find out whether the order
exists.

An interrupt (Ctrl-C in a terminal, "interrupt the kernel" in Jupyter) during a call that sends more than one
request is :class:`Interrupted`, a ``KeyboardInterrupt`` (not a ``RegkitError``: ``except Exception`` does not
swallow it): nothing more is sent, and it says how many answers arrived, what they cost, and that the same call
resumes for free.

A call with a keyword the function does not take (``crawl(client, id, depht=3)``), a required argument missing or
too many positional ones raises :class:`ArgumentError` — Python's own wording, and a suggestion naming the close
parameter (``did you mean depth=?``) or the call's parameters. Every public function and method is wrapped by
:func:`explain_arguments` where its package exports it (or its class is defined); the wrapper only catches the
``TypeError`` of binding that very call, so a call that is right pays nothing for it.

Warnings (``warnings.warn``; the call they come from still returned its answer)::

    RegkitWarning                 (a UserWarning)
    ├── CacheWriteWarning         a paid answer could not be stored (full disk, read-only file,
    │                             Redis down): the next call for it is paid again
    ├── BudgetWarning             a charge could not be recorded in the team's budget; it is in the
    │                             local ledger and is settled when the budget answers again
    ├── NoFinancialReportsWarning the company has filed no annual report: its financials are empty
    └── BudgetStopWarning         a crawl, climb, paged search or bulk call stopped at the budget: what was
                                  fetched, what was not, and what the next step would have cost
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

__all__ = [
    "close_keywords",
    "unexpected_keyword",
    "explain_arguments",
    "user_stacklevel",
    "RegkitError",
    "ValidationError",
    "ArgumentError",
    "BudgetExceededError",
    "BudgetUnavailableError",
    "CacheError",
    "CacheUnavailableError",
    "OfflineCacheMiss",
    "WaitTimeout",
    "TransportError",
    "APIError",
    "BadRequestError",
    "AuthenticationError",
    "PaymentRequiredError",
    "PermissionDeniedError",
    "NotFoundError",
    "ConflictError",
    "RateLimitedError",
    "ServerError",
    "error_for_status",
    "RegkitWarning",
    "CacheWriteWarning",
    "BudgetWarning",
    "NoFinancialReportsWarning",
    "BudgetStopWarning",
    "Interrupted",
]


class RegkitError(Exception):
    """Root of every error regkit raises.

    Attributes
    ----------
    message : str
        What went wrong, in one sentence.
    method, path : str or None
        The request (``"GET"``, ``"/v1/company/DE-HRB-B1234-1"``) when there was one.
    status : int or None
        The HTTP status, when the interface answered.
    code : str or None
        The interface's error code (``"company_not_found"``), when it sent one.
    suggestion : str
        What to do next.
    outcome_unknown : bool
        ``True`` when a creating call (extract order, monitor) failed in a way that leaves open
        whether it was carried out.
    """

    default_suggestion = ""

    def __init__(
        self,
        message: str,
        *,
        method: str | None = None,
        path: str | None = None,
        status: int | None = None,
        code: str | None = None,
        suggestion: str | None = None,
        outcome_unknown: bool = False,
    ) -> None:
        self.message = message
        self.method = method
        self.path = path
        self.status = status
        self.code = code
        self.suggestion = suggestion if suggestion is not None else self.default_suggestion
        self.outcome_unknown = outcome_unknown
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"{self.method} {self.path}" if self.method and self.path else ""
        what = f"{self.status} " if self.status is not None else ""
        what += f"{self.code}: " if self.code else ""
        text = f"{where}: {what}{self.message}" if where else f"{what}{self.message}"
        return f"{text} — {self.suggestion}" if self.suggestion and not _says(self.message, self.suggestion) else text

    def __reduce__(self) -> tuple[Any, ...]:
        # Keyword-only fields survive pickling (e.g. across processes).
        return (_rebuild, (type(self), self.message, self._fields()))

    def _fields(self) -> dict[str, Any]:
        return {
            "method": self.method,
            "path": self.path,
            "status": self.status,
            "code": self.code,
            "suggestion": self.suggestion,
            "outcome_unknown": self.outcome_unknown,
        }


def _says(message: str, suggestion: str) -> bool:
    """Whether ``message`` already gives ``suggestion`` (so it is not said twice)."""
    fold = lambda text: " ".join(text.lower().replace(";", " ").replace(".", " ").split())  # noqa: E731
    return fold(suggestion) in fold(message)


def _rebuild(cls: type[RegkitError], message: str, fields: dict[str, Any]) -> RegkitError:
    return cls(message, **fields)


class ValidationError(RegkitError, ValueError):
    """An argument is malformed; nothing was sent and no credits were spent."""

    default_suggestion = "fix the argument; nothing was sent"


class ArgumentError(ValidationError, TypeError):
    """A call was given a keyword it does not take, or an argument of the wrong kind; nothing was sent.

    Also a ``TypeError``, as Python's own error for the same mistake is; its suggestion names the keywords that
    come close (``depht=`` → ``depth=``) or what the argument must be.
    """

    default_suggestion = "check the function's parameters (help(function)); nothing was sent"


class BudgetExceededError(RegkitError):
    """The call would cross the client's budget; it was not sent.

    Attributes
    ----------
    needed : int
        Credits the call (or bulk call) would spend at most.
    remaining : int
        Credits left in the budget.
    """

    default_suggestion = (
        "raise the budget (Client(budget=...)), fetch fewer uncached items, "
        "or check the cost first with client.estimate_cost(...)"
    )

    def __init__(self, message: str, *, needed: int = 0, remaining: int = 0, **kwargs: Any) -> None:
        self.needed = needed
        self.remaining = remaining
        super().__init__(message, **kwargs)

    def _fields(self) -> dict[str, Any]:
        return {**super()._fields(), "needed": self.needed, "remaining": self.remaining}


class BudgetUnavailableError(RegkitError):
    """The team's budget cannot be read, or cannot be trusted, so a paid call was not sent.

    Raised when the team's Redis does not answer, when it lost the team's cap (restarted without its data, or
    flushed) and the team's spending could not be re-established from the register's own account, or when a
    charge this client could not record is still waiting to be settled.  A team budget fails closed: no
    credit is spent that the cap has not seen.
    """

    default_suggestion = (
        "start or reconnect the team's Redis; if it lost its data, the next call re-establishes the team's "
        "spending from the register's account (client.budget.restore())"
    )


class CacheError(RegkitError):
    """The cache cannot be opened or read: a corrupt or unreadable file, or a backend that fails.

    Attributes
    ----------
    location : str or None
        The cache's file or URL (never with a password).
    """

    default_suggestion = (
        "run `regkit cache check` to see what is wrong and `regkit cache repair` to keep what can be read; "
        "or move the file aside (a new, empty cache is made in its place)"
    )

    def __init__(self, message: str, *, location: str | None = None, **kwargs: Any) -> None:
        self.location = location
        super().__init__(message, **kwargs)

    def _fields(self) -> dict[str, Any]:
        return {**super()._fields(), "location": self.location}


class CacheUnavailableError(CacheError):
    """The cache (a shared Redis) does not answer, so a paid call was not sent: paying without the cache
    would pay again for the same answer later."""

    default_suggestion = (
        "start or reconnect the cache's Redis; to pay without the cache on purpose, make the client with "
        "Client(..., uncached_ok=True) (the ledger marks those calls 'uncached')"
    )


class OfflineCacheMiss(RegkitError, LookupError):
    """Offline mode is on and the answer is not in the cache (or is never cached)."""

    default_suggestion = (
        "turn offline mode off (client.cache.offline = False; on the command line, leave out "
        "--offline) to fetch it, paying its price"
    )


class WaitTimeout(RegkitError, TimeoutError):
    """An extract was still processing when ``wait_for_extract`` gave up (polling is free)."""

    default_suggestion = "wait longer: call client.wait_for_extract(extract_id) again (polling costs nothing)"


class TransportError(RegkitError):
    """The request did not complete: connection error, timeout, or a truncated/undecodable body."""

    default_suggestion = "check the network and the base URL, then try again; idempotent calls were already retried"


class APIError(RegkitError):
    """The interface answered with an error status (the subclass says which)."""

    default_suggestion = "see the message; the interface rejected the request"


class BadRequestError(APIError, ValueError):
    """400: the interface rejected the parameters (no credits spent)."""

    default_suggestion = "check the arguments against the interface description"


class AuthenticationError(APIError):
    """401: the API key is missing or wrong (or stored register credentials were rejected)."""

    default_suggestion = "check the API key (REGKIT_API_KEY or Client(api_key=...)); it is never shown here"


class PaymentRequiredError(APIError):
    """402: not enough credits, or the feature needs a paid plan."""

    default_suggestion = "check client.get_credits() and your plan"


class PermissionDeniedError(APIError):
    """403: the Transparenzregister refused the selected credentials."""

    default_suggestion = "unlock or complete the Transparenzregister account, or store other credentials"


class NotFoundError(APIError, LookupError):
    """404: the thing asked for does not exist (no credits spent for a company lookup)."""

    default_suggestion = "take the id from a search result; ids are case-sensitive"


class ConflictError(APIError):
    """409: the request conflicts with the current state (ambiguous match, limit reached)."""

    default_suggestion = "see the message; the request cannot be carried out as it stands"


class RateLimitedError(APIError):
    """429: too many requests, or the extract quota is used up.

    Attributes
    ----------
    retry_after : float or None
        Seconds the interface asked to wait (``Retry-After``), when it said.
    """

    default_suggestion = "wait and try again; bulk calls already honour Retry-After"

    def __init__(self, message: str, *, retry_after: float | None = None, **kwargs: Any) -> None:
        self.retry_after = retry_after
        super().__init__(message, **kwargs)

    def _fields(self) -> dict[str, Any]:
        return {**super()._fields(), "retry_after": self.retry_after}


class ServerError(APIError):
    """5xx: the interface failed internally."""

    default_suggestion = "try again later; idempotent calls were already retried"


_BY_STATUS: dict[int, type[APIError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    402: PaymentRequiredError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    429: RateLimitedError,
}


def error_for_status(status: int) -> type[APIError]:
    """Return the exception class for an HTTP error status (``APIError`` for unlisted ones)."""
    if status >= 500:
        return ServerError
    return _BY_STATUS.get(status, APIError)


class RegkitWarning(UserWarning):
    """Root of the warnings regkit issues: something went wrong, but the answer was returned."""


class CacheWriteWarning(RegkitWarning):
    """A paid answer could not be written to the cache (full disk, read-only file, Redis down).

    The answer was returned and its ledger row written; the next call for it is paid again.  Issued once per
    cache and reason; ``client.cache.info()["unstored"]`` counts every answer that was not stored.
    """


class BudgetWarning(RegkitWarning):
    """A charge could not be written to the team's budget (its Redis did not answer).

    The answer was returned, its row is in the local ledger (``client.ledger``, and the ledger file), and the
    charge is settled in the team's budget when Redis answers again; until then paid calls are refused
    (:class:`BudgetUnavailableError`).
    """


class NoFinancialReportsWarning(RegkitWarning):
    """A company has filed no annual report: its financials answer (paid, and cached) is empty.

    Partnerships without a limited partner's limited liability, sole traders and most associations publish no
    accounts; a company founded less than a year and a half ago has none yet.  ``client.get_company(id)``
    shows the same in its ``indicators`` (empty), for the price of a company lookup that many analyses make anyway.
    """


class BudgetStopWarning(RegkitWarning):
    """A crawl, climb, paged search or bulk call stopped at the budget and returned what it had.

    Its message says what was fetched, what was not, and the estimate of the next level or call that the budget
    could not pay for; what was fetched is cached, so raising the budget and asking again pays only for the rest.
    (Not :class:`BudgetWarning`, which says a team budget could not record a charge.)
    """


class Interrupted(KeyboardInterrupt):
    """An interrupt (Ctrl-C, a kernel interrupt) stopped a call that sends more than one request.

    Nothing more was sent after the interrupt: queued requests were cancelled, and the ones already in flight
    (at most the client's worker count) were given up to a second to finish. Every answer that arrived is
    cached and in the ledger, so running the same call again pays only for what is missing.

    A ``KeyboardInterrupt``, so a script stops and a notebook cell ends as after any interrupt, and
    ``except Exception`` does not swallow it.

    Attributes
    ----------
    call : str
        The call that was interrupted (``"get_companies"``, ``"crawl"``, …).
    answers : int
        Paid answers that arrived before the call ended (cached answers not counted).
    credits : int
        What they cost.
    cached : int
        Answers the cache gave for free during the call.
    """

    def __init__(self, call: str, answers: int, credits: int, cached: int = 0, detail: str = "") -> None:
        self.call = call
        self.answers = answers
        self.credits = credits
        self.cached = cached
        self.detail = detail
        super().__init__(str(self))

    def __str__(self) -> str:
        paid = f"{self.answers} paid answer{'s' if self.answers != 1 else ''} arrived ({self.credits} credits)"
        free = f", {self.cached} more came from the cache" if self.cached else ""
        detail = f"; {self.detail}" if self.detail else ""
        return (
            f"{self.call} interrupted: nothing more was sent; {paid}{free}{detail}. Every answer that arrived is "
            f"cached and in the ledger: run the same call again to resume — what arrived costs nothing again"
        )

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.call, self.answers, self.credits, self.cached, self.detail))


# -- arguments a call cannot bind ----------------------------------------------------------------------------------

_Explained = TypeVar("_Explained")

#: Set on a wrapper :func:`explain_arguments` made (so a re-export does not wrap it twice).
_EXPLAINED = "__regkit_explains_arguments__"


def explain_arguments(target: _Explained) -> _Explained:
    """Make Python's ``TypeError`` of a call that cannot bind (a mistyped keyword, a missing or extra argument) an
    :class:`ArgumentError` that says what to pass.

    Given a function, returns a wrapper (``functools.wraps``: ``inspect.signature``, ``help()`` and Sphinx see the
    function); given a class, wraps its ``__init__`` and public methods in place and returns the class. The wrapper
    calls the function and nothing else; only a ``TypeError`` raised by binding that very call (its traceback holds
    no frame of the function) becomes an ``ArgumentError``, so a right call pays one function call and a
    ``TypeError`` from inside the function passes unchanged. Wrapping twice wraps once.
    """
    if isinstance(target, type):
        for name, member in list(vars(target).items()):
            if name != "__init__" and name.startswith("_"):
                continue
            if isinstance(member, (staticmethod, classmethod)):
                setattr(target, name, type(member)(explain_arguments(member.__func__)))
            elif _is_function(member):
                setattr(target, name, explain_arguments(member))
        return target
    if not _is_function(target) or getattr(target, _EXPLAINED, False):
        return target
    function: Callable[..., Any] = target  # type: ignore[assignment]

    @functools.wraps(function)
    def explained(*args: Any, **kwargs: Any) -> Any:
        try:
            return function(*args, **kwargs)
        except TypeError as error:
            if isinstance(error, RegkitError) or not _raised_binding(error, function):
                raise
            raise ArgumentError(str(error), suggestion=_argument_suggestion(function, str(error))) from None

    setattr(explained, _EXPLAINED, True)
    return explained  # type: ignore[return-value]


def _is_function(value: object) -> bool:
    return type(value).__name__ == "function"  # a Python function (no import of inspect for it)


def _raised_binding(error: TypeError, function: Callable[..., Any]) -> bool:
    """Whether ``error`` is Python refusing the arguments of ``function`` itself: raised where the wrapper called it
    (no frame inside), naming it."""
    trace = error.__traceback__
    return (
        trace is not None
        and trace.tb_next is None
        and str(error).startswith((f"{function.__qualname__}()", f"{function.__name__}()"))
    )


def _argument_suggestion(function: Callable[..., Any], message: str) -> str:
    """What to pass instead: the close keyword (``did you mean depth=?``), else the call's parameters."""
    import inspect
    import re

    try:
        parameters = list(inspect.signature(function).parameters.values())
    except (TypeError, ValueError):  # pragma: no cover - every wrapped function has a signature
        return ArgumentError.default_suggestion
    owner, _, name = function.__qualname__.rpartition(".")
    if parameters and "." in function.__qualname__ and parameters[0].name in ("self", "cls"):
        parameters = parameters[1:]
    shown = owner if name == "__init__" else function.__qualname__
    kinds = inspect.Parameter
    parts, keyword_only = [], False
    for p in parameters:
        if p.kind is kinds.VAR_POSITIONAL:
            parts.append(f"*{p.name}")
            keyword_only = True
        elif p.kind is kinds.VAR_KEYWORD:
            parts.append(f"**{p.name}")
        else:
            if p.kind is kinds.KEYWORD_ONLY and not keyword_only:
                parts.append("*")
                keyword_only = True
            parts.append(p.name if p.default is kinds.empty else f"{p.name}=…")
    call = f"{shown}({', '.join(parts)})"
    keywords = [p.name for p in parameters if p.kind in (kinds.POSITIONAL_OR_KEYWORD, kinds.KEYWORD_ONLY)]
    unexpected = re.search(r"unexpected keyword argument '(\w+)'", message)
    if unexpected:
        close = close_keywords(unexpected.group(1), keywords)
        if close:
            return f"did you mean {' or '.join(f'{c}=' for c in close)}? The call is {call}; nothing was sent"
        return f"{shown}() takes {', '.join(f'{k}=' for k in keywords) or 'no keywords'}: {call}; nothing was sent"
    if "positional argument" in message and ("were given" in message or "was given" in message):
        return f"pass the arguments after the first ones by keyword: {call}; nothing was sent"
    if "missing" in message:
        return f"pass every argument without a default: {call}; nothing was sent"
    return f"call it as {call}; nothing was sent"


def user_stacklevel() -> int:
    """The ``stacklevel`` for ``warnings.warn`` that names the first line outside regkit: the user's call.

    Counted from the function that calls this. regkit's own frames are skipped — its layers, the wrappers of
    :func:`explain_arguments`, a dataclass's generated ``__init__`` — as Python 3.12's ``skip_file_prefixes``
    does, so a warning points at the user's line however deep inside regkit it is issued.

    Examples
    --------
    >>> import warnings
    >>> def deprecated_thing():  # in regkit: warnings.warn("…", DeprecationWarning, stacklevel=user_stacklevel())
    ...     return user_stacklevel()
    >>> deprecated_thing()  # this doctest is not a file of regkit: its line is the first one outside
    1
    """
    import inspect
    import os

    package = os.path.dirname(os.path.abspath(__file__)) + os.sep
    here = inspect.currentframe()
    frame: Any = here.f_back if here is not None else None
    level = 1
    while frame is not None:
        code = frame.f_code
        inside = code.co_filename.startswith(package) or (code.co_filename == "<string>" and code.co_name == "__init__")
        if not inside:
            return level
        frame, level = frame.f_back, level + 1
    return level


def close_keywords(word: str, keywords: Sequence[str]) -> list[str]:
    """The keywords of ``keywords`` that ``word`` most likely means: up to two close ones, or the closest when the
    next is far behind (``"depht"`` → ``["depth"]``; difflib ratios 0.75, then 0.6)."""
    import difflib

    return difflib.get_close_matches(word, keywords, n=2, cutoff=0.75) or difflib.get_close_matches(
        word, keywords, n=1, cutoff=0.6
    )


def unexpected_keyword(function: str, given: Iterable[str], keywords: Sequence[str], call: str) -> ArgumentError | None:
    """The error for a keyword of ``given`` that is none of ``keywords`` (``None`` when all are), worded as Python
    words a keyword a function does not take — for a function whose ``**kwargs`` take any name (a frame builder's
    deprecated keywords, a plot handing keywords on to ``savefig``); its suggestion names the close keyword.

    Parameters
    ----------
    function : str
        The function's name.
    given : iterable of str
        The keywords its ``**kwargs`` took.
    keywords : sequence of str
        Every keyword it takes: its own and those its ``**kwargs`` stand for.
    call : str
        How it is called (``"figure_svg(fig, close=False, **savefig)"``), for the suggestion.

    Examples
    --------
    >>> print(unexpected_keyword("f", ["dpi", "fromat"], ["dpi", "format"], "f(fig, **savefig)"))
    f() got an unexpected keyword argument 'fromat' — did you mean format=? The call is f(fig, **savefig)
    """
    unknown = next((word for word in given if word not in keywords), None)
    if unknown is None:
        return None
    close = close_keywords(unknown, keywords)
    meant = " or ".join(f"{word}=" for word in close)
    return ArgumentError(
        f"{function}() got an unexpected keyword argument {unknown!r}",
        suggestion=f"did you mean {meant}? The call is {call}" if close else f"call it as {call}",
    )
