"""``python -m regkit.client.cli``: the client's commands on their own (:func:`regkit.client.cli.commands.main`)."""

import sys

from .commands import main

if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
