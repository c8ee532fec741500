"""Who a representative is: one key per person, the same in ``representatives()`` and in the group graph.

The rule — an id where the interface gives one, else a key derived from the folded name and the date of birth —
is :mod:`regkit.schema.identity`'s, below every layer, so the local register's change events use it too; this
module gives the frames and the graph its names.
"""

from __future__ import annotations

from regkit.schema.identity import is_company_id, legal_key, name_key, normalise, person_key

__all__ = ["is_company_id", "legal_key", "name_key", "normalise", "person_key"]
