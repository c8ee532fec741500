"""The client's command-line commands: ``company``, ``insolvencies``, ``search``, ``owners``, ``holdings``,
``person``, ``credits``, ``cache``.

``regkit.cli`` calls :func:`add_commands` on its subparsers; each command sets ``handler`` to a
handler ``handler(args) -> int`` (the exit status).  Errors print one line to stderr and exit
non-zero (2 for invalid arguments, 1 otherwise).

What is spent is said: every command that can spend prints, on stderr after its output, one line with the credits
it spent, the answers the cache gave and what is left of ``--budget`` (:func:`spending_line`); ``--quiet``
(``regkit -q COMMAND``) or ``REGKIT_QUIET=1`` leaves it out. Nothing is paid that was not asked for: an argument
that is not a company id is read as a register entry offline (:func:`regkit.parse_company_id`) and its id is
suggested, not fetched; ``regkit search`` without words or filters is refused. Progress bars are drawn only when
stderr is a terminal.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Callable, Sequence
from datetime import timedelta
from typing import Any

from regkit.errors import (
    AuthenticationError,
    BudgetExceededError,
    NotFoundError,
    OfflineCacheMiss,
    PaymentRequiredError,
    RegkitError,
    TransportError,
    ValidationError,
)

from ..budget.spending import QUIET_VARIABLE, quiet_from_environment
from .webhook import add_webhook_commands

__all__ = ["add_commands", "main", "parse_age", "parse_filters", "spending_line"]

_SUMMARY_COLUMNS = ["id", "debtor_name", "court", "city", "current_status", "opened_at", "last_event_at"]
_COMPANY_COLUMNS = ["company_id", "name", "legal_form", "register_court", "city", "active", "holdings_cached"]
_OWNER_COLUMNS = ["holder_name", "holder_type", "relation_type", "share", "nominal_share", "start", "holder_id"]
_HOLDING_COLUMNS = ["company_id", "company_name", "relation_type", "share", "nominal_share", "start", "end"]
_POSITION_COLUMNS = ["company_id", "company_name", "role", "start_date", "end_date"]
_ENTRY_HELP = (
    "a register entry as people write it, quoted ('HRB 168089 Lemgo'), is read offline and its id suggested "
    "(nothing is sent)"
)
_ID_HELP = f"a company id, e.g. DE-HRB-R3101-94644; {_ENTRY_HELP}"
#: What to do next, said for a shell user (the errors' own suggestions are written for Python).
_SHELL_HINTS: dict[type, str] = {
    OfflineCacheMiss: "run the command again without --offline to fetch it (that spends its credits)",
    BudgetExceededError: "raise --budget (or leave it out); what is cached costs nothing: regkit cache info",
    AuthenticationError: "set REGKIT_API_KEY to a valid key, or unset it to use the bundled register",
    PaymentRequiredError: "see regkit credits",
}


def _client(args: argparse.Namespace, *, spends: bool = True) -> Any:
    """The command's client (quiet as the command is); one that ``spends`` is kept on ``args`` so that
    :func:`_guarded` can say what it spent."""
    from ..core import Client

    client = Client(budget=getattr(args, "budget", None), offline=getattr(args, "offline", False), quiet=_quiet(args))
    if spends:
        vars(args).setdefault("clients", []).append(client)
    return client


def _quiet(args: argparse.Namespace) -> bool:
    """Whether ``--quiet`` (``regkit -q``) or ``REGKIT_QUIET`` asks for no lines about credits on stderr."""
    return bool(getattr(args, "quiet", False)) or quiet_from_environment()


def _plural(count: int, word: str) -> str:
    return f"{count:,} {word}{'' if count == 1 else 's'}"


def spending_line(client: Any) -> str:
    """What ``client`` spent, for a shell user: credits charged, answers fetched and from the cache (with the credits
    the cache saved), what attempts without an answer may have cost, and what is left of a budget.

    Read from the client's public counters (``credits_spent``, ``credits_saved``, ``ledger``, ``budget``).

    Examples
    --------
    ``regkit: 10 credits spent; 1 answer fetched, 0 from the cache``;
    ``regkit: 0 credits spent; 0 answers fetched, 1 from the cache (10 credits saved)``;
    ``regkit: 20 credits spent; 2 answers fetched, 0 from the cache; 80 of --budget 100 left``.
    """
    ledger = client.ledger
    cached = int(ledger["from_cache"].sum()) if len(ledger) else 0
    uncertain = int(ledger["uncertain"].sum()) if len(ledger) else 0
    saved = client.credits_saved
    text = f"regkit: {_plural(client.credits_spent, 'credit')} spent; {_plural(len(ledger) - cached, 'answer')} "
    text += f"fetched, {cached:,} from the cache"
    if saved:
        text += f" ({_plural(saved, 'credit')} saved)"
    if uncertain:
        text += f"; up to {_plural(uncertain, 'credit')} more may have been charged for requests that got no answer"
    limit = getattr(client.budget, "limit", None)
    if limit is not None:
        text += f"; {max(client.budget.remaining or 0, 0):,} of --budget {limit:,} left"
    return text


def _say_spent(args: argparse.Namespace, *, failed: bool) -> None:
    """The spending line of each client the command opened (after a failure only if something was or may have
    been charged: a refused call stays one line)."""
    if _quiet(args):
        return
    for client in vars(args).get("clients", []):
        if failed and not (client.credits_spent or client.ledger["uncertain"].sum()):
            continue
        print(spending_line(client), file=sys.stderr)


def _guarded(handler: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        failed = True
        try:
            status = handler(args)
            failed = False
            return status
        except RegkitError as exc:
            hint = next((text for cls, text in _SHELL_HINTS.items() if isinstance(exc, cls)), None)
            if hint is not None:
                exc.suggestion = hint
            print(f"regkit: error: {' '.join(str(exc).split())}", file=sys.stderr)
            return 2 if isinstance(exc, ValidationError) else 1
        except KeyboardInterrupt as exc:
            # Ctrl-C: nothing more is sent; say so (and what arrived, when the client says it), then what was spent.
            said = " ".join(str(exc).split())
            print(f"regkit: {said or 'interrupted'}", file=sys.stderr)
            return 130
        except BrokenPipeError:
            raise  # the reader went away: `regkit` ends quietly
        except (OSError, ImportError) as exc:
            print(f"regkit: error: {' '.join(str(exc).split())}", file=sys.stderr)
            return 1
        finally:
            _say_spent(args, failed=failed)

    run.__name__ = handler.__name__
    run.__doc__ = handler.__doc__
    return run


def _company_id(text: str, command: str) -> str:
    """``text`` if it is a company id; otherwise a :class:`ValidationError` saying which id it means, read offline
    as a register entry (:func:`regkit.parse_company_id`: ``HRB 168089 Lemgo``) — suggested, never fetched, since
    spending is asked for explicitly — or which ids it may mean when its court fits several. Nothing is sent."""
    from regkit.schema.interface import COMPANY_ID_PATTERN

    from ..arguments.company_ids import parse_company_id

    stripped = text.strip()
    if COMPANY_ID_PATTERN.fullmatch(stripped):
        return stripped
    if COMPANY_ID_PATTERN.fullmatch(stripped.upper()) or COMPANY_ID_PATTERN.fullmatch(_id_case(stripped)):
        meant_id = stripped.upper() if COMPANY_ID_PATTERN.fullmatch(stripped.upper()) else _id_case(stripped)
        raise ValidationError(
            f"{text!r} is not a company id: ids are case-sensitive; did you mean {meant_id}?",
            suggestion=f"run: regkit {command} {meant_id} (nothing was sent)",
        )
    if stripped.upper().startswith("DE-"):
        return stripped  # meant as an id: the client's own check says what is wrong with it
    if not re.search(r"[0-9]", stripped):  # words: a name, not a register entry
        raise ValidationError(
            f"{text!r} is not a company identifier",
            suggestion=f"to find a company by its name: regkit search {stripped} (10 credits a page); a register "
            f"entry as people write it, quoted, gives its id for free: regkit {command} 'HRB 152955 Darmstadt'; "
            "nothing was sent",
        )
    try:
        meant = [parse_company_id(stripped)]
        problem = ""
    except ValidationError as exc:
        problem = exc.message
        near = re.search(r"did you mean ([^?]*)\?", exc.suggestion or "")
        codes = re.findall(r"\b[A-Z][0-9]{4}\b", f"{exc.message} {near.group(1) if near else ''}")
        meant = _ids_at(stripped, codes)
    if not meant:
        raise ValidationError(
            f"{text!r} is not a company id, and as a register entry: {problem}",
            suggestion=f"write the register entry with its court's name or code, quoted: regkit {command} "
            f"'HRB 152955 Darmstadt' or regkit {command} 'HRB 152955 M1103' (regkit reads it offline and says the "
            f"id), or give the id: regkit {command} DE-HRB-M1103-152955; nothing was sent",
        )
    named = " or ".join(f"{cid} ({_court_label(cid)})" for cid in meant)
    runs = ", or ".join(f"regkit {command} {cid}" for cid in meant)
    why = " and the court in it fits several" if len(meant) > 1 else f" ({problem})" if problem else ""
    raise ValidationError(
        f"{text!r} is not a company id{why}; did you mean {named}?",
        suggestion=f"run: {runs} (nothing was sent)",
    )


def _id_case(text: str) -> str:
    """``text`` with an id's letter case (``de-HRB-r3101-94644`` → ``DE-HRB-R3101-94644``; ``GnR`` kept)."""
    from regkit.schema.interface import REGISTER_TYPES

    parts = text.split("-")
    if len(parts) != 4:
        return text
    kind = {t.upper(): t for t in REGISTER_TYPES}.get(parts[1].upper(), parts[1])
    return "-".join([parts[0].upper(), kind, parts[2].upper(), parts[3].upper()])


