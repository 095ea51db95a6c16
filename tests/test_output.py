"""The protocol's output never makes the one who speaks wait for the reader: a GUI (or a match referee) slow to
empty a full pipe once held the search thread inside the pipe's write, past its move's hard limit."""
import os
import threading

from engine.protocol.loop import Output

ANSWERS = 200              # lines of 5 KB: 1 MB, sixteen times Linux's default pipe capacity


def test_a_full_pipe_holds_no_speaker_and_loses_no_answer():
    r, w = os.pipe()
    out = Output(os.fdopen(w, "w"))
    answers = [f"answer {i:06d} " + "x" * 5000 for i in range(ANSWERS)]       # nobody reading yet
    speaker = threading.Thread(target=lambda: [out.line(a) for a in answers]
                               + [out.lines([f"info {i}"], droppable=True) for i in range(3000)], daemon=True)
    speaker.start()
    speaker.join(10)
    assert not speaker.is_alive()                     # said it all while the pipe was full
    assert 0 < out.dropped < 3000                     # progress dropped once MAX_BEHIND lines were waiting
    out.line("bestmove e2e4")
    received = []
    reader = threading.Thread(target=lambda: received.extend(iter(lambda: os.read(r, 1 << 16), b"")), daemon=True)
    reader.start()
    assert out.drain(10)
    os.close(w)
    reader.join(10)
    lines = b"".join(received).decode().splitlines()
    assert lines[:ANSWERS] == answers                 # every answer, in order ...
    assert lines[ANSWERS:-1] == [f"info {i}" for i in range(3000 - out.dropped)]
    assert lines[-1] == "bestmove e2e4"               # ... and the move after them


def test_a_closed_pipe_is_remembered_not_raised():
    r, w = os.pipe()
    os.close(r)
    out = Output(os.fdopen(w, "w"))
    out.line("id name Shuai")
    assert out.drain(10)
    assert out.broken
    out.line("readyok")                               # nothing raised, nothing waits
    assert out.drain(10)
