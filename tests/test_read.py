"""The reader: encodings, line ends, escapes, hostile bytes. Every case ends in lines or an InputError."""

import codecs
import io

import pytest
from hypothesis import given, settings, strategies as st

from trtdoctor.read import MAX_LINE, InputError, chunks, decode_line

LOG = "[11/22/2026-10:00:00] [I] [TRT] start\n[11/22/2026-10:00:01] [E] [TRT] 4: kernel weights has count 2 but 1 was expected\n"


def lines_of(data: bytes, size: int = 1 << 20) -> list[str]:
    out = []
    for chunk in chunks(io.BytesIO(data), size=size):
        out.extend(decode_line(b) for b in chunk.data.split(b"\n")[:-1])
    return out


@pytest.mark.parametrize("encode", [
    lambda s: s.encode("utf-8"),
    lambda s: codecs.BOM_UTF8 + s.encode("utf-8"),
    lambda s: s.encode("utf-16"),                # with BOM, what PowerShell's '>' writes
    lambda s: s.encode("utf-16-le"),             # without BOM
    lambda s: s.encode("utf-16-be"),
    lambda s: s.replace("\n", "\r\n").encode(),  # Windows line ends
    lambda s: s.replace("\n", "\r").encode(),    # bare CR (progress output)
    lambda s: s.replace("[E]", "\x1b[31m[E]\x1b[0m").encode(),  # colour codes
])
def test_encodings_and_line_ends_give_the_same_lines(encode):
    assert lines_of(encode(LOG)) == LOG.splitlines()


def test_gbk_lines_decode():
    text = "[E] 模型转换失败: kernel weights has count 2 but 1 was expected\n"
    assert lines_of(text.encode("gbk")) == [text.rstrip("\n")]


def test_invalid_utf8_never_fails():
    data = b"ok line\n\xff\xfe\xfa broken \xc3\x28 bytes\n"
    out = lines_of(data)
    assert out[0] == "ok line" and "broken" in out[1]


def test_nul_bytes_inside_text_are_dropped():
    assert lines_of(b"abc\x00def\n" + b"x" * 5000 + b"\n") == ["abcdef", "x" * 5000]


@pytest.mark.parametrize("data,message", [(b"", "empty"), (b"   \n\n", "empty"),
                                          (bytes(range(256)) * 40, "binary"), (b"\x00" * 5000, "binary")])
def test_unreadable_inputs_raise_input_error(data, message):
    with pytest.raises(InputError, match=message):
        list(chunks(io.BytesIO(data)))


def test_chunks_end_on_line_boundaries_and_number_lines():
    data = b"".join(b"line %d\n" % i for i in range(1, 5001))
    seen = []
    for chunk in chunks(io.BytesIO(data), size=1000):
        assert chunk.data.endswith(b"\n")
        for offset, raw in enumerate(chunk.data.split(b"\n")[:-1]):
            assert raw == b"line %d" % (chunk.first_line + offset)
            seen.append(chunk.first_line + offset)
    assert seen == list(range(1, 5001))


def test_huge_single_line_is_cut_not_held_whole():
    data = b"start\n" + b"y" * (3 * MAX_LINE) + b"\nend\n"
    sizes = [len(c.data) for c in chunks(io.BytesIO(data), size=MAX_LINE // 2)]
    assert max(sizes) <= 2 * MAX_LINE
    assert b"".join(c.data for c in chunks(io.BytesIO(data), size=MAX_LINE // 2)) == data


def test_crlf_split_across_blocks_is_one_line_end():
    data = b"a" * 99 + b"\r\n" + b"b\r\n"
    assert lines_of(data, size=100) == ["a" * 99, "b"]


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=4000), st.integers(min_value=16, max_value=600))
def test_any_bytes_give_lines_or_input_error(data, size):
    try:
        out = b"".join(c.data for c in chunks(io.BytesIO(data), size=size))
    except InputError:
        return
    assert b"\r" not in out and b"\x00" not in out
    assert out.endswith(b"\n")


def test_only_terminal_control_sequences_is_empty_input():
    # Found by the property test above: a lone ESC @ left no line and no error.
    for data in (b"\x1b@", b"\x1b[0m\x1b[1;31m", b"\x1b]0;title\x07"):
        with pytest.raises(InputError, match="empty"):
            list(chunks(io.BytesIO(data), size=16))
    assert [c.data for c in chunks(io.BytesIO(b"\x1b@\n"), size=16)] == [b"\n"]
