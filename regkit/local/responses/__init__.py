"""The handlers of the local register's endpoints, one module per resource (the routes: :mod:`regkit.local.urls`).

A handler checks the plan first (the user's ``require_paid`` / ``require_monitoring``, before anything is
read), then reads and checks the HTTP request — path, query, headers, JSON body: the 400s, in the order the
interface documents — calls the model function of its own name in :mod:`regkit.local.models` with plain,
well-formed values, records what that charged (``X-Credits-Charged`` / ``X-Credits-Remaining``) and builds
the answer. The register's state and its rules (existence, conflicts, quotas, credits) are the models';
no handler holds SQL.
"""

__all__: list[str] = []
