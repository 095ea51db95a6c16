"""Move generation against independent oracles: pyffish (Fairy-Stockfish's rules) and brute force."""
import numpy as np
import pyffish

from conftest import ffish_to_iccs
from engine.xiangqi.board import (BLACK_BIT, KING, PAWN, ROOK, ST_SIDE, make_move, unmake_move, compute_key)
from engine.xiangqi.movegen import (GEN_ALL, GEN_CAPTURES, GEN_QUIETS, generate, generate_legal, gives_check,
                                    in_check, is_attacked, has_legal_move, move_buffer)
from engine.xiangqi.notation import move_name
from engine.xiangqi.position import Position


def test_legal_moves_equal_pyffish(positions_2500):
    assert len(positions_2500) >= 2000
    checks = captures = 0
    for fen in positions_2500:
        pos = Position(fen)
        ours = sorted(pos.legal_move_names())
        theirs = sorted(ffish_to_iccs(m) for m in pyffish.legal_moves("xiangqi", fen, []))
        assert ours == theirs, fen
        checks += pos.in_check()
        captures += any(pos.board[m & 127] for m in pos.legal_moves())
    # The sample must exercise the hard cases, not just quiet openings.
    assert checks > 50 and captures > 1000


def test_check_detection_equals_pyffish(positions_2500):
    for fen in positions_2500[::5]:
        assert Position(fen).in_check() == pyffish.gives_check("xiangqi", fen, []), fen


def test_capture_and_quiet_generators_partition_the_moves(positions_2500):
    buf = move_buffer()
    for fen in positions_2500[::3]:
        pos = Position(fen)
        side = pos.side
        everything = set(buf[:generate(pos.board, side, buf, GEN_ALL)].tolist())
        caps = set(buf[:generate(pos.board, side, buf, GEN_CAPTURES)].tolist())
        quiets = set(buf[:generate(pos.board, side, buf, GEN_QUIETS)].tolist())
        assert caps | quiets == everything and not caps & quiets
        assert all(pos.board[m & 127] != 0 for m in caps) and all(pos.board[m & 127] == 0 for m in quiets)
        legal_caps = set(buf[:generate_legal(pos.board, pos.st, buf, GEN_CAPTURES)].tolist())
        assert legal_caps == {m for m in pos.legal_moves() if pos.board[m & 127]}


def test_gives_check_and_make_unmake(positions_2500):
    for fen in positions_2500[::7]:
        pos = Position(fen)
        key, board = pos.key, pos.board.copy()
        for m in pos.legal_moves():
            predicted = gives_check(pos.board, pos.st, m)
            make_move(*pos.arrays, m)
            assert predicted == in_check(pos.board, pos.st), (fen, move_name(m))
            # The incremental key must equal the key computed from scratch.
            assert pos.keys[pos.ply, 0] == compute_key(pos.board, pos.side)[0]
            assert pos.keys[pos.ply, 1] == compute_key(pos.board, pos.side)[1]
            unmake_move(pos.board, pos.st, pos.hist)
        assert pos.key == key and (pos.board == board).all()


def test_is_attacked_equals_brute_force(positions_2500):
    """A square is attacked by a side iff that side has a pseudo-legal capture onto an enemy piece put there."""
    buf = move_buffer()
    for fen in positions_2500[::25]:
        board = Position(fen).board.copy()
        for by in (0, 1):
            for sq in range(90):
                if board[sq] and (board[sq] >> 3) == by:
                    continue
                saved = board[sq]
                if not saved:
                    board[sq] = (by ^ 1) * BLACK_BIT + PAWN
                n = generate(board, by, buf, GEN_CAPTURES)
                brute = any((m & 127) == sq for m in buf[:n])
                if (board[sq] & 7) == KING:      # the flying general: generals facing on an open file
                    k = int(np.flatnonzero(board == by * BLACK_BIT + KING)[0])
                    between = range(min(k, sq) + 9, max(k, sq), 9)
                    brute |= k % 9 == sq % 9 and not any(board[s] for s in between)
                assert is_attacked(board, sq, by) == brute, (fen, sq, by)
                board[sq] = saved


def test_flying_general_and_no_legal_move():
    # The advisor on e1 is all that stands between the generals: it may not move, and the general may not
    # step back onto the open file.
    pos = Position("4k4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1")
    assert sorted(pos.legal_move_names()) == ["e0d0", "e0f0"]
    # Red's general on d0: d1 is covered by the rook on a1, e0 by the rook on e7. Not in check, yet no legal
    # move -- in xiangqi that loses (there is no stalemate draw).
    stalemate = Position("5k3/9/4r4/9/9/9/9/9/r8/3K5 w - - 0 1")
    assert stalemate.legal_moves() == [] and not stalemate.in_check()
    assert not has_legal_move(stalemate.board, stalemate.st, move_buffer())
    assert pyffish.legal_moves("xiangqi", stalemate.fen(), []) == []


def test_piece_rules_by_example():
    # Horse leg: h0's horse with g0 empty... use a bare board for exact lists.
    pos = Position("4k4/9/9/9/9/9/9/9/9/3K2N2 w - - 0 1")          # horse g0, general d0
    assert sorted(m for m in pos.legal_move_names() if m.startswith("g0")) == ["g0e1", "g0f2", "g0h2", "g0i1"]
    blocked = Position("4k4/9/9/9/9/9/9/9/6R2/3K2N2 w - - 0 1")   # a piece on g1 blocks the upward leg
    assert sorted(m for m in blocked.legal_move_names() if m.startswith("g0")) == ["g0e1", "g0i1"]
    # Elephants never cross the river and are blocked by a piece on the eye.
    pos = Position("4k4/9/9/9/9/2B6/9/9/9/3K5 w - - 0 1")         # elephant c4 (red's side)
    assert sorted(m for m in pos.legal_move_names() if m.startswith("c4")) == ["c4a2", "c4e2"]
    # A pawn moves sideways only once it has crossed the river.
    pos = Position("4k4/9/9/9/9/4P4/9/9/9/3K5 w - - 0 1")          # pawn e4: before the river
    assert [m for m in pos.legal_move_names() if m.startswith("e4")] == ["e4e5"]
    pos = Position("4k4/9/9/9/4P4/9/9/9/9/3K5 w - - 0 1")          # pawn e5: across
    assert sorted(m for m in pos.legal_move_names() if m.startswith("e5")) == ["e5d5", "e5e6", "e5f5"]
    # A cannon needs exactly one screen to capture.
    pos = Position("4k4/9/9/9/9/4p4/9/4p4/9/3KC4 w - - 0 1")
    caps = [m for m in pos.legal_moves() if pos.board[m & 127]]
    assert {move_name(m) for m in caps} == {"e0e4"}
