"""The one rule for reading files the engine did not write (engine/files.py, issue 29)."""
import os
import time

import pytest

from engine.files import UnreadableFile, clip, read_bytes, read_text


def test_a_regular_file_is_read_whole_and_decoded_leniently(tmp_path):
    path = tmp_path / "a.pgn"
    path.write_bytes(b"\xef\xbb\xbf1. h2e2 \xff h9g7\n")
    assert read_bytes(path, 100) == path.read_bytes()
    assert read_text(path) == "1. h2e2 \ufffd h9g7\n"


@pytest.mark.parametrize("make, says", [
    (lambda p: None, "missing"),
    (lambda p: p.mkdir(), "a directory, not a regular file"),
    (lambda p: os.mkfifo(p), "a FIFO, not a regular file"),
])
def test_what_is_not_a_regular_file_is_one_error_at_once(tmp_path, make, says):
    path = tmp_path / "KRvK.xtb"
    make(path)
    t0 = time.monotonic()
    with pytest.raises(UnreadableFile) as e:
        read_bytes(path, 1000)
    assert time.monotonic() - t0 < 1.0                  # a FIFO with no writer does not block
    assert str(e.value) == f"{path}: {says}" and "\n" not in str(e.value)


def test_devices_and_files_beyond_the_limit_are_refused_before_reading():
    with pytest.raises(UnreadableFile, match=r"^/dev/zero: a device or socket, not a regular file$"):
        read_bytes("/dev/zero", 1000)


def test_a_file_over_the_limit_is_refused(tmp_path):
    path = tmp_path / "big.epd"
    path.write_bytes(b"x" * 1001)
    with pytest.raises(UnreadableFile, match=r"too large \(1,001 bytes, at most 1,000\)"):
        read_bytes(path, 1000)
    assert len(read_bytes(path, 1001)) == 1001


def test_clip_bounds_and_escapes_what_an_error_echoes():
    assert clip("e2e4") == "e2e4"
    assert clip("{ " * 1000, 20) == "{ { { { { { { { {..."
    assert clip("a\nb\x00c") == "a\\nb\\x00c"
    assert len(clip("\x01" * 100, 30)) == 30
