"""The search's tunable parameters (``engine.search_params``) as the kernels bind them."""
import inspect

import pytest

from engine import alphabeta, search_params


def _bound_constants():
    return {name: value for name, value in vars(alphabeta).items() if name.startswith("P_")}


def test_each_kernel_constant_addresses_the_parameter_it_names():
    """``P_<NAME>`` is the place in ``ctrl`` of the parameter called NAME, whatever the order of ``PARAMS``."""
    bound = _bound_constants()
    assert len(bound) == len(search_params.PARAMS)
    for name, index in bound.items():
        assert search_params.PARAMS[index - alphabeta.C_PARAMS].name == name[2:]


def test_every_parameter_is_read_by_the_search():
    """No parameter without a kernel that reads it: a parameter whose feature is gone goes with it."""
    source = inspect.getsource(alphabeta)
    unread = [name for name in _bound_constants() if source.count(f"ctrl[{name}]") == 0]
    assert unread == []


def test_binding_by_name_refuses_an_unknown_name():
    with pytest.raises(KeyError):
        alphabeta._param("NO_SUCH_PARAMETER")