def _ids_at(text: str, codes: Sequence[str]) -> list[str]:
    """The ids ``text`` names at each of the courts ``codes`` (those it can be read at), in order, once each."""
    from ..arguments.company_ids import parse_company_id

    ids: list[str] = []
    for code in dict.fromkeys(codes):
        try:
            ids.append(parse_company_id(text, court=code))
        except ValidationError:
            continue
    return list(dict.fromkeys(ids))


def _court_label(company_id: str) -> str:
    """``"R2307 Lemgo"``: the court of a company id, as the bundled court list names it."""
    from regkit.schema.courts import courts

    code = company_id.split("-")[2]
    court = courts().by_code.get(code)
    return court.label() if court is not None else code


class _Words(argparse.Action):
    """Store the words of a free-text argument as one query (``regkit search Waldstein Holding`` is the query
    ``"Waldstein Holding"``, as if quoted); no words is no query (``None``)."""

    def __call__(self, parser: Any, namespace: argparse.Namespace, values: Any, option_string: Any = None) -> None:
        words = [values] if isinstance(values, str) else list(values or [])
        setattr(namespace, self.dest, " ".join(" ".join(words).split()) or None)


def _positive(text: str) -> int:
    """An argparse type: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def parse_age(text: str) -> timedelta:
    """``30d`` / ``12h`` / ``2w`` / ``90m`` → a ``timedelta`` (for ``regkit cache clear --older-than``).

    >>> parse_age("30d")
    datetime.timedelta(days=30)
    """
    match = re.fullmatch(r"\s*(\d+)\s*([mhdw])\s*", text)
    if not match or int(match.group(1)) == 0:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not an age: a positive whole number and m, h, d or w (minutes, hours, days, weeks), e.g. 30d"
        )
    unit = {"m": "minutes", "h": "hours", "d": "days", "w": "weeks"}[match.group(2)]
    from ..cache.client_cache import MAX_AGE

    try:
        age = timedelta(**{unit: int(match.group(1))})
    except OverflowError:
        age = timedelta.max
    if age > MAX_AGE:
        raise argparse.ArgumentTypeError(
            f"{text!r} is longer than any cache can be old (at most {MAX_AGE.days}d); "
            "to delete everything, leave --older-than out"
        )
    return age


def _age_text(age: timedelta) -> str:
    """``timedelta(days=30)`` → ``"30 days"`` (what ``parse_age`` read, said back)."""
    minutes = int(age.total_seconds()) // 60
    for size, unit in ((24 * 60, "day"), (60, "hour"), (1, "minute")):
        if minutes % size == 0:
            count = minutes // size
            return f"{count} {unit}{'' if count == 1 else 's'}"
    return str(age)


def parse_filters(items: Sequence[str]) -> dict[str, Any]:
    """Turn ``FIELD=VALUE`` options into the filter mapping of ``search_insolvencies``.

    ``a,b`` is a list of values, ``MIN..MAX`` a range (either end may be empty); a field given
    twice collects its values.

    Examples
    --------
    >>> parse_filters(["court=Charlottenburg", "current_status=opened,preliminary", "opened_at=2024-01-01.."])
    {'court': 'Charlottenburg', 'current_status': ['opened', 'preliminary'], 'opened_at': ('2024-01-01', None)}
    """
    out: dict[str, Any] = {}
    for item in items:
        field, sep, value = item.partition("=")
        field = field.strip()
        if not sep or not field:
            raise ValidationError(
                f"--filter {item!r} is not FIELD=VALUE",
                suggestion="e.g. --filter legal_form=gmbh, --filter 'city=Frankfurt am Main' or "
                "--filter incorporated_at=2020-01-01.. (regkit insolvencies: "
                "--filter current_status=opened)",
            )
        spec: Any
        if ".." in value:
            low, _, high = value.partition("..")
            spec = (low.strip() or None, high.strip() or None)
        elif "," in value:
            spec = [v.strip() for v in value.split(",") if v.strip()]
        else:
            spec = value.strip()
        if field in out and not isinstance(spec, tuple) and not isinstance(out[field], tuple):
            before = out[field] if isinstance(out[field], list) else [out[field]]
            spec = before + (spec if isinstance(spec, list) else [spec])
        out[field] = spec
    return out


def _progress_bars() -> bool:
    """Whether to draw progress bars: only on a terminal (a log file or a pipe gets none)."""
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):  # stderr replaced or closed
        return False


def _print_table(rows: list[dict[str, Any]], columns: list[str] | None = None) -> None:
    import pandas as pd

    frame = pd.DataFrame(rows)
    if columns:
        frame = frame.reindex(columns=[c for c in columns if c in frame.columns] or list(frame.columns))
    frame = frame.astype(object).where(frame.notna(), "")
    print(frame.to_string(index=False) if len(frame) else "(no results)")


@_guarded
def company(args: argparse.Namespace) -> int:
    """Print one company."""
    args.company_id = _company_id(args.company_id, "company")
    with _client(args) as client:
        record = client.get_company(args.company_id, realtime=args.realtime)
    if args.format == "json":
        print(json.dumps(record.raw, ensure_ascii=False, indent=2))
    else:
        from .format import record_lines

        print("\n".join(record_lines(record.raw)))
    return 0


@_guarded
def insolvencies(args: argparse.Namespace) -> int:
    """Print insolvency proceedings."""
    filters = parse_filters(args.filter or [])
    with _client(args) as client:
        per_page = max(1, min(args.limit, 100))
        found = client.search_all_insolvencies(
            args.query, filters, limit=args.limit, per_page=per_page, progress=_progress_bars()
        )
        rows = list(found)
    if args.format == "json":
        print(json.dumps(rows, ensure_ascii=False, indent=2))
    elif args.format == "csv":
        import pandas as pd

        cells = [
            {k: json.dumps(v, ensure_ascii=False) if isinstance(v, (list, dict)) else v for k, v in row.items()}
            for row in rows
        ]
        sys.stdout.write(pd.DataFrame(cells).to_csv(index=False))
    else:
        columns = _SUMMARY_COLUMNS
        if args.query:
            from .format import matched_fields

            rows = [{**row, "matched": matched_fields(row, args.query)} for row in rows]
            columns = [*_SUMMARY_COLUMNS[:2], "matched", *_SUMMARY_COLUMNS[2:]]
        _print_table(rows, columns)
    return 0


def _named(record: Any, identifier: Any) -> str:
    """``id`` or ``id (name)`` when the client's cache named it (``record.known_names``, free)."""
    name = (getattr(record, "known_names", None) or {}).get(identifier)
    return f"{identifier} ({name})" if name else str(identifier)


