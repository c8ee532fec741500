"""The import report: every line of the source imported or counted by kind, with samples and lists.

``import-report.json`` beside the world holds :meth:`ImportReport.as_dict`. Kinds of lines that are *not*
imported (:data:`SKIPPED_KINDS`) add up with the imported companies and the lines merged into them
(:data:`SHARED_ID_KINDS`: ``merged``; ``kept_apart`` lines are imported companies) to the lines read; warnings
(:data:`WARNING_KINDS`) are about records that were imported all the same.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

__all__ = ["ImportReport", "SHARED_ID_KINDS", "SKIPPED_KINDS", "WARNING_KINDS", "KIND_TEXTS"]

#: A line of these kinds is not imported.
SKIPPED_KINDS = ("not_json", "not_a_record", "no_register_number", "unknown_court")
#: A line of these kinds shares a company id with an earlier line: merged into its company, or imported under a
#: new id (:mod:`.collisions`); never lost.
SHARED_ID_KINDS = ("merged", "kept_apart")
#: An import with these is complete nonetheless (``truncated_file``: the lines after the cut are missing).
WARNING_KINDS = (
    "truncated_file",
    "unknown_position",
    "court_mismatch",
    "issuing_court_mismatch",
    "issuing_court_from_company_number",
    "issuing_court_unknown",
)
KIND_TEXTS = {
    "not_json": "a line that is not JSON",
    "not_a_record": "a JSON line that is not a register record (no all_attributes or no name)",
    "no_register_number": "a record without a register type and number (no company id can be formed)",
    "unknown_court": "a record whose register court is in none of the bundled court lists",
    "merged": "a line of a company an earlier line already has (same id, a name in common): merged into it, its "
    "names and officers added",
    "kept_apart": "a line of a different company with the id of an earlier line (no name in common): imported under "
    "the id with a suffix ZA, ZB, … after the number",
    "truncated_file": "the file ends early (a cut download): the lines after the cut are missing",
    "unknown_position": "an officer whose position text names no known role (kept, with role OTHER)",
    "court_mismatch": "the court named differs from the code in company_number (the name is used)",
    "issuing_court_mismatch": 'the former court named ("X früher Y") differs from the second code in company_number '
    "(the name, looked up in the record's federal state, is used)",
    "issuing_court_from_company_number": "the former court named is in none of the bundled lists in the record's "
    "federal state: company_number's second code (of that state) is used",
    "issuing_court_unknown": "the former court named is in none of the bundled lists and company_number gives no code "
    "of that state: the current court's code is used (a line that then shares an id is merged or kept apart)",
}
_SAMPLES = 5
_LISTED = 100_000


@dataclass
class ImportReport:
    """What an import read, imported, skipped and derived (see the module docstring)."""

    source: dict[str, Any]
    lines: int = 0
    imported: int = 0
    counts: Counter[str] = field(default_factory=Counter)
    samples: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    unformed_ids: list[dict[str, Any]] = field(default_factory=list)
    merges: list[dict[str, Any]] = field(default_factory=list)
    apart: list[dict[str, Any]] = field(default_factory=list)
    derived: Counter[str] = field(default_factory=Counter)
    linked_company_officers: int = 0
    company_officers: int = 0

    def count(self, kind: str, line: int, detail: str, text: bytes | str = b"") -> None:
        """Count one ``kind`` at ``line``, keeping the first few as samples."""
        self.counts[kind] += 1
        samples = self.samples.setdefault(kind, [])
        if len(samples) < _SAMPLES:
            excerpt = text.decode("utf-8", "replace") if isinstance(text, bytes) else text
            samples.append({"line": line, "detail": detail[:300], "excerpt": excerpt[:300]})

    def unformed(self, line: int, kind: str, company_number: str) -> None:
        """List a line whose company id could not be formed."""
        if len(self.unformed_ids) < _LISTED:
            self.unformed_ids.append({"line": line, "kind": kind, "company_number": company_number})

    def merged(self, line: int, company_id: str, into_line: int) -> None:
        """Count and list a line merged into the company of an earlier line with the same id."""
        self.count("merged", line, f"merged into line {into_line}'s {company_id}")
        if len(self.merges) < _LISTED:
            self.merges.append({"line": line, "id": company_id, "into_line": into_line})

    def kept_apart(self, line: int, company_id: str, new_id: str, first_line: int, name: str) -> None:
        """Count and list a different company kept apart under ``new_id`` from line ``first_line``'s."""
        self.count("kept_apart", line, f"{company_id} is line {first_line}'s; this company is {new_id}")
        if len(self.apart) < _LISTED:
            self.apart.append(
                {"line": line, "id": new_id, "shares": company_id, "first_line": first_line, "name": name}
            )

    def imported_lines(self) -> int:
        """Lines that became companies or were merged into one (known before the merge writes the world)."""
        return self.lines - self.skipped

    @property
    def skipped(self) -> int:
        """Lines not imported."""
        return sum(self.counts[k] for k in SKIPPED_KINDS)

    def as_dict(self) -> dict[str, Any]:
        """The report as ``import-report.json`` holds it (deterministic: no times, no paths)."""
        return {
            "source": self.source,
            "lines": self.lines,
            "imported": self.imported,
            "skipped": {k: self.counts[k] for k in SKIPPED_KINDS},
            "warnings": {k: self.counts[k] for k in WARNING_KINDS},
            "kinds": KIND_TEXTS,
            "samples": {
                k: self.samples[k] for k in (*SKIPPED_KINDS, *SHARED_ID_KINDS, *WARNING_KINDS) if k in self.samples
            },
            "unformed_ids": self.unformed_ids,
            "merged": {"lines": self.counts["merged"], "listed": self.merges},
            "kept_apart": {"lines": self.counts["kept_apart"], "listed": self.apart},
            "derived": dict(sorted(self.derived.items())),
            "company_officers": {
                "total": self.company_officers,
                "linked": self.linked_company_officers,
            },
        }

    def summary(self) -> str:
        """One paragraph for the terminal."""
        parts = [f"{self.lines:,} lines: {self.imported:,} companies imported"]
        if self.counts["merged"]:
            parts[0] += f" ({self.counts['merged']:,} lines merged into them)"
        if self.counts["kept_apart"]:
            parts.append(f"{self.counts['kept_apart']:,} kept apart under a new id")
        parts += [f"{self.counts[k]:,} {k}" for k in SKIPPED_KINDS if self.counts[k]]
        warnings = [f"{self.counts[k]:,} {k}" for k in WARNING_KINDS if self.counts[k]]
        text = ", ".join(parts)
        return text + (f" (warnings: {', '.join(warnings)})" if warnings else "")
