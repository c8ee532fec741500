"""The local register: the regkit interface served over a bundled synthetic world.

The same Flask (WSGI) application runs in-process behind :class:`LocalRegisterAdapter` (mounted at the
fixed pseudo-origin :data:`LOCAL_ORIGIN`) or as a real HTTP server (``regkit serve``,
:class:`LocalServer`). Names are imported lazily so that ``import regkit.local.world`` does not pull in
Flask.

Inside ``regkit.local`` imports point one way, down this list (lazy and ``TYPE_CHECKING`` imports too): a part
imports only the parts below it, never one above it or beside it on its line.

1. ``__main__``, then :mod:`~regkit.local.cli`: ``python -m regkit.local``, ``regkit serve`` and the admin
   commands;
2. :mod:`~regkit.local.register` | :mod:`~regkit.local.server`: the register in-process, or over HTTP;
3. :mod:`~regkit.local.adapter` | :mod:`~regkit.local.app`: the in-process transport; the Flask application;
4. :mod:`~regkit.local.urls`: the routes;
5. :mod:`regkit.local.responses`: the HTTP handlers, one module per resource;
6. :mod:`~regkit.local.context`: the backend an application opens (catalog, state, signer, vault, limits);
7. :mod:`regkit.local.models`: the rules and the state, one module per resource, over the world and its
   searches;
8. :mod:`regkit.local.world`: the world — its files, the generator, the OffeneRegister import — and its store
   (:mod:`regkit.local.world.world_store`: the records and the search indexes built with them);
9. :mod:`regkit.local.search`: the search indexes and search requests, over records as plain dicts (nothing of
   the world's files or its store);
10. the shared helpers: :mod:`~regkit.local.faults` | :mod:`~regkit.local.ratelimit` | :mod:`~regkit.local.vault`
    | :mod:`~regkit.local.signing` | :mod:`~regkit.local.origin`, then :mod:`~regkit.local.logs` |
    :mod:`~regkit.local.config` | :mod:`~regkit.local.record_codec`, then :mod:`~regkit.local.json_lines` |
    :mod:`~regkit.local.exceptions`.

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
