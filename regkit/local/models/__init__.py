"""The models of the local register: its state and its rules, one module per resource, no HTTP.

Model functions take the register's backend (:class:`~regkit.local.models.backend.RegisterContext`), the
authenticated :class:`~regkit.local.models.users.User` and plain values that the handlers have checked for
form (the 400s); they apply the rules — existence (404), conflicts (409), the Transparenzregister login
(401/403), quotas (429), credits (402) — and return plain values (a metered call returns them as
:class:`~regkit.local.models.credits.Charged`) or raise :class:`~regkit.local.exceptions.ApiError` with the
interface's error code. Each endpoint's handler in :mod:`regkit.local.responses` calls the model function of
its own name (``create_monitor`` → :func:`regkit.local.models.monitors.create_monitor`). Nothing here imports
Flask, werkzeug or the responses.
"""

__all__: list[str] = []
