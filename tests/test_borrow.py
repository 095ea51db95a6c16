"""engine.borrow: views without a reference count, the same data."""
import numpy as np
import pytest
from numba import njit, types
from numba.core import cgutils
from numba.core.errors import TypingError
from numba.extending import intrinsic

from engine.borrow import borrowed


@intrinsic
def _counted(typingctx, arr):
    """Whether ``arr`` has a reference count (a meminfo)."""
    def codegen(context, builder, signature, args):
        meminfo = context.make_array(signature.args[0])(context, builder, args[0]).meminfo
        return builder.not_(cgutils.is_null(builder, meminfo))
    return types.boolean(arr), codegen


@njit
def _write_through(a, b):
    view = borrowed(a)
    pair = borrowed((a, b))
    view[1] = 7                 # through the borrowed array ...
    pair[1][0, 2] = 9           # ... and through a borrowed tuple's element
    row = view[2:]              # a view of a borrowed array has no count either
    return _counted(a), _counted(view), _counted(pair[0]), _counted(pair[1]), _counted(row), row.sum(), \
        view.shape[0], pair[1].shape[1]


def test_borrowed_arrays_share_data_and_have_no_count():
    a = np.arange(5, dtype=np.int64)
    b = np.zeros((2, 3), np.int16)
    counted_a, counted_view, counted_0, counted_1, counted_row, row_sum, length, columns = _write_through(a, b)
    assert (counted_a, counted_view, counted_0, counted_1, counted_row) == (True, False, False, False, False)
    assert a[1] == 7 and b[0, 2] == 9
    assert row_sum == 2 + 3 + 4 and length == 5 and columns == 3


def test_only_arrays_and_tuples_of_them_can_be_borrowed():
    @njit
    def borrow_an_int(x):
        return borrowed(x)

    with pytest.raises(TypingError):
        borrow_an_int(3)
