"""Fetching many answers at once: bulk company lookups (:mod:`~regkit.client.bulk.fetcher`), paging through a
search (:mod:`~regkit.client.bulk.paging`), saving documents into a directory
(:mod:`~regkit.client.bulk.downloads`) and writing the cache out as Parquet (:mod:`~regkit.client.bulk.export`)."""

__all__: list[str] = []
