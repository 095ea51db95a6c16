"""The arrays the search kernels (``engine.alphabeta``) share with their driver (``engine.searcher``), and where
each value lies in them:

* ``ctrl`` int64[CTRL_LEN]: stop flag, node counter and limit, selective depth, table age, root results, the
  number of root moves, the tablebase disk depth and hit counter, the root's first move searched (MultiPV) and
  the depth it was asked for; then the tunable parameters (``engine.search_params``: margins, depths,
  reductions, history limits), read at run time and bound here by name (``P_<NAME>``);
* ``ss`` int32[MAX_PLY + 2, SS_LEN]: the search stack, one row per ply (``SS_*``).
"""
from .search_params import INDEX as PARAM_INDEX, PARAMS

MAX_PLY = 96
REP_MASK = 4095                 # the small hash of keys on the path has REP_MASK + 1 buckets

C_STOP, C_NODES, C_NODE_LIMIT, C_SELDEPTH, C_AGE, C_BEST_MOVE, C_BEST_SCORE, C_ROOT_DONE, C_TB_DEPTH, C_TB_HITS, \
    C_ROOT_MOVES, C_ROOT_FIRST, C_ROOT_DEPTH = range(13)
C_PARAMS = 13                   # C_ROOT_FIRST: the root searches its moves from this index on (MultiPV)
CTRL_LEN = C_PARAMS + len(PARAMS)   # then the tunable parameters (engine.search_params), read at run time


def _param(name: str) -> int:
    """Where the kernels read the tunable parameter ``name`` in ``ctrl`` (bound by name, so that reordering
    ``search_params.PARAMS`` cannot bind a wrong index)."""
    return C_PARAMS + PARAM_INDEX[name]


P_HISTORY_LIMIT = _param("HISTORY_LIMIT")
P_CONT_HISTORY_LIMIT = _param("CONT_HISTORY_LIMIT")
P_BONUS_MAX_DEPTH = _param("BONUS_MAX_DEPTH")
P_BONUS_QUADRATIC = _param("BONUS_QUADRATIC")
P_BONUS_LINEAR = _param("BONUS_LINEAR")
P_BONUS_CONSTANT = _param("BONUS_CONSTANT")
P_LMR_DIVISOR = _param("LMR_DIVISOR")
P_LMR_MIN_DEPTH = _param("LMR_MIN_DEPTH")
P_STAT_OFFSET = _param("STAT_OFFSET")
P_STAT_DIVISOR = _param("STAT_DIVISOR")
P_FUTILITY_DEPTH = _param("FUTILITY_DEPTH")
P_FUTILITY_MARGIN = _param("FUTILITY_MARGIN")
P_RAZOR_MARGIN = _param("RAZOR_MARGIN")
P_NULL_MIN_DEPTH = _param("NULL_MIN_DEPTH")
P_NULL_BASE_REDUCTION = _param("NULL_BASE_REDUCTION")
P_NULL_DEPTH_DIVISOR = _param("NULL_DEPTH_DIVISOR")
P_NULL_EVAL_DIVISOR = _param("NULL_EVAL_DIVISOR")
P_NULL_EVAL_MAX = _param("NULL_EVAL_MAX")
P_IIR_DEPTH = _param("IIR_DEPTH")
P_LMP_DEPTH = _param("LMP_DEPTH")
P_LMP_BASE = _param("LMP_BASE")
P_PARENT_FUTILITY_DEPTH = _param("PARENT_FUTILITY_DEPTH")
P_PARENT_FUTILITY_BASE = _param("PARENT_FUTILITY_BASE")
P_PARENT_FUTILITY_PER_PLY = _param("PARENT_FUTILITY_PER_PLY")
P_QS_DELTA_MARGIN = _param("QS_DELTA_MARGIN")
P_SEE_PRUNE_DEPTH = _param("SEE_PRUNE_DEPTH")
P_SEE_QUIET_MARGIN = _param("SEE_QUIET_MARGIN")
P_SEE_CAPTURE_MARGIN = _param("SEE_CAPTURE_MARGIN")
P_SINGULAR_DEPTH = _param("SINGULAR_DEPTH")
P_SINGULAR_MARGIN = _param("SINGULAR_MARGIN")
P_SINGULAR_LINE_EXTENSION = _param("SINGULAR_LINE_EXTENSION")
P_MOVE_LIMIT_HORIZON = _param("MOVE_LIMIT_HORIZON")
# Per ply: killers, PV length, "the score depends on the path", static evaluation, and the move played from
# this ply with its history index (-1: none or a null move), for countermoves and continuation history; whether
# that move's check is not to be extended; the move a singular-extension search leaves out (0: none).
SS_KILLER1, SS_KILLER2, SS_PV_LEN, SS_PATH_DEP, SS_EVAL, SS_MOVE, SS_HIST, SS_NO_EXTENSION, SS_EXCLUDED = range(9)
SS_LEN = 9


def reset_ctrl(ctrl, params) -> None:
    """A search's ``ctrl`` at its start: the counters and flags cleared, the parameters (``params``:
    ``search_params.array()``) in their places."""
    ctrl[:C_PARAMS] = 0
    ctrl[C_PARAMS:] = params
