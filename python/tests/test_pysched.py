"""pysched against NumPy: programs run on NumPy inputs give NumPy's results, findings are
results with the command's words and exit codes, bad input raises pysched.BadInput.

Run by ctest (python/tests/run.py sets PYTHONPATH to the built module and SCHED_EXAMPLES)."""
import os
import threading

import numpy as np
import pytest

import pysched
from support import TRIPLE

EXAMPLES = os.environ.get("SCHED_EXAMPLES", os.path.join(os.path.dirname(__file__), "..", "..", "examples"))


def example(name):
    return pysched.load(os.path.join(EXAMPLES, name))




def test_metadata():
    p = example("matmul_par.sched")
    assert p.params == ["N", "M", "P"]
    assert p.inputs == {"A": {"type": "f32", "indices": ["i", "k"]}, "B": {"type": "f32", "indices": ["k", "j"]}}
    assert p.outputs == {"c": {"type": "f32", "rank": 2}}
    assert "par " in p.text
    assert pysched.parse(p.text, "again.sched").params == p.params  # the printed program parses back


@pytest.mark.parametrize("engine", ["fast", "reference", "native"])
def test_matmul_on_numpy_inputs(engine):
    rng = np.random.default_rng(7)
    a = rng.standard_normal((6, 4)).astype(np.float32)
    b = rng.standard_normal((4, 5)).astype(np.float32)
    r = example("matmul_par.sched").run(N=6, M=5, P=4, inputs={"A": a, "B": b}, engine=engine)
    assert r.ok and r.outcome == "ok" and r.exit_code == 0, r.message
    assert r.engine == engine
    c = r.outputs["c"]
    assert c.dtype == np.float32 and c.shape == (6, 5)
    # the program sums k in order, in f32: exactly what this loop computes
    want = np.zeros((6, 5), np.float32)
    for k in range(4):
        want += a[:, k:k + 1] * b[k:k + 1, :]
    np.testing.assert_array_equal(c, want)
    np.testing.assert_allclose(c, a @ b, rtol=1e-5, atol=1e-5)
    assert r.defined["c"].all()
    np.testing.assert_array_equal(r.arrays["a"], a)  # the inputs as the program saw them
    assert r.json["outcome"] == "ok" and r.json["params"] == {"N": 6, "M": 5, "P": 4}


def test_blur_u16_against_numpy():
    rng = np.random.default_rng(3)
    img = rng.integers(0, 65536, size=(15, 11), dtype=np.uint16)  # sums wrap modulo 2^16, as in NumPy
    r = example("blur3x3.sched").run(W=13, H=9, inputs={"In": img})
    assert r.ok, r.message
    bx = (img[0:-2, :] + img[1:-1, :] + img[2:, :]) // np.uint16(3)
    by = (bx[:, 0:-2] + bx[:, 1:-1] + bx[:, 2:]) // np.uint16(3)
    assert r.outputs["out"].dtype == np.uint16
    np.testing.assert_array_equal(r.outputs["out"], by)


def test_integer_program_from_text():
    p = pysched.parse(TRIPLE, "triple.sched")
    x = np.array([-5, 0, 7, 2**30], dtype=np.int32)
    r = p.run({"N": 4}, inputs={"X": x})
    assert r.ok
    np.testing.assert_array_equal(r.outputs["y"], x * np.int32(3) - np.int32(1))  # wraps as NumPy's int32
    # a NumPy integer is a parameter value; a list is an array (of int64 here: refused for i32)
    r = p.run(N=np.int64(2), inputs={"X": np.array([1, 2], np.int32)})
    np.testing.assert_array_equal(r.outputs["y"], [2, 5])
    with pytest.raises(pysched.BadInput, match="i64 values but the tensor is i32"):
        p.run(N=2, inputs={"X": [1, 2]})


def test_seeded_inputs_are_reproducible():
    p = example("matmul_par.sched")
    r1 = p.run(N=3, M=2, P=2, seed=5)
    r2 = p.run(N=3, M=2, P=2, seed=5, engine="reference")
    r3 = p.run(N=3, M=2, P=2, seed=6)
    np.testing.assert_array_equal(r1.outputs["c"], r2.outputs["c"])
    assert not np.array_equal(r1.arrays["a"], r3.arrays["a"])


def test_race_is_a_result_with_the_commands_words():
    r = example("race_write_write.sched").run()
    assert r.outcome == "race" and not r.ok and r.exit_code == 1
    assert "race" in r.message and "race_write_write.sched:" in r.message
    assert r.json["outcome"] == "race"
    assert len(r.json["race"]["accesses"]) == 2  # both accesses named, with their iterations


def test_missing_output_cells_are_masked():
    r = example("outer_product_tail_missing.sched").run(N=10, M=3)
    assert r.outcome == "mismatch" and r.exit_code == 1
    mask = r.defined["c"]
    assert mask.dtype == np.bool_ and mask.shape == (10, 3)
    assert mask.any() and not mask.all()
    assert (r.outputs["c"][~mask] == 0).all()  # ⊥ reads as 0 in the array


