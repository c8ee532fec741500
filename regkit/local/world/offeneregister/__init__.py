"""Real companies as a world: ``regkit world import offeneregister`` (the OffeneRegister bulk data, CC BY 4.0).

:func:`import_offeneregister` streams the bulk file into a world directory in the JSON-lines format the local
register serves (``regkit serve --data DIR``, ``REGKIT_DATA_DIR=DIR``), with ``import-report.json`` and
``derived.jsonl.gz`` beside it. See :mod:`.mapping` for what is mapped and what is derived.
"""

from pathlib import Path

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
    "sample_file",
]


def sample_file() -> Path:
    """The sample of the OffeneRegister bulk file that ships with regkit: 3,000 real records (CC BY 4.0,
    OffeneRegister / Open Knowledge Foundation Deutschland; ``NOTICE.md`` beside it says how it was cut).

    Examples
    --------
    >>> sample_file().name
    'sample.jsonl.bz2'
    """
    from regkit.local.world.store import bundled_data_dirs

    for directory in bundled_data_dirs():
        path = directory / "offeneregister" / "sample.jsonl.bz2"
        if path.is_file():
            return path
    raise FileNotFoundError("the OffeneRegister sample is not installed with this regkit (regkit/_data/offeneregister)")
