"""Records compressed one at a time with Zstandard and a dictionary (the world store's records, the search results)."""

from __future__ import annotations

import gzip
import itertools
import os
import threading
from collections.abc import Iterable
from typing import Any

import zstandard

from .json_lines import load_line

__all__ = ["RecordCodec"]

_DICTIONARY_MAGIC = b"\x37\xa4\x30\xec"  # a trained Zstandard dictionary starts with it (little-endian 0xEC30A437)


class RecordCodec:
    """Records as Zstandard frames with a dictionary trained on the first records of the same kind.

    A record is a kilobyte or so of JSON whose keys and common values repeat in every record; compressed alone,
    it shrinks little, but with a dictionary trained on a few thousand records
    (:func:`zstandard.train_dictionary`) the keys and common values are in the dictionary, not in each record (the
    tests hold a record under a quarter of its JSON). The world store and the company search index keep their
    dictionary beside the records, so a file reads back without anything else.

    Compressing and decompressing are safe from several threads (each thread has its own contexts; the digested
    dictionary is shared, read-only).

    Parameters
    ----------
    dictionary : bytes
        A trained Zstandard dictionary, or raw bytes used as one (a world too small to train on); empty: no
        dictionary.
    """

    #: The size of a trained dictionary, bytes.
    SIZE = 65_536
    #: How many records (at most) train the dictionary, and how many bytes of them (the line that reaches it
    #: included): training takes about 0.2 s.
    SAMPLES = 5_000
    SAMPLE_BYTES = 4 << 20
    #: The compression level (Zstandard's default; level 1 is no faster on records this small).
    LEVEL = 3

    def __init__(self, dictionary: bytes = b""):
        self.dictionary = bytes(dictionary)
        self._digested: zstandard.ZstdCompressionDict | None = None
        if self.dictionary:
            kind = (
                zstandard.DICT_TYPE_FULLDICT
                if self.dictionary[:4] == _DICTIONARY_MAGIC
                else zstandard.DICT_TYPE_RAWCONTENT
            )
            self._digested = zstandard.ZstdCompressionDict(self.dictionary, dict_type=kind)
            self._digested.precompute_compress(level=self.LEVEL)
        self._contexts = threading.local()

    @classmethod
    def sample(cls, lines: Iterable[bytes]) -> RecordCodec:
        """A codec with a dictionary trained on the first of ``lines`` (up to :data:`SAMPLES` lines and
        :data:`SAMPLE_BYTES` bytes): the same lines give the same dictionary. Too few lines to train on (a small
        world): their bytes are the dictionary."""
        samples: list[bytes | bytearray | memoryview] = []
        size = 0
        for line in itertools.islice(lines, cls.SAMPLES):
            line = line.strip()
            if not line:
                continue
            samples.append(line)
            size += len(line)
            if size >= cls.SAMPLE_BYTES:
                break
        if not samples:
            return cls()
        try:
            trained = zstandard.train_dictionary(cls.SIZE, samples, level=cls.LEVEL)
        except zstandard.ZstdError:  # too little to train on: use the records themselves
            return cls(b"\n".join(bytes(s) for s in samples)[-cls.SIZE :])
        return cls(trained.as_bytes())

    @classmethod
    def sample_file(cls, path: str | os.PathLike[str]) -> RecordCodec:
        """A codec trained on the first lines of the ``.jsonl.gz`` file ``path``."""
        with gzip.open(path, "rb") as handle:
            return cls.sample(handle)

    def _compressor(self) -> zstandard.ZstdCompressor:
        compressor: zstandard.ZstdCompressor | None = getattr(self._contexts, "compressor", None)
        if compressor is None:
            compressor = zstandard.ZstdCompressor(
                level=self.LEVEL, dict_data=self._digested, write_checksum=False, write_dict_id=False
            )
            self._contexts.compressor = compressor
        return compressor

    def _decompressor(self) -> zstandard.ZstdDecompressor:
        decompressor: zstandard.ZstdDecompressor | None = getattr(self._contexts, "decompressor", None)
        if decompressor is None:
            decompressor = zstandard.ZstdDecompressor(dict_data=self._digested)
            self._contexts.decompressor = decompressor
        return decompressor

    def encode(self, line: bytes) -> bytes:
        """``line`` compressed."""
        return self._compressor().compress(line)

    def decode_bytes(self, blob: bytes) -> bytes:
        """The line ``blob`` holds."""
        return self._decompressor().decompress(blob)

    def decode(self, blob: bytes) -> dict[str, Any]:
        """The record ``blob`` holds."""
        result: dict[str, Any] = load_line(self.decode_bytes(blob))
        return result