def test_bad_input_raises():
    p = example("matmul_par.sched")
    with pytest.raises(pysched.BadInput, match="'M' has no value"):
        p.run(N=6)
    with pytest.raises(ValueError):  # BadInput is a ValueError
        p.run(N=6, M=5, P=4, Q=1)
    with pytest.raises(pysched.BadInput, match="f64 values but the tensor is f32"):
        p.run(N=6, M=5, P=4, inputs={"A": np.ones((6, 4))})
    with pytest.raises(pysched.BadInput, match="complex64"):
        p.run(N=6, M=5, P=4, inputs={"A": np.ones((6, 4), np.complex64)})
    with pytest.raises(pysched.BadInput, match="expected an integer"):
        p.run(N=6.5, M=5, P=4)
    with pytest.raises(pysched.BadInput, match="engine"):
        p.run(N=6, M=5, P=4, engine="gpu")
    with pytest.raises(pysched.BadInput, match=r"2:15: error: expected a type"):
        pysched.parse("param N;\ntensor A(i) : f33;\n", "bad.sched")
    with pytest.raises(pysched.BadInput, match="does not hold"):
        pysched.parse(TRIPLE).run(N=0)
    with pytest.raises(pysched.BadInput):
        pysched.load(os.path.join(EXAMPLES, "no_such_file.sched"))


def test_verify():
    v = example("matmul_par.sched").verify(timeout=30)
    assert v.verdict == "verified" and v.exit_code == 0 and v.problems == []
    v = example("matmul_wrong_annotation.sched").verify(timeout=30)
    assert v.verdict == "refuted" and v.exit_code == 1
    assert v.problems and "sched run" in v.text
    assert v.json["verdict"] == "refuted"


def test_explore():
    e = example("race_write_write.sched").explore()
    assert e.verdict == "nondeterministic" and e.exit_code == 1
    assert len(e.finals) == 2 and e.executions >= 2
    e = example("matmul_par.sched").explore(N=2, M=2, P=1)
    assert e.verdict == "deterministic" and e.exit_code == 0
    assert e.json["strategy"] == "exhaustive"


def test_runs_release_the_gil():
    p = example("matmul_par.sched")
    results = []
    threads = [threading.Thread(target=lambda: results.append(p.run(N=40, M=40, P=40).ok)) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [True] * 4


def test_lower_and_import_through_the_front_ends():
    algo = os.path.join(EXAMPLES, "algorithms", "blur.algo")
    p = pysched.lower(algo, schedule="BlurY.unroll(x_i)")
    assert p.params == ["W", "H"]
    r = p.run(W=9, H=5)
    assert r.outcome == "ok", r
    # the same front end chosen by the file's extension
    q = pysched.import_file(algo)
    assert q.run(W=9, H=5).outcome == "ok"
    with pytest.raises(pysched.BadInput, match="no front end reads"):
        pysched.import_file(os.path.join(EXAMPLES, "matmul_par.sched"))
    with pytest.raises(pysched.BadInput, match="no such front end"):
        pysched.import_file(algo, via="tvm")
    with pytest.raises(pysched.BadInput, match="no loop variable nowhere"):
        pysched.lower(algo, schedule="BlurY.split(nowhere, a, b, 4)")


def test_equiv_of_two_programs():
    d = os.path.join(EXAMPLES, "equiv")
    gemm = pysched.load(os.path.join(d, "gemm.sched"))
    e = pysched.equiv(gemm, pysched.load(os.path.join(d, "gemm_tiled.sched")))
    assert e.verdict == "equivalent" and e.exit_code == 0, e.text
    broken = pysched.equiv(gemm, pysched.load(os.path.join(d, "gemm_bad_tail.sched")))
    assert broken.verdict == "different" and broken.exit_code == 1
    diff = broken.difference
    assert diff["cell"] == "c[0, 0]" and diff["params"] == {"N": 1, "M": 1, "K": 1}
    assert diff["replay"].startswith("sched equiv ")
    other = pysched.parse("param N;\ninput x[i] : f32[N];\noutput y[i] : f32[N];\nfor i < N { y[i] := x[i]; }\n")
    with pytest.raises(pysched.BadInput, match="the parameters are"):
        pysched.equiv(gemm, other)


def test_hazards_on_a_run_and_for_ranges(tmp_path):
    """A -log(p) of a probability that is 0: the run stops there (outcome hazard), the analysis
    warns for p in [0, 1] with a witness that replays, and proves the fix log(p + eps) safe."""
    ce = example(os.path.join("hazards", "cross_entropy.sched"))
    p = np.array([0.5, 0.0, 0.25, 1.0], dtype=np.float32)
    r = ce.run(N=4, inputs={"P": p}, hazards=True)
    assert r.outcome == "hazard" and r.exit_code == 1, r.message
    assert r.json["hazard"]["reason"] == "log of zero" and r.json["hazard"]["cell"] == "l[1]"
    assert ce.run(N=4, inputs={"P": p}).ok  # not watched: -log(0) = inf on both sides
    h = ce.hazards({"P": (0.0, 1.0)}, N=8, witness_dir=str(tmp_path))
    assert h.verdict == "warning" and h.exit_code == 1, h.text
    (site,) = [s for s in h.sites if s["verdict"] == "warning"]
    assert site["operation"] == "log(p[i])" and "witness" in site
    assert (tmp_path / "P_10_12.npy").exists()
    fixed = example(os.path.join("hazards", "cross_entropy_eps.sched")).hazards({"P": (0.0, 1.0)}, N=8)
    assert fixed.verdict == "safe" and fixed.exit_code == 0, fixed.text
    with pytest.raises(pysched.BadInput):
        ce.hazards({"Q": (0.0, 1.0)})
    with pytest.raises(pysched.BadInput):
        ce.hazards({"P": (1.0, 0.0)})
