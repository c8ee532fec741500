"""The records' codec (Zstandard with a trained dictionary) and the fast JSON lines beside it."""

from __future__ import annotations

import gzip
import json
import math
import threading
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from regkit.local.json_lines import dump_line_bytes, dump_text, load_line
from regkit.local.record_codec import RecordCodec
from regkit.local.world.store import default_data_dir

_SCALARS = st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.text()
_NO_FLOATS = st.recursive(
    _SCALARS,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(), children, max_size=4),
    max_leaves=20,
)
_FINITE = st.recursive(
    _SCALARS | st.floats(allow_nan=False, allow_infinity=False),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(), children, max_size=4),
    max_leaves=20,
)


def _standard(value: object) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogatepass")


@settings(max_examples=300, deadline=None)
@given(_NO_FLOATS)
def test_a_value_without_floats_is_written_byte_for_byte_as_the_standard_library_writes_it(value: object) -> None:
    assert dump_line_bytes(value) == _standard(value)
    assert dump_text(value).encode("utf-8", "surrogatepass") == _standard(value)


@settings(max_examples=300, deadline=None)
@given(_FINITE)
def test_any_finite_value_reads_back_as_the_same_value(value: object) -> None:
    assert load_line(dump_line_bytes(value)) == json.loads(_standard(value)) == value


@pytest.mark.parametrize(
    "line",
    [b"NaN", b"[1e400, -1e400]", b'"\\ud800"', b"18446744073709551615", b'{"a":1,"a":2}', '"Köln"'],
)
def test_lines_orjson_refuses_read_as_the_standard_library_reads_them(line: bytes | str) -> None:
    found, expected = load_line(line), json.loads(line)
    if isinstance(expected, float) and math.isnan(expected):
        assert math.isnan(found)
    else:
        assert found == expected


def test_a_line_that_is_not_json_raises_value_error() -> None:
    with pytest.raises(ValueError):
        load_line(b'{"id": ')


def test_what_orjson_cannot_write_falls_back_to_the_standard_library() -> None:
    for value in ({1: "a"}, 2**70, "\ud800"):
        assert dump_line_bytes(value) == _standard(value)


def _bundled_lines() -> list[bytes]:
    with gzip.open(default_data_dir() / "companies.jsonl.gz", "rb") as handle:
        return [line.strip() for line in handle if line.strip()]


def test_records_read_back_from_a_codec_rebuilt_from_its_dictionary_alone() -> None:
    lines = _bundled_lines()
    codec = RecordCodec.sample(lines)
    reopened = RecordCodec(codec.dictionary)
    for line in lines[-300:]:
        blob = codec.encode(line)
        assert reopened.decode_bytes(blob) == line
        assert reopened.decode(blob) == json.loads(line)
    assert sum(len(codec.encode(line)) for line in lines[-300:]) < 0.3 * sum(len(line) for line in lines[-300:])


def test_a_world_too_small_to_train_on_and_an_empty_one_still_compress() -> None:
    small = RecordCodec.sample([b'{"id":"DE-HRB-F1103-1"}', b'{"id":"DE-HRB-F1103-2"}'])
    assert small.dictionary == b'{"id":"DE-HRB-F1103-1"}\n{"id":"DE-HRB-F1103-2"}'  # the lines themselves
    assert small.decode(small.encode(b'{"id":"DE-HRB-F1103-3"}')) == {"id": "DE-HRB-F1103-3"}
    empty = RecordCodec.sample([])
    assert empty.dictionary == b"" and empty.decode(empty.encode(b"[1,2]")) == [1, 2]


def test_one_codec_decodes_from_many_threads_at_once(tmp_path: Path) -> None:
    """The register reads records from its worker threads through one codec: each thread gets its own
    Zstandard contexts, so concurrent reads never see another's bytes."""
    lines = _bundled_lines()
    codec = RecordCodec.sample(lines[:500])
    blobs = [(codec.encode(line), line) for line in lines[:2000]]
    wrong: list[int] = []
    start = threading.Barrier(8)

    def read(offset: int) -> None:
        start.wait()
        for index in range(offset, len(blobs), 3):
            blob, line = blobs[index]
            if codec.decode_bytes(blob) != line or codec.decode_bytes(codec.encode(line)) != line:
                wrong.append(index)

    threads = [threading.Thread(target=read, args=(i % 3,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert wrong == []