def _print_frame(frame: Any, columns: list[str]) -> None:
    """A frame of :mod:`regkit.frames` as a plain table (see :func:`regkit.client.cli.format.frame_lines`)."""
    from .format import frame_lines

    print("\n".join(frame_lines(frame, columns)))


@_guarded
def search(args: argparse.Namespace) -> int:
    """Print one page of a company search."""
    filters = parse_filters(args.filter or [])
    if args.query is None and not filters:
        raise ValidationError(
            "regkit search needs words or a filter: without either it lists every company (10 credits a page)",
            suggestion="give words of a name, register number or city (regkit search Waldstein Holding) or a "
            "filter (regkit search -f legal_form=se); nothing was sent",
        )
    with _client(args) as client:
        page = client.search_companies(args.query, filters, page=args.page, per_page=args.per_page)
    if args.format == "json":
        print(json.dumps(page.raw, ensure_ascii=False, indent=2))
        return 0
    frame = page.to_dataframe()
    if args.format == "csv":
        sys.stdout.write(frame.to_csv(index=False))
        return 0
    _print_frame(frame, _COMPANY_COLUMNS)
    pagination = page.raw.get("pagination", {})
    more = f"; --page {args.page + 1} for more" if page.has_next else ""
    found = f"{page.total_results} result{'' if page.total_results == 1 else 's'}"
    print(f"page {pagination.get('page')} of {pagination.get('total_pages')}, {found}{more}")
    return 0


