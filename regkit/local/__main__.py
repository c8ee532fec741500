"""``python -m regkit.local serve|local ...``: the local register's commands on their own."""

import sys

from .cli import main

__all__: list[str] = []

sys.exit(main())
