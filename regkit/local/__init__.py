"""The local register: the regkit interface served over a bundled synthetic world.

The same Flask (WSGI) application runs in-process behind :class:`LocalRegisterAdapter` (mounted at the
fixed pseudo-origin :data:`LOCAL_ORIGIN`) or as a real HTTP server (``regkit serve``,
:class:`LocalServer`). Names are imported lazily so that ``import regkit.local.world`` does not pull in
Flask.

Examples
--------
>>> from regkit.local import open_local_register           # doctest: +SKIP
>>> register = open_local_register(state_path="state.sqlite")  # doctest: +SKIP
>>> session = register.session(api_key="demo-paid")          # doctest: +SKIP
>>> session.get(f"{register.base_url}/v1/credits").json()    # doctest: +SKIP
"""

from __future__ import annotations

from regkit._lazy import lazy_exports

_HOMES = {
    "LOCAL_ORIGIN": "regkit.local.adapter",
    "LocalRegisterAdapter": "regkit.local.adapter",
    "Config": "regkit.local.config",
    "Faults": "regkit.local.faults",
    "LocalRegister": "regkit.local.register",
    "open_local_register": "regkit.local.register",
    "LocalServer": "regkit.local.server",
    "create_app": "regkit.local.app",
}


__all__, __getattr__, __dir__ = lazy_exports(__name__, _HOMES)
