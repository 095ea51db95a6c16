"""Bitboards (numba): a uint64 per set of squares, bit ``sq`` for square ``sq`` (a1 = bit 0).

* ``lsb``/``popcount`` are the processor's own instructions (LLVM ``cttz``/``ctpop``), not loops or de Bruijn
  tables: move generation pops a bit per move.
* Leapers (knight, king, pawn captures) are looked up in tables of 64 attack sets.
* Sliders use "fancy" magic bitboards: the occupied squares on a piece's relevant rays, multiplied by a magic
  number and shifted, index that square's slice of one shared attack table.  The magic numbers are found at
  import by a seeded random search (a few milliseconds compiled), so they are this project's own and the same
  in every process.
* ``BETWEEN[a, b]`` holds the squares strictly between two aligned squares, ``LINE[a, b]`` the whole line
  through them (0 when not aligned): check evasions, pins and discovered checks are masks of these.

Arithmetic stays in uint64: numba turns ``uint64 op int64`` into float64, so every constant is a ``np.uint64``.
"""
import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core.extending import intrinsic

from .constants import NSQ, FILES

U64 = np.uint64
ZERO, ONE = U64(0), U64(1)
FULL = U64(0xFFFFFFFFFFFFFFFF)


@intrinsic
def _cttz(typingctx, x):
    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))
    return types.uint64(types.uint64), codegen


@intrinsic
def _ctpop(typingctx, x):
    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return types.uint64(types.uint64), codegen


@njit(cache=True, inline="always")
def lsb(b):
    """Index of the lowest set bit of ``b`` (b != 0)."""
    return np.int64(_cttz(b))


@njit(cache=True, inline="always")
def popcount(b):
    return np.int64(_ctpop(b))


@njit(cache=True, inline="always")
def bb(st, i):
    """The bitboard in slot ``i`` of the position's ``st`` array (stored as int64)."""
    return U64(st[i])


SQUARE_BB = np.array([1 << sq for sq in range(NSQ)], np.uint64)
FILE_BB = np.array([sum(1 << (r * FILES + f) for r in range(8)) for f in range(8)], np.uint64)

ROOK_DIRS = ((0, 1), (0, -1), (1, 0), (-1, 0))          # (file, rank) steps
BISHOP_DIRS = ((1, 1), (1, -1), (-1, 1), (-1, -1))
KNIGHT_STEPS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
KING_STEPS = ROOK_DIRS + BISHOP_DIRS


def _leaper_table(steps):
    table = np.zeros(NSQ, np.uint64)
    for sq in range(NSQ):
        f, r = sq % 8, sq // 8
        for df, dr in steps:
            if 0 <= f + df < 8 and 0 <= r + dr < 8:
                table[sq] |= U64(1 << ((r + dr) * 8 + f + df))
    return table


KNIGHT_ATTACKS = _leaper_table(KNIGHT_STEPS)
KING_ATTACKS = _leaper_table(KING_STEPS)
PAWN_ATTACKS = np.stack([_leaper_table(((1, 1), (-1, 1))), _leaper_table(((1, -1), (-1, -1)))])  # [colour, sq]


def _lines():
    between = np.zeros((NSQ, NSQ), np.uint64)
    line = np.zeros((NSQ, NSQ), np.uint64)
    for a in range(NSQ):
        fa, ra = a % 8, a // 8
        for df, dr in KING_STEPS:
            ray, f, r = [], fa + df, ra + dr
            while 0 <= f < 8 and 0 <= r < 8:
                b = r * 8 + f
                between[a, b] = U64(sum(1 << s for s in ray))
                ray.append(b)
                f, r = f + df, r + dr
            full = [a] + ray
            f, r = fa - df, ra - dr
            while 0 <= f < 8 and 0 <= r < 8:
                full.append(r * 8 + f)
                f, r = f - df, r - dr
            mask = U64(sum(1 << s for s in full))
            for b in ray:
                line[a, b] = mask
    return between, line


BETWEEN, LINE = _lines()

# The two slider kinds as table indices, and their directions as an array for the table builder.
ROOK_SLIDER, BISHOP_SLIDER = 0, 1
_DIRS = np.array([ROOK_DIRS, BISHOP_DIRS], np.int64)
MAGIC_SEED = 0x5348554149          # the xorshift generator's start: the same magics in every process


