#!/usr/bin/env python3
"""The report formats of `sched` (cli/reports.hpp): SARIF 2.1.0 logs from `run`, `verify` and
`check` validate against the OASIS schema (tests/data/sarif/, vendored with its licence), and
have one result per finding at its file:line:col; the JUnit XML of `check` parses with Python's
XML library and has one test case per file.

usage: formats_test.py SCHED EXAMPLES_DIR SCHEMA WORK_DIR
Exit 0: pass, 1: fail, 77: skipped (python3-jsonschema is not installed; scripts/setup.sh installs it).
"""
import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

try:
    import jsonschema
except ImportError:
    print("skipped: the Python module jsonschema is not installed (Debian: python3-jsonschema)")
    sys.exit(77)

sched, examples, schema_path, work = sys.argv[1:5]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
with open(schema_path) as f:
    schema = json.load(f)
validator = jsonschema.Draft4Validator(schema, format_checker=jsonschema.FormatChecker())
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def sched_run(args, expect):
    p = subprocess.run([sched] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=600)
    check(p.returncode in expect, f"sched {' '.join(args)}: exit {p.returncode}, expected {expect}\n{p.stderr[:500]}")
    return p


def sarif(path, command):
    with open(path) as f:
        log = json.load(f)
    errors = sorted(validator.iter_errors(log), key=lambda e: list(e.path))
    for e in errors[:5]:
        print(f"{path}: {'/'.join(map(str, e.path))}: {e.message[:300]}")
    check(not errors, f"{path} does not validate against the SARIF 2.1.0 schema ({len(errors)} error(s))")
    check(log["version"] == "2.1.0", f"{path}: version")
    run = log["runs"][0]
    check(run["tool"]["driver"]["name"] == "sched" and run["properties"]["command"] == command, f"{path}: tool and command")
    return run["results"]


logs = 0
# run: a race, an out-of-bounds write, a mismatch (one result each, located), an ok run (none)
for name, params, rule in [("race_write_write.sched", [], "race"), ("outer_product_oob.sched", ["-p", "N=5", "-p", "M=1"], "out-of-bounds"),
                           ("outer_product_tail_missing.sched", ["-p", "N=10", "-p", "M=3"], "mismatch"),
                           ("matmul_par.sched", ["-p", "N=3", "-p", "M=2", "-p", "P=2"], "")]:
    out = os.path.join(work, name + ".run.sarif")
    sched_run(["run", os.path.join(examples, name), "--sarif", out] + params, {0, 1})
    results = sarif(out, "run")
    logs += 1
    if rule == "":
        check(results == [], f"{name}: an ok run has no result")
    else:
        check(len(results) == 1, f"{name}: one result, got {len(results)}")
        if results:
            r = results[0]
            if rule:
                check(r["ruleId"] == rule, f"{name}: rule {r['ruleId']}, expected {rule}")
            region = r["locations"][0]["physicalLocation"].get("region", {})
            check(region.get("startLine", 0) >= 1 and region.get("startColumn", 0) >= 1, f"{name}: the result has a line and column")
            check(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].endswith(name), f"{name}: the result names the file")

# verify: refutations (one result per problem) and a verified program (none)
for name, refuted in [("outer_product_oob.sched", True), ("matmul_par.sched", False)]:
    out = os.path.join(work, name + ".verify.sarif")
    p = sched_run(["verify", os.path.join(examples, name), "--sarif", out, "--json"], {0, 1})
    results = sarif(out, "verify")
    logs += 1
    problems = json.loads(p.stdout).get("problems", [])
    check(len(results) == len(problems), f"{name}: {len(results)} result(s) for {len(problems)} problem(s)")
    check((len(results) > 0) == refuted, f"{name}: results iff refuted")
    for r, pr in zip(results, problems):
        check(r["ruleId"] == pr["rule"] and r["locations"][0]["physicalLocation"]["region"]["startLine"] == pr["line"], f"{name}: result = problem")

# check: a directory with an unexpected outcome (an expect line that does not hold) and files as expected
d = os.path.join(work, "check")
os.makedirs(d)
for name in ["race_write_write.sched", "matmul_par.sched", "outer_product_oob.sched"]:
    shutil.copy(os.path.join(examples, name), d)
with open(os.path.join(d, "wrong_expectation.sched"), "w") as f:
    f.write("// expect: race\noutput x[] : i32[] = 1;\nx[] := 1;\n")
out, junit = os.path.join(work, "check.sarif"), os.path.join(work, "check.xml")
sched_run(["check", d, "--sarif", out, "--junit", junit, "--verify-timeout", "20"], {1})
results = sarif(out, "check")
logs += 1
check(len(results) >= 1 and all(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].endswith("wrong_expectation.sched") for r in results),
      f"check: the results are the wrong expectation's ({[r['locations'][0]['physicalLocation']['artifactLocation']['uri'] for r in results]})")
tree = ET.parse(junit)
cases = tree.getroot().findall(".//testcase")
check(len(cases) == 4, f"JUnit: one test case per file, got {len(cases)}")
failed = [c.get("name") for c in cases if c.find("failure") is not None]
check(failed == ["wrong_expectation.sched"], f"JUnit: the failing case is the wrong expectation, got {failed}")
suite = tree.getroot().find("testsuite")
check(suite.get("tests") == "4" and suite.get("failures") == "1", "JUnit: counts")

# fuzz: one JUnit test case per case (sorted by index), a SARIF log with one result per finding
out, junit = os.path.join(work, "fuzz.sarif"), os.path.join(work, "fuzz.xml")
sched_run(["fuzz", "--seed", "3", "--cases", "6", "-j", "2", "--quiet", "--oracles", "model,reference,fast", "--out", os.path.join(work, "fuzz"),
           "--sarif", out, "--junit", junit], {0, 1})
results = sarif(out, "fuzz")
logs += 1
tree = ET.parse(junit)
fcases = tree.getroot().findall(".//testcase")
check([c.get("name").split(":")[0] for c in fcases] == [f"case {i}" for i in range(6)], f"fuzz JUnit: one test case per case, got {len(fcases)}")
nfailed = sum(1 for c in fcases if c.find("failure") is not None)
check(nfailed == len(results), f"fuzz: {nfailed} failing case(s), {len(results)} SARIF result(s)")
sched_run(["fuzz", "--cases", "1", "--junit", os.path.join(work, "no-such-dir", "x.xml")], {2})

print(f"{logs} SARIF log(s) validated, {len(cases)} JUnit test case(s); {len(failures)} failure(s)")
sys.exit(1 if failures else 0)
