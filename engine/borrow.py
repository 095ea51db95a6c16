"""Borrowed arrays: the same arrays without a reference count, for the recursion of the search.

numba counts references to an array's memory (its ``meminfo``) and keeps the count right with an atomic
increment when a kernel takes the array as an argument and an atomic decrement (behind a memory fence) when it
lets go; its pruning pass removes the pairs it can prove redundant, but not those of a kernel with many exits,
such as the search's ``pvs`` and ``qsearch``: each call pays them for every array it is given (about twenty),
and every kernel they call for its own. An array whose ``meminfo`` is null has no count: numba's increment and
decrement test for null and return. ``borrowed(x)`` is ``x`` (an array, or a tuple of them, nested or not) with
a null ``meminfo`` and ``parent``: the same data, shape and strides, so it reads and writes what ``x`` does.

It is safe where the borrowed view does not outlive the array it was made from: a kernel that borrows its
arguments and passes them down a call it waits for (``engine.alphabeta``'s ``search``, ``engine.perft``'s
``count``). A borrowed array must
never be returned to Python or stored beyond that call.
"""
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


def _borrow(context, builder, typ, value):
    if isinstance(typ, types.Array):
        source = context.make_array(typ)(context, builder, value)
        view = context.make_array(typ)(context, builder)
        for field in ("nitems", "itemsize", "data", "shape", "strides"):
            setattr(view, field, getattr(source, field))
        view.meminfo = cgutils.get_null_value(view.meminfo.type)
        view.parent = cgutils.get_null_value(view.parent.type)
        return view._getvalue()
    if isinstance(typ, types.BaseTuple):
        out = value
        for i, element in enumerate(typ):
            out = builder.insert_value(out, _borrow(context, builder, element, builder.extract_value(value, i)), i)
        return out
    return value


def _borrowable(typ) -> bool:
    if isinstance(typ, types.Array):
        return True
    return isinstance(typ, types.BaseTuple) and all(_borrowable(t) for t in typ)


@intrinsic
def borrowed(typingctx, x):
    """``x`` (an array or a tuple of arrays) without a reference count: see the module's text."""
    if not _borrowable(x):
        return None

    def codegen(context, builder, signature, args):
        return _borrow(context, builder, signature.args[0], args[0])
    return x(x), codegen