@_guarded
def owners(args: argparse.Namespace) -> int:
    """Print a company's owners."""
    args.company_id = _company_id(args.company_id, "owners")
    with _client(args) as client:
        try:
            record = client.get_owners(args.company_id, realtime=args.realtime, best_available=args.best_available)
        except NotFoundError as exc:
            if not args.best_available and getattr(exc, "code", None) == "owners_not_available":
                exc.suggestion = (
                    "an AG, SE or KGaA has no shareholders in the register: --best-available lists "
                    "those known from filed documents"
                )
            raise
    if args.format == "json":
        print(json.dumps(record.raw, ensure_ascii=False, indent=2))
        return 0
    known = " (best available: from filed documents)" if record.raw.get("best_available") else ""
    print(f"{_named(record, record.raw.get('company_id'))}: {len(record)} current owner(s){known}")
    _print_frame(record.to_dataframe(), _OWNER_COLUMNS)
    return 0


@_guarded
def holdings(args: argparse.Namespace) -> int:
    """Print the companies a company or a person holds shares in."""
    from regkit.schema.interface import UUID_PATTERN

    person = bool(UUID_PATTERN.match(args.holder_id.strip()))
    if not person:
        args.holder_id = _company_id(args.holder_id, "holdings")
    with _client(args) as client:
        try:
            record = client.get_person_holdings(args.holder_id) if person else client.get_holdings(args.holder_id)
        except ValidationError as exc:
            exc.suggestion = (
                f"{exc.suggestion}; or a person's UUID (regkit holdings 9922b97a-9c35-4d0b-8d2b-3908753a84b7)"
            )
            raise
    if args.format == "json":
        print(json.dumps(record.raw, ensure_ascii=False, indent=2))
        return 0
    frame = record.to_dataframe()
    if args.current:
        frame = frame[frame["is_current"]]
    past = len(record) - len(record.current)
    print(f"{_named(record, record.holder_id)}: {len(record.current)} current, {past} past holding(s)")
    _print_frame(frame, _HOLDING_COLUMNS)
    return 0


