"""Runs the pysched tests (python/tests) with pytest, the module imported from the build tree.
Usage: run.py MODULE_DIR EXAMPLES_DIR. Exit 77 (ctest: skipped) when pytest or NumPy is missing."""
import os
import sys

module_dir, examples = sys.argv[1], sys.argv[2]
try:
    import numpy  # noqa: F401
    import pytest
except ImportError as e:
    print(f"skipped: {e} (Debian: python3-numpy python3-pytest; scripts/setup.sh installs them)")
    sys.exit(77)
sys.path.insert(0, module_dir)
os.environ["SCHED_EXAMPLES"] = examples
here = os.path.dirname(os.path.abspath(__file__))
sys.exit(pytest.main(["-q", "-p", "no:cacheprovider", here]))
