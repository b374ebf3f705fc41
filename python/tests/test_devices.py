"""Devices and contexts: the list, the default device, one context per selector, contexts
passed as device=."""
import numpy as np
import pytest

import rdx


def test_devices_listed():
    all_devices = rdx.devices()
    assert all_devices and all(isinstance(d, rdx.Device) for d in all_devices)
    d = all_devices[0]
    assert d.index == 0 and ":" in d.selector and d.name and d.kind in (
        "cpu", "gpu", "accelerator", "other")
    assert d.compute_units >= 1 and d.max_alloc > 0


def test_contexts():
    ctx = rdx.Context("cpu")
    assert ctx.selector == "cpu" and ctx.device.kind == "cpu"
    assert "rdx.Context('cpu'" in repr(ctx)
    a = np.arange(100, dtype=np.int64)
    assert rdx.sum(a, device=ctx) == 4950
    assert rdx.context("cpu") is rdx.context("cpu")  # one per selector
    assert rdx.context() is rdx.context(None) is rdx.context("")
    assert rdx.context(ctx) is ctx
    assert rdx.sum(a, device="cpu") == 4950
    assert rdx.max(a, device=rdx.devices()[0].selector) == 99
    with pytest.raises(rdx.DeviceError):
        rdx.Context("no-such-device-anywhere")


def test_version():
    assert rdx.__version__.count(".") == 2
