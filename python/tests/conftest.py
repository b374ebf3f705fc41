"""The tests run on RDX_DEVICE (tools/test_python.sh: PoCL's CPU device, "cpu")."""
import os

os.environ.setdefault("RDX_DEVICE", "cpu")