@njit(cache=True)
def _slide(sq, occ, dirs):
    """Squares a slider on ``sq`` attacks along ``dirs`` with ``occ`` occupied (the slow way, for the tables)."""
    att = ZERO
    f0, r0 = sq % 8, sq // 8
    for d in range(4):
        f, r = f0 + dirs[d, 0], r0 + dirs[d, 1]
        while 0 <= f < 8 and 0 <= r < 8:
            s = ONE << U64(r * 8 + f)
            att |= s
            if occ & s:
                break
            f, r = f + dirs[d, 0], r + dirs[d, 1]
    return att


@njit(cache=True)
def _relevant_mask(sq, dirs):
    """The squares whose occupancy matters to a slider on ``sq``: its rays without their last square."""
    mask = ZERO
    f0, r0 = sq % 8, sq // 8
    for d in range(4):
        f, r = f0 + dirs[d, 0], r0 + dirs[d, 1]
        while 0 <= f + dirs[d, 0] < 8 and 0 <= r + dirs[d, 1] < 8:
            mask |= ONE << U64(r * 8 + f)
            f, r = f + dirs[d, 0], r + dirs[d, 1]
    return mask


@njit(cache=True)
def _build_magics(dirs, seed):
    """Masks, magics, shifts, offsets and the attack table of one slider kind (a seeded search for each square's
    magic: a sparse random number that maps every occupancy of the mask to a slot without a harmful clash)."""
    masks = np.zeros(NSQ, np.uint64)
    magics = np.zeros(NSQ, np.uint64)
    shifts = np.zeros(NSQ, np.uint64)
    offsets = np.zeros(NSQ, np.int64)
    total = 0
    for sq in range(NSQ):
        masks[sq] = _relevant_mask(sq, dirs)
        offsets[sq] = total
        total += 1 << popcount(masks[sq])
    table = np.zeros(total, np.uint64)
    state = U64(seed)
    occs = np.zeros(4096, np.uint64)
    atts = np.zeros(4096, np.uint64)
    stamp = np.zeros(4096, np.int64)
    for sq in range(NSQ):
        mask = masks[sq]
        bits = popcount(mask)
        shifts[sq] = U64(64 - bits)
        n = 0
        occ = ZERO
        while True:                                 # every subset of the mask (carry-rippler)
            occs[n] = occ
            atts[n] = _slide(sq, occ, dirs)
            n += 1
            occ = (occ - mask) & mask
            if occ == ZERO:
                break
        attempt = 0
        while True:
            attempt += 1
            magic = FULL
            for _ in range(3):                      # sparse candidates: the AND of three random numbers
                state ^= state << U64(13)
                state ^= state >> U64(7)
                state ^= state << U64(17)
                magic &= state
            if popcount((mask * magic) >> U64(56)) < 6:
                continue
            base = offsets[sq]
            ok = True
            for i in range(n):
                idx = np.int64((occs[i] * magic) >> shifts[sq])
                if stamp[idx] != attempt:
                    stamp[idx] = attempt
                    table[base + idx] = atts[i]
                elif table[base + idx] != atts[i]:
                    ok = False
                    break
            if ok:
                magics[sq] = magic
                break
        stamp[:] = 0
    return masks, magics, shifts, offsets, table


(ROOK_MASK, ROOK_MAGIC, ROOK_SHIFT, ROOK_OFFSET, ROOK_TABLE) = _build_magics(_DIRS[ROOK_SLIDER], MAGIC_SEED)
(BISHOP_MASK, BISHOP_MAGIC, BISHOP_SHIFT, BISHOP_OFFSET, BISHOP_TABLE) = _build_magics(_DIRS[BISHOP_SLIDER],
                                                                                         MAGIC_SEED + 1)


@njit(cache=True, inline="always")
def rook_attacks(sq, occ):
    return ROOK_TABLE[ROOK_OFFSET[sq] + np.int64(((occ & ROOK_MASK[sq]) * ROOK_MAGIC[sq]) >> ROOK_SHIFT[sq])]


@njit(cache=True, inline="always")
def bishop_attacks(sq, occ):
    return BISHOP_TABLE[BISHOP_OFFSET[sq]
                        + np.int64(((occ & BISHOP_MASK[sq]) * BISHOP_MAGIC[sq]) >> BISHOP_SHIFT[sq])]