@_guarded
def person(args: argparse.Namespace) -> int:
    """Print one person and their management positions."""
    with _client(args) as client:
        record = client.get_person(args.person_id)
    if args.format == "json":
        print(json.dumps(record.raw, ensure_ascii=False, indent=2))
        return 0
    from .format import record_lines

    print("\n".join(record_lines({k: v for k, v in record.raw.items() if k != "management_positions"})))
    print(f"management positions ({len(record.raw.get('management_positions') or [])}):")
    _print_frame(record.to_dataframe(), _POSITION_COLUMNS)
    return 0


@_guarded
def credits(args: argparse.Namespace) -> int:
    """Print the account's credits (free: no spending line)."""
    with _client(args, spends=False) as client:
        record = client.get_credits()
    for key, value in record.raw.items():
        print(f"{key}: {json.dumps(value) if isinstance(value, (dict, list)) else value}")
    return 0


@_guarded
def cache(args: argparse.Namespace) -> int:
    """Show, clear, check or repair the cache."""
    from ..cache.client_cache import CACHE_SETTING, ClientCache, open_backend
    from ..cache.policy import CachePolicy

    if args.older_than is not None and args.action != "clear":
        raise ValidationError("--older-than goes with 'clear'", suggestion="regkit cache clear --older-than 30d")
    where = "default" if args.cache is None else args.cache.strip()
    if args.action == "repair":
        return _repair(where)
    named = where if where != "default" else os.environ.get(CACHE_SETTING, "").strip()
    if named == "memory":
        source = "--cache memory" if where == "memory" else f"{CACHE_SETTING}=memory"
        raise ValidationError(
            f"{source} is a cache inside one Python process: a command has none to show or clear",
            suggestion="give a path, sqlite or a redis:// URL, or leave --cache out "
            "(REGKIT_CACHE, else the default SQLite file)",
        )
    handle = ClientCache(open_backend(where), CachePolicy())
    try:
        return _cache_action(handle, args)
    except _redis_errors() as exc:
        raise TransportError(
            f"the cache at {handle.location()} failed: {type(exc).__name__}",
            suggestion="check that Redis is running and reachable, then try again",
        ) from None


