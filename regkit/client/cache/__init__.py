"""The client's cache: where it lives and the ``client.cache`` handle (:mod:`~regkit.client.cache.client_cache`),
what is kept and for how long (:mod:`~regkit.client.cache.policy`), how an answer is written
(:mod:`~regkit.client.cache.format`), the answers in requests-cache (:mod:`~regkit.client.cache.store`), their
keys (:mod:`~regkit.client.cache.keys`), and a response body read as JSON once (:mod:`~regkit.client.cache.json_body`)."""

__all__: list[str] = []
