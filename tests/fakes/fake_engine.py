#!/usr/bin/env python3
"""A scripted xiangqi engine for testing the match runner: speaks UCCI, UCI or xboard minimally, plays a
deterministic legal move (chosen with pyffish), and misbehaves on request once the game has reached a given
ply:

    fake_engine.py --proto ucci|uci|xboard [--fault none|illegal|hang|crash|slow|resign|garbage]
                   [--at PLY] [--name NAME] [--no-setboard] [--he-only] [--startup-delay S] [--score CP]

--he-only (xboard): setboard FENs must write horse and elephant as H/E, as Sjaak II wants; N/B get Sjaak II's
"Error: unknown piece type" and "tellusererror" lines and leave the position unchanged.
--fault refuse (xboard): answers the GUI's move with "Illegal move: MOVE" (and then waits, as engines do).

--score CP: the score its searches print (UCI/UCCI ``info ... score cp CP``, xboard thinking output), 0 unless
given (the referee adjudicates by scores when asked to).
--at PLY: the fault happens on the first request to move in a position with at least PLY plies played in the
game (counted from the game's start position), so it recurs in every game and survives restarts.
"""
import argparse
import sys
import time

import pyffish

VARIANT = "xiangqi"
START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"


def to_ffish(m):      # ICCS h2e2 -> pyffish h3e3
    return f"{m[0]}{int(m[1]) + 1}{m[2]}{int(m[3]) + 1}"


def from_ffish(m):
    f1, rest = m[0], m[1:]
    i = 1
    while rest[i].isdigit():
        i += 1
    return f"{f1}{int(rest[:i]) - 1}{rest[i]}{int(rest[i + 1:]) - 1}"


class Game:
    def __init__(self):
        self.fen, self.moves = START, []          # moves in ICCS

    def legal(self):
        return sorted(from_ffish(m) for m in pyffish.legal_moves(VARIANT, self.fen,
                                                                 [to_ffish(m) for m in self.moves]))

    def choose(self):
        moves = self.legal()
        return moves[(len(self.moves) * 7 + 3) % len(moves)] if moves else None

    def illegal(self):
        """A well-formed move of one of our own pieces that is not legal (a plausible-looking bug)."""
        legal = set(self.legal())
        fen = pyffish.get_fen(VARIANT, self.fen, [to_ffish(m) for m in self.moves])
        rows, red = fen.split()[0].split("/"), fen.split()[1] == "w"
        for i, row in enumerate(rows):
            col = 0
            for c in row:
                if c.isdigit():
                    col += int(c)
                    continue
                if c.isupper() == red:
                    frm = f"{'abcdefghi'[col]}{9 - i}"
                    for to_rank in range(10):
                        for to_file in "abcdefghi":
                            m = f"{frm}{to_file}{to_rank}"
                            if frm != m[2:] and m not in legal:
                                return m
                col += 1
        return "a0a1"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--proto", choices=("ucci", "uci", "xboard"), required=True)
    ap.add_argument("--fault", default="none",
                    choices=("none", "illegal", "hang", "crash", "slow", "resign", "garbage", "refuse"))
    ap.add_argument("--at", type=int, default=0)
    ap.add_argument("--name", default=None)
    ap.add_argument("--no-setboard", action="store_true")
    ap.add_argument("--he-only", action="store_true")
    ap.add_argument("--startup-delay", type=float, default=0.0)
    ap.add_argument("--score", type=int, default=0)
    args = ap.parse_args()
    name = args.name or f"Fake-{args.proto}-{args.fault}"
    time.sleep(args.startup_delay)
    game = Game()
    state = {"movetime": 0.2, "force": True}

    def out(line):
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def think():
        """Returns the reply line, or None for 'say nothing'."""
        faulty = args.fault != "none" and len(game.moves) >= args.at
        if faulty and args.fault == "crash":
            sys.exit(3)
        if faulty and args.fault == "hang":
            return None
        if faulty and args.fault == "slow":
            time.sleep(state["movetime"] * 3 + 0.3)
        if faulty and args.fault == "resign":
            return "resign"
        move = game.illegal() if faulty and args.fault == "illegal" else game.choose()
        if faulty and args.fault == "garbage":
            move = "xyzzy"
        return move

    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        cmd = words[0]
        if args.proto in ("ucci", "uci"):
            if cmd == args.proto:
                out(f"id name {name}")
                if args.proto == "ucci":
                    out("option usemillisec type check default false")
                out(f"{args.proto}ok")
            elif cmd == "isready":
                out("readyok")
            elif cmd == "position":
                rest = raw.split(None, 1)[1].strip()
                head, _, moves = rest.partition(" moves ")
                if rest.endswith(" moves"):
                    head, moves = rest[:-6], ""
                game.fen = START if head.startswith("startpos") else head[len("fen "):].strip()
                game.moves = moves.split()
            elif cmd == "go":
                if "movetime" in words:
                    state["movetime"] = int(words[words.index("movetime") + 1]) / 1000
                reply = think()
                if reply == "resign":
                    out("nobestmove" if args.proto == "ucci" else "bestmove (none)")
                elif reply is not None:
                    out(f"info depth 1 score cp {args.score} nodes 1 pv {reply}")
                    out(f"bestmove {reply}")
            elif cmd == "quit":
                if args.proto == "ucci":
                    out("bye")
                return
            elif cmd not in ("setoption", "ucinewgame", "stop"):
                out(f"Unknown command: {raw.strip()}")
        else:
            if cmd == "protover":
                feats = f'myname="{name}" ping=1 usermove=1 variants="xiangqi" sigint=0'
                feats += " setboard=0" if args.no_setboard else " setboard=1"
                out(f"feature {feats}")
                out("feature done=1")
            elif cmd == "ping":
                out(f"pong {words[1]}")
            elif cmd == "new":
                game.fen, game.moves, state["force"] = START, [], False
            elif cmd == "setboard":
                fen = raw.split(None, 1)[1].strip()
                board = fen.split()[0]
                if args.he_only and any(c in "NBnb" for c in board):
                    bad = next(c for c in board if c in "NBnb")
                    out(f"Error: unknown piece type '{bad.lower()}' (bad FEN {fen})")
                    out(f"tellusererror unknown piece type '{bad.lower()}' (bad FEN {fen})")
                    continue
                if args.he_only:
                    fen = board.translate(str.maketrans("HEhe", "NBnb")) + fen[len(board):]
                game.fen, game.moves = fen, []
            elif cmd == "force":
                state["force"] = True
            elif cmd == "st":
                state["movetime"] = float(words[1])
            elif cmd == "usermove":
                if args.fault == "refuse" and len(game.moves) >= args.at:
                    out(f"Illegal move: {words[1]}")
                    continue
                game.moves.append(words[1])
                if not state["force"]:
                    cmd = "go"
            elif cmd == "quit":
                return
            elif cmd not in ("xboard", "accepted", "rejected", "variant", "level", "time", "otim", "post",
                             "nopost", "easy", "hard", "?", "go", "option", "random", "computer"):
                out(f"Error (unknown command): {raw.strip()}")
            if cmd == "go":
                state["force"] = False
                reply = think()
                if reply == "resign":
                    out("resign")
                elif reply is not None:
                    out(f"1 {args.score} 0 1 {reply}")          # thinking output: depth score time nodes pv
                    out(f"move {reply}")
                    game.moves.append(reply)


if __name__ == "__main__":
    main()
