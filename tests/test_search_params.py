"""The search's tunable parameters (``engine.search_params``) as the kernels bind them."""
import inspect

import pytest

from engine import alphabeta, history, ordering, search_params, search_state


def _bound_constants():
    return {name: value for name, value in vars(search_state).items() if name.startswith("P_")}


def test_each_kernel_constant_addresses_the_parameter_it_names():
    """``P_<NAME>`` is the place in ``ctrl`` of the parameter called NAME, whatever the order of ``PARAMS``."""
    bound = _bound_constants()
    assert len(bound) == len(search_params.PARAMS)
    for name, index in bound.items():
        assert search_params.PARAMS[index - search_state.C_PARAMS].name == name[2:]
        assert getattr(alphabeta, name) == index                    # as the kernels see it


def test_every_parameter_is_read_by_the_search():
    """No parameter without a kernel that reads it: a parameter whose feature is gone goes with it."""
    source = "".join(inspect.getsource(part) for part in (alphabeta, history, ordering))
    unread = [name for name in _bound_constants() if source.count(f"ctrl[{name}]") == 0]
    assert unread == []


def test_binding_by_name_refuses_an_unknown_name():
    with pytest.raises(KeyError):
        search_state._param("NO_SUCH_PARAMETER")



def test_no_switch_is_off_by_default():
    """A feature waiting for an SPRT lives in ``experiments/`` as a patch, not on main behind a switch left at
    its "off" value: every parameter that names an off value has another default."""
    switches = [p.name for p in search_params.PARAMS + search_params.TIME_PARAMS
                if "off" in p.doc and p.default == 0]
    assert switches == []
    assert all(p.default != 0 for p in search_params.PARAMS if p.name.endswith(("_DEPTH", "_WEIGHT")))


def test_spsa_tunes_only_parameters_that_act():
    """SPSA perturbs only what the search reads: every tuned name is a kernel parameter bound in ``alphabeta``
    or a time parameter the time manager reads."""
    import inspect
    from engine import timeman
    bound = {name[2:] for name in _bound_constants()}
    clock = inspect.getsource(timeman)
    for name in search_params.TUNED:
        assert name in bound or f'"{name}"' in clock, name
