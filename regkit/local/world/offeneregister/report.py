"""The import report: every line of the source imported or counted by kind, with samples and lists.

``import-report.json`` beside the world holds :meth:`ImportReport.as_dict`. Kinds of lines that are *not*
imported (:data:`SKIPPED_KINDS`) add up with the imported ones to the lines read; warnings
(:data:`WARNING_KINDS`) are about records that were imported all the same.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

__all__ = ["ImportReport", "SKIPPED_KINDS", "WARNING_KINDS", "KIND_TEXTS"]

#: A line of these kinds is not imported.
SKIPPED_KINDS = ("not_json", "not_a_record", "no_register_number", "unknown_court", "id_collision")
#: An import with these is complete nonetheless (``truncated_file``: the lines after the cut are missing).
WARNING_KINDS = ("truncated_file", "unknown_position", "court_mismatch")
KIND_TEXTS = {
    "not_json": "a line that is not JSON",
    "not_a_record": "a JSON line that is not a register record (no all_attributes or no name)",
    "no_register_number": "a record without a register type and number (no company id can be formed)",
    "unknown_court": "a record whose register court is in none of the bundled court lists",
    "id_collision": "a record whose company id an earlier line of the file already has",
    "truncated_file": "the file ends early (a cut download): the lines after the cut are missing",
    "unknown_position": "an officer whose position text names no known role (kept, with role OTHER)",
    "court_mismatch": "the court named differs from the code in company_number (the name is used)",
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
    collisions: list[dict[str, Any]] = field(default_factory=list)
    derived: Counter[str] = field(default_factory=Counter)
    linked_company_officers: int = 0
    company_officers: int = 0

    def count(self, kind: str, line: int, detail: str, text: bytes | str = b"") -> None:
        """Count one ``kind`` at ``line``, keeping the first few as samples."""
        self.counts[kind] += 1
        samples = self.samples.setdefault(kind, [])
        if len(samples) < _SAMPLES:
            excerpt = text.decode("utf-8", "replace") if isinstance(text, bytes) else text
            samples.append({"line": line, "detail": detail, "excerpt": excerpt[:300]})

    def unformed(self, line: int, kind: str, company_number: str) -> None:
        """List a line whose company id could not be formed."""
        if len(self.unformed_ids) < _LISTED:
            self.unformed_ids.append({"line": line, "kind": kind, "company_number": company_number})

    def collided(self, line: int, company_id: str, first_line: int) -> None:
        """Count and list a line whose id an earlier line already had."""
        self.count("id_collision", line, f"{company_id} is already line {first_line}'s")
        if len(self.collisions) < _LISTED:
            self.collisions.append({"line": line, "id": company_id, "first_line": first_line})

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
            "samples": {k: self.samples[k] for k in (*SKIPPED_KINDS, *WARNING_KINDS) if k in self.samples},
            "unformed_ids": self.unformed_ids,
            "collisions": self.collisions,
            "derived": dict(sorted(self.derived.items())),
            "company_officers": {
                "total": self.company_officers,
                "linked": self.linked_company_officers,
            },
        }

    def summary(self) -> str:
        """One paragraph for the terminal."""
        parts = [f"{self.lines:,} lines: {self.imported:,} companies imported"]
        parts += [f"{self.counts[k]:,} {k}" for k in SKIPPED_KINDS if self.counts[k]]
        warnings = [f"{self.counts[k]:,} {k}" for k in WARNING_KINDS if self.counts[k]]
        text = ", ".join(parts)
        return text + (f" (warnings: {', '.join(warnings)})" if warnings else "")