def _redis_errors() -> tuple[type[Exception], ...]:
    """``redis.RedisError`` when the redis package is installed (a Redis cache needs it), else nothing."""
    try:
        import redis
    except ImportError:
        return ()
    return (redis.RedisError,)


def _sqlite_file(where: str) -> Any:
    """The SQLite file ``--cache`` (or ``REGKIT_CACHE``, else the default) names, without opening it."""
    from pathlib import Path

    from ..cache.client_cache import CACHE_FILE, CACHE_SETTING, default_cache_dir, is_redis_url

    named = where if where != "default" else (os.environ.get(CACHE_SETTING, "").strip() or "sqlite")
    if is_redis_url(named) or named == "memory":
        raise ValidationError(
            f"repair is for a SQLite cache file, not {named.split('@')[-1]!r}",
            suggestion="a Redis cache has nothing to repair here: regkit cache clear empties it",
        )
    if named == "sqlite":
        return default_cache_dir() / CACHE_FILE
    path = Path(named).expanduser()
    return path / CACHE_FILE if path.is_dir() else path


def _repair(where: str) -> int:
    """``repair``: keep what can be read of a damaged SQLite cache."""
    from ..cache.client_cache import repair

    result = repair(_sqlite_file(where))
    lost = "nothing else could be read" if result["lost"] is None else f"{result['lost']} could not be read"
    converted = f" ({result['converted']} converted from an earlier regkit's format)" if result["converted"] else ""
    print(
        f"kept {result['kept']} answer(s){converted} and {result['aliases']} alias(es) in {result['location']}; {lost}"
    )
    print(f"the damaged file is now {result['moved_to']} (delete it when you no longer need it)")
    return 0


def _cache_action(handle: Any, args: argparse.Namespace) -> int:
    """``info``, ``clear`` or ``check`` on the opened cache."""
    if args.action == "check":
        result = handle.check()
        for key in ("location", "responses", "readable", "unreadable"):
            print(f"{key}: {result[key]}")
        if result["error"]:
            print(f"error: {result['error']}")
        print("ok" if result["ok"] else "damaged: regkit cache repair keeps what can be read")
        return 0 if result["ok"] else 1
    if args.action == "clear":
        removed = handle.clear(args.older_than)
        older = "" if args.older_than is None else f" cached more than {_age_text(args.older_than)} ago"
        print(f"deleted {removed} answer(s){older} from {handle.location()}")
        return 0
    for key, value in handle.info().items():
        if isinstance(value, dict):
            print(f"{key}:")
            for sub, text in value.items():
                print(f"  {sub}: {text}")
        else:
            print(f"{key}: {value}")
    return 0


