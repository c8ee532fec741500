"""Lines of the source that share a company id: the same company listed twice (merged) or different companies
(kept apart). Never dropped.

The ids are formed by the court that issued the number (:mod:`.mapping`), so different registers of merged courts
no longer meet. Lines that still share an id are told apart by their names:

- **The same company** when a name of one (current or former, folded as company names are matched,
  :func:`~.mapping.company_key`'s rule) is a name of the other, or of a line that is (a chain, in any order): a
  record listed twice, or listed again after a rename. They become one company: the record of its newest line
  (retrieved last; of one day, the one with more names — a rename lists the former name), with the names the
  others add as former names, the officers they add, and the earliest derived incorporation date of them all (the
  derived dates move with it; a line with no date at all says nothing of it). An officer of another line who is
  the same mandate (same person and role, dates that do not contradict: equal or derived starts, equal or one
  open end) is one officer, with the end date and the real start date either line gives. Counted as ``merged``
  and listed (line, id, the line merged into).
- **Different companies** otherwise. The company of the first line keeps the id; each other company gets the id with
  a suffix the register never writes, ``ZA``, ``ZB``, … after the number (``DE-GnR-M1103-101`` →
  ``DE-GnR-M1103-101ZA``; letters the number has give way, as the id takes two: ``53EC`` → ``53ZA``);
  no two groups give one id twice; ``register.register_number`` stays the register's, so a
  search by number finds them all. Counted as ``kept_apart`` and listed (line, the id it would have had, the id
  it has, the names).

:func:`resolve` reads the import's sorted runs once and writes what the merge of :mod:`.importer` substitutes:
one entry per group in id order, the kept-apart companies in sorted runs of their own (their ids sort elsewhere),
and their search index rows in a stage of their own (source line 0, so that the index keeps them rather than the
lines' own rows). Memory holds one group at a time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from ...json_lines import dump_line_bytes, load_line
from ...search.company_index import CompanyRowStage
from ...search.company_rows import company_row, wz_parents
from ..world_store import company_store_rows
from .mapping import _fold
from .report import ImportReport

__all__ = ["Resolution", "SortedRuns", "apart_id", "read_groups", "resolve", "substituted"]


class SortedRuns(Protocol):
    """Entries written in sorted runs (the importer's ``_Runs``)."""

    files: list[Path]

    def add(self, company_id: str, line: int, entry: bytes) -> None: ...

    def flush(self) -> None: ...


Entry = tuple[str, int, bytes]  # (company id, source line, "flag\tderived members\tstore rows\trecord")

_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_NO_DATE = "1900-01-01"  # the mapping's incorporation date of a line that holds no date at all
_STAGED_ROWS = 2000  # index rows of resolved companies staged per transaction


@dataclass
class Resolution:
    """What :func:`resolve` found and wrote.

    Attributes
    ----------
    groups : Path
        One entry per group of lines that shared an id (``id\\tline\\tentry``, in id order): the merged company,
        or the first of the companies kept apart.
    apart : list of Path
        Sorted runs of the companies kept apart under new ids.
    renamed : dict
        ``(id, line)`` → the new id of a line kept apart (for linking company officers).
    shared : int
        How many ids more than one line had.
    """

    groups: Path
    apart: list[Path] = field(default_factory=list)
    renamed: dict[tuple[str, int], str] = field(default_factory=dict)
    shared: int = 0


def apart_id(company_id: str, taken: set[str]) -> str:
    """The id of a different company that shares ``company_id``: the number's digits, then ``ZA``, ``ZB``, …
    (then ``YA``, …), the first not in ``taken``.

    Examples
    --------
    >>> apart_id("DE-GnR-M1103-101", {"DE-GnR-M1103-101"}), apart_id("DE-HRB-X1234-53EC", set())
    ('DE-GnR-M1103-101ZA', 'DE-HRB-X1234-53ZA')
    """
    head, _, number = company_id.rpartition("-")
    digits = number.rstrip(_LETTERS)
    for first in reversed(_LETTERS):
        for second in _LETTERS:
            candidate = f"{head}-{digits}{first}{second}"
            if candidate not in taken and candidate != company_id:
                return candidate
    raise ValueError(f"more than 676 different companies share {company_id}")  # pragma: no cover


def resolve(
    entries: Iterable[Entry],
    directory: Path,
    report: ImportReport,
    new_runs: Callable[[], SortedRuns],
    stage_path: Path,
) -> Resolution:
    """Find the groups of ``entries`` (sorted by id, then line) that share an id and resolve each (see the module
    docstring); count and list them in ``report``. ``new_runs()`` makes the sorted runs of the companies kept
    apart (an object with ``add(id, line, entry)``, ``flush()`` and ``files``); their index rows and those of
    the merged companies go to the stage ``stage_path``."""
    resolution = Resolution(directory / "collision-groups")
    apart = new_runs()
    stage: CompanyRowStage | None = None
    parents = wz_parents()
    rows: list[tuple[int, Any]] = []
    issued: set[str] = set()  # the ids given to companies kept apart
    with resolution.groups.open("wb") as groups:
        group: list[Entry] = []
        for entry in _with_end(entries):
            if group and (entry is None or entry[0] != group[0][0]):
                if len(group) > 1:
                    resolution.shared += 1
                    resolved = _resolve_group(group, report, resolution.renamed, issued)
                    # a record that is not its first line's (merged with more, or renamed) is indexed as resolved
                    rows.extend(
                        (0, company_row(record, open_insolvency=False, parents=parents))
                        for _, record in resolved
                        if record is not None
                    )
                    (first, _), *others = resolved
                    groups.write(_line(first))
                    for other, _ in others:
                        apart.add(*other)
                    if len(rows) >= _STAGED_ROWS or entry is None:
                        stage = stage or CompanyRowStage(stage_path)
                        stage.add(rows)
                        rows = []
                group = []
            if entry is not None:
                group.append(entry)
    if rows:
        stage = stage or CompanyRowStage(stage_path)
        stage.add(rows)
    apart.flush()
    resolution.apart = list(apart.files)
    if stage is not None:
        stage.close()
    return resolution


def _with_end(entries: Iterable[Entry]) -> Iterator[Entry | None]:
    yield from entries
    yield None


def _line(entry: Entry) -> bytes:
    return f"{entry[0]}\t{entry[1]}\t".encode() + entry[2] + b"\n"


def read_groups(path: Path) -> Iterator[Entry]:
    """The entries :func:`resolve` wrote to ``path``."""
    with path.open("rb") as handle:
        for raw in handle:
            company_id, line, entry = raw.rstrip(b"\n").split(b"\t", 2)
            yield company_id.decode(), int(line), entry


def substituted(entries: Iterable[Entry], groups: Iterable[Entry]) -> Iterator[Entry]:
    """``entries`` (sorted by id) with every group of one id replaced by its resolved entry of ``groups``."""
    resolved = iter(groups)
    pending = next(resolved, None)
    skipping = None
    for entry in entries:
        company_id = entry[0]
        if company_id == skipping:
            continue
        if pending is not None and company_id == pending[0]:
            yield pending
            skipping = company_id
            pending = next(resolved, None)
            continue
        yield entry


@dataclass
class _Company:
    """One company of a group: its first line, the record of its newest line (what the older lines add merged
    in), that record's derived members and its names."""

    line: int
    record: dict[str, Any]
    derived: list[str]
    names: set[str]


def _names_of(record: dict[str, Any]) -> set[str]:
    return {_fold(entry.get("name")) for entry in record.get("names", ())} | {_fold(record["name"]["name"])}


def _resolve_group(
    group: list[Entry], report: ImportReport, renamed: dict[tuple[str, int], str], issued: set[str]
) -> list[tuple[Entry, dict[str, Any] | None]]:
    """The lines of one id → one entry per company (the company of the first line keeps the id), with its record
    when it is not that line's record as it was (``None``: the same line repeated, the index keeps that line's
    row). ``issued``: the ids given to companies kept apart so far (no two groups give one twice)."""
    company_id, first_line, first_entry = group[0]
    if all(entry == first_entry for _, _, entry in group[1:]):  # the same line again: nothing to add
        for _, line, _ in group[1:]:
            report.merged(line, company_id, first_line)
        return [((company_id, first_line, first_entry), None)]
    lines = []
    for _, line, entry in group:
        flag, members, _, body = entry.split(b"\t", 3)
        record = load_line(body)
        lines.append((line, record, load_line(members), flag[1:].decode(), _names_of(record)))
    outputs: list[tuple[Entry, dict[str, Any] | None]] = []
    for number, component in enumerate(_companies(lines)):
        # the newest line is the company's record (retrieved last; of one day, the one with more names: a rename
        # lists the former name), the others add what it lacks
        base = max(component, key=lambda item: (item[3], len(item[4]), item[0]))
        company = _Company(min(item[0] for item in component), base[1], list(base[2]), base[4])
        for item in component:
            if item is not base:
                _merge(company, item[1], item[2])
        record = company.record
        final_id = company_id
        if number:
            final_id = apart_id(company_id, issued)
            issued.add(final_id)
            _rename(record, final_id)
            report.kept_apart(company.line, company_id, final_id, first_line, record["name"]["name"])
        for line, *_ in component:
            if final_id != company_id:
                renamed[(company_id, line)] = final_id
            if line != company.line:
                report.merged(line, final_id, company.line)
        flag = b"1" if any(e.get("type") == "legal_person" for e in record["representation"]) else b"0"
        entry = b"\t".join(
            (
                flag,
                dump_line_bytes(company.derived),
                dump_line_bytes(company_store_rows(record)),
                dump_line_bytes(record),
            )
        )
        outputs.append(((final_id, company.line, entry), record))
    return outputs


def _companies(lines: list[tuple[int, Any, Any, str, set[str]]]) -> list[list[tuple[int, Any, Any, str, set[str]]]]:
    """The lines of one id grouped into companies: two lines with a name in common are one company, and so are
    the lines of a chain of such pairs (whatever their order). In the order of their first lines."""
    parent = list(range(len(lines)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(len(lines)):
        for j in range(i):
            if lines[i][4] & lines[j][4]:
                parent[root(i)] = root(j)
    components: dict[int, list[tuple[int, Any, Any, str, set[str]]]] = {}
    for i, item in enumerate(lines):
        components.setdefault(root(i), []).append(item)
    return sorted(components.values(), key=lambda items: items[0][0])


def _rename(record: dict[str, Any], new_id: str) -> None:
    record["id"] = new_id
    record["register"]["company_id"] = new_id
    for register in record.get("registers", ()):
        register["company_id"] = new_id


def _merge(company: _Company, record: dict[str, Any], derived: list[str]) -> None:
    """Add to ``company`` (its newest line's record) what ``record`` (an older line of it) has and it lacks: the
    names, as former names; the officers, where one of ``record``'s is the same mandate (same person and role,
    dates that do not contradict: equal or derived starts, equal or one open end) as one of the company's,
    the mandate's end date and real start date; and the earlier derived incorporation date."""
    base = company.record
    known = {_fold(entry["name"]) for entry in base["names"]}
    base["names"][:0] = [dict(entry) for entry in record["names"] if _fold(entry["name"]) not in known]
    marked = set(company.derived)
    theirs = set(derived)
    moved = {}
    for index, entry in enumerate(record["representation"]):
        start_derived = f"representation[{index}].start_date" in theirs
        same = _same_mandate(base["representation"], marked, entry, start_derived)
        if same is None:
            moved[index] = len(base["representation"])
            base["representation"].append(entry)
            continue
        mine = base["representation"][same]
        if mine.get("end_date") is None and entry.get("end_date") is not None:
            mine["end_date"] = entry["end_date"]
        member = f"representation[{same}].start_date"
        if member in marked and not start_derived:
            mine["start_date"] = entry["start_date"]
            company.derived.remove(member)
            marked.discard(member)
    for member in derived:
        head, bracket, rest = member.partition("[")
        if bracket and head == "representation":
            position, _, tail = rest.partition("]")
            if int(position) in moved:
                company.derived.append(f"representation[{moved[int(position)]}]{tail}")
    if record["incorporated_at"] != _NO_DATE:  # a line without any date says nothing of its incorporation
        _move_incorporation(base, company.derived, record["incorporated_at"])


def _same_mandate(
    entries: list[dict[str, Any]], marked: set[str], entry: dict[str, Any], start_derived: bool
) -> int | None:
    """The index of the mandate of ``entries`` that ``entry`` (of another line) is, or None."""
    key = (entry.get("id"), _fold(entry.get("name")), entry.get("role"))
    for index, mine in enumerate(entries):
        if (mine.get("id"), _fold(mine.get("name")), mine.get("role")) != key:
            continue
        starts = (
            start_derived
            or f"representation[{index}].start_date" in marked
            or mine.get("start_date") == entry.get("start_date")
        )
        ends = mine.get("end_date") is None or entry.get("end_date") is None or mine["end_date"] == entry["end_date"]
        if starts and ends:
            return index
    return None


def _move_incorporation(record: dict[str, Any], derived: list[str], other: str) -> None:
    """Set the derived incorporation date of ``record`` to the earlier of its own and ``other`` (another line's),
    and every date derived from it: the names', the address's and the officers' derived start dates."""
    old = record["incorporated_at"]
    day = other if old == _NO_DATE else min(old, other)
    record["incorporated_at"] = day
    for entry in record["names"]:
        entry["start_date"] = day
    record["name"]["start_date"] = day
    for address in (record["address"], *record["addresses"]):
        if address.get("start_date") in (old, other):
            address["start_date"] = day
    for member in derived:
        if member.startswith("representation[") and member.endswith("].start_date"):
            index = int(member[len("representation[") : -len("].start_date")])
            record["representation"][index]["start_date"] = day
