"""``python -m regkit``: the same as the ``regkit`` command."""

import sys

from regkit.cli import main

if __name__ == "__main__":
    sys.exit(main())
