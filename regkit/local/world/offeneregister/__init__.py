"""Real companies as a world: ``regkit world import offeneregister`` (the OffeneRegister bulk data, CC BY 4.0).

:func:`import_offeneregister` streams the bulk file into a world directory in the JSON-lines format the local
register serves (``regkit serve --data DIR``, ``REGKIT_DATA_DIR=DIR``), with ``import-report.json`` and
``derived.jsonl.gz`` beside it. See :mod:`.mapping` for what is mapped and what is derived.
"""

from .importer import ATTRIBUTION, ImportedWorld, import_offeneregister
from .mapping import DERIVED_RULES, PERSON_NAMESPACE, ROLES, map_record, person_id
from .report import KIND_TEXTS, ImportReport

__all__ = [
    "ATTRIBUTION",
    "DERIVED_RULES",
    "ImportReport",
    "ImportedWorld",
    "KIND_TEXTS",
    "PERSON_NAMESPACE",
    "ROLES",
    "import_offeneregister",
    "map_record",
    "person_id",
]