def add_commands(subparsers: Any) -> None:
    """Register ``company``, ``insolvencies``, ``search``, ``owners``, ``holdings``, ``person``, ``credits``,
    ``webhook`` and ``cache`` on ``subparsers``.

    The client reads ``REGKIT_API_KEY``, ``REGKIT_BASE_URL``, ``REGKIT_CACHE`` and ``REGKIT_CACHE_DIR``.
    """
    p = subparsers.add_parser("company", help="look up one company (10 credits, cached)")
    p.add_argument("company_id", help=_ID_HELP)
    p.add_argument("--realtime", action="store_true", help="fetch from the official register (20 credits)")
    p.add_argument("--format", choices=("json", "table"), default="table")
    _common(p)
    p.set_defaults(handler=company)

    p = subparsers.add_parser("insolvencies", help="search insolvency proceedings (10 credits per page)")
    p.add_argument(
        "--query",
        "-q",
        nargs="+",
        action=_Words,
        metavar="WORD",
        help="free text: debtor, case number, administrator, court (several words are one query, quotes optional)",
    )
    p.add_argument(
        "--filter",
        "-f",
        action="append",
        metavar="FIELD=VALUE",
        help="a filter; a,b for several values, MIN..MAX for a range; repeatable",
    )
    p.add_argument(
        "--limit", type=_positive, default=20, help="most results to print (default 20; 100 a page, 10 credits a page)"
    )
    p.add_argument("--format", choices=("csv", "json", "table"), default="table")
    _common(p)
    p.set_defaults(handler=insolvencies)

    p = subparsers.add_parser("search", help="search companies by name, register number or city (10 credits a page)")
    p.add_argument(
        "query",
        nargs="*",
        action=_Words,
        metavar="WORDS",
        help="words of the name (current or former), register number or city: regkit search Waldstein Holding "
        "searches the words together, quotes optional",
    )
    p.add_argument(
        "--filter",
        "-f",
        action="append",
        metavar="FIELD=VALUE",
        help="a filter (legal_form=gmbh, city=Kassel, revenue=1000000.., active=true); a,b for several "
        "values, MIN..MAX for a range; repeatable",
    )
    p.add_argument("--page", type=_positive, default=1, help="page number (default 1)")
    p.add_argument("--per-page", type=_positive, default=20, help="results per page, 1-100 (default 20)")
    p.add_argument("--format", choices=("csv", "json", "table"), default="table")
    _common(p)
    p.set_defaults(handler=search)

    p = subparsers.add_parser("owners", help="a company's current owners (10 credits, cached)")
    p.add_argument("company_id", help=_ID_HELP)
    p.add_argument(
        "--best-available", action="store_true", help="for an AG, SE or KGaA: the owners known from filed documents"
    )
    p.add_argument("--realtime", action="store_true", help="fetch from the official register (20 credits)")
    p.add_argument("--format", choices=("json", "table"), default="table")
    _common(p)
    p.set_defaults(handler=owners)

    p = subparsers.add_parser("holdings", help="what a company or person holds shares in (10 credits, cached)")
    p.add_argument(
        "holder_id", metavar="ID", help=f"a company id (DE-HRB-R3101-94644) or a person's UUID; {_ENTRY_HELP}"
    )
    p.add_argument("--current", action="store_true", help="current holdings only (past ones have an end date)")
    p.add_argument("--format", choices=("json", "table"), default="table")
    _common(p)
    p.set_defaults(handler=holdings)

    p = subparsers.add_parser("person", help="one person and their management positions (10 credits, cached)")
    p.add_argument("person_id", help="the person's UUID (representation[].id of a company, or regkit owners)")
    p.add_argument("--format", choices=("json", "table"), default="table")
    _common(p)
    p.set_defaults(handler=person)

    p = subparsers.add_parser("credits", help="show the account's credits (free)")
    p.set_defaults(handler=credits)

    add_webhook_commands(subparsers)

    p = subparsers.add_parser("cache", help="show, clear, check or repair the client's cache")
    p.add_argument(
        "action",
        choices=("info", "clear", "check", "repair"),
        help="info: what it holds; clear: delete answers; check: read every answer, exit 1 if any "
        "cannot be read; repair: keep what can be read of a damaged SQLite file",
    )
    p.add_argument(
        "--older-than",
        type=parse_age,
        default=None,
        metavar="AGE",
        help="with clear: only answers cached longer ago than AGE (30d, 12h, 2w, 90m)",
    )
    p.add_argument(
        "--cache",
        default=None,
        metavar="WHERE",
        help="which cache: a SQLite file or directory, sqlite (the default file) or a redis:// URL "
        "(default: REGKIT_CACHE, else the default SQLite file)",
    )
    p.set_defaults(handler=cache)


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--budget", type=int, default=None, help="spend at most this many credits")
    parser.add_argument("--offline", action="store_true", help="answer from the cache only")
    parser.add_argument(
        "--quiet",
        action="store_true",
        default=argparse.SUPPRESS,  # leaves `regkit -q COMMAND` as it was set
        help=f"do not print the credits spent on stderr (also regkit -q COMMAND, or {QUIET_VARIABLE}=1)",
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run the client's commands alone (``python -m regkit.client.cli``); ``regkit`` has them all."""
    parser = argparse.ArgumentParser(prog="regkit")
    add_commands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return int(args.handler(args))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
