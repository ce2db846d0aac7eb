"""The HTML reports in a real browser: each kind of page (race, out of bounds, mismatch, refutation,
interleavings, campaign, check table, equivalence) is written by `sched` from the examples, loaded by headless Chromium,
and must (1) render without a script error (the page's script sets <body data-render="ok">, or
"error: ..." on any error), (2) hold the words of its finding, and (3) give a screenshot that is not
blank (many distinct pixel values). Also `sched report` on a saved JSON and a campaign summary.
Exit 77 (skipped) without Chromium. Usage: report_test.py SCHED EXAMPLES WORKDIR"""
import os
import shutil
import struct
import subprocess
import sys
import zlib

sched, examples, work = sys.argv[1:4]
browser = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
if not browser:
    print("skipped: no Chromium (Debian: chromium)")
    sys.exit(77)
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
failures = []


def run(args, codes=(0, 1)):
    p = subprocess.run([sched] + args, capture_output=True, text=True, timeout=600)
    if p.returncode not in codes:
        failures.append(f"{' '.join(args)}: exit {p.returncode}: {p.stderr[-500:]}")
    return p


def png_pixels(path):
    """Distinct RGB(A) values of a PNG (8-bit RGB or RGBA, non-interlaced), by hand: no imaging library."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    at, idat, width = 8, b"", 0
    while at < len(data):
        n, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + n]
        if kind == b"IHDR":
            width, height, depth, color = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and color in (2, 6), f"PNG depth {depth} colour {color}"
            bpp = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += body
        at += 12 + n
    raw = zlib.decompress(idat)
    stride = width * bpp
    prev = bytearray(stride)
    colours = set()
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        if y % 4 == 0:
            for x in range(0, stride, bpp * 2):
                colours.add(bytes(line[x:x + 3]))
        prev = line
    return len(colours)


def check_page(name, page, words):
    if not os.path.exists(page):
        failures.append(f"{name}: no page written")
        return
    html = open(page, encoding="utf-8").read()
    for w in words:
        if w not in html:
            failures.append(f"{name}: the page lacks '{w}'")
    if "http://" in html.replace("http://www.w3.org/2000/svg", "") or "https://" in html:
        failures.append(f"{name}: the page refers to the network")
    url = "file://" + os.path.abspath(page)
    common = [browser, "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", f"--user-data-dir={work}/profile"]
    dom = subprocess.run(common + ["--dump-dom", url], capture_output=True, text=True, timeout=120).stdout
    if 'data-render="ok"' not in dom:
        body = dom[dom.find("<body"):dom.find("<body") + 200]
        failures.append(f"{name}: the page's script did not report ok: {body!r}")
    shot = os.path.join(work, name + ".png")
    subprocess.run(common + ["--window-size=1200,1400", f"--screenshot={shot}", url], capture_output=True, timeout=120)
    if not os.path.exists(shot):
        failures.append(f"{name}: no screenshot")
        return
    colours = png_pixels(shot)
    if colours < 20:
        failures.append(f"{name}: the screenshot looks blank ({colours} distinct colours)")
    print(f"{name}: rendered ok, {len(html)} bytes, screenshot {os.path.getsize(shot)} bytes, {colours} distinct colours")


ex = lambda f: os.path.join(examples, f)
pages = os.path.join(work, "pages")
os.makedirs(pages)
run(["run", ex("race_read_write.sched"), "--html", f"{pages}/race.html"])
check_page("race", f"{pages}/race.html", ["read-write race", "The two iterations", "The cell", "write in i = 0", "read in i = 1"])
run(["run", ex("outer_product_oob.sched"), "-p", "N=10", "-p", "M=3", "--html", f"{pages}/oob.html"])
check_page("out-of-bounds", f"{pages}/oob.html", ["out-of-bounds", "Source"])
run(["run", ex("outer_product_tail_missing.sched"), "-p", "N=10", "-p", "M=3", "--html", f"{pages}/mismatch.html"])
check_page("mismatch", f"{pages}/mismatch.html", ["Output <code>c</code>", "6 never written", "c[9, 2] = ⊥, expected"])
run(["verify", ex("matmul_wrong_annotation.sched"), "--html", f"{pages}/refuted.html"])
check_page("refutation", f"{pages}/refuted.html", ["refuted", "Counterexample", "sched run", "--check-annotations", "Verification conditions"])
run(["explore", ex("race_write_write.sched"), "--html", f"{pages}/explore.html"])
check_page("interleavings", f"{pages}/explore.html", ["nondeterministic", "End state 2", "thread 1", "writes x[] := 1"])
run(["fuzz", "--seed", "1", "--cases", "16", "--jobs", "2", "--oracles", "model,reference,fast,explore", "--quiet",
     "--out", f"{work}/campaign", "--html", f"{pages}/campaign.html"])
check_page("campaign", f"{pages}/campaign.html", ["Cases per second", "Cases flagged per oracle", "Mutation score per defect class"])
run(["check", ex("race_read_write.sched"), ex("matmul_par.sched"), ex("outer_product_oob.sched"), "--html", f"{pages}/check.html"])
check_page("check", f"{pages}/check.html", ["sched check: 3 file(s)", "3 as expected", "race_read_write.sched", "as expected"])
run(["equiv", ex("equiv/gemm.sched"), ex("equiv/gemm_bad_tail.sched"), "--html", f"{pages}/equiv.html"])
check_page("equiv-different", f"{pages}/equiv.html", ["different", "Difference", "c[0, 0]", "Replay", "sched equiv", "First program", "Second program"])
run(["equiv", ex("equiv/isum.sched"), ex("equiv/isum_reversed.sched"), "--html", f"{pages}/equiv-proved.html"])
check_page("equiv-equivalent", f"{pages}/equiv-proved.html", ["equivalent", "against the first", "_R1("])
# sched report: the same pages from saved JSON
p = run(["equiv", "--json", ex("equiv/gemm.sched"), ex("equiv/gemm_par_race.sched")])
open(f"{work}/equiv.json", "w").write(p.stdout)
run(["report", f"{work}/equiv.json", "-o", f"{pages}/report-equiv.html"], codes=(0,))
check_page("report-equiv", f"{pages}/report-equiv.html", ["defective", "the finding", "gemm_par_race.sched"])
p = run(["verify", "--json", ex("matmul_wrong_annotation.sched")])
open(f"{work}/verdict.json", "w").write(p.stdout)
run(["report", f"{work}/verdict.json", "-o", f"{pages}/report-verdict.html"], codes=(0,))
check_page("report-verdict", f"{pages}/report-verdict.html", ["refuted", "Counterexample"])
run(["report", f"{work}/campaign/summary.json", "-o", f"{pages}/report-campaign.html"], codes=(0,))
check_page("report-campaign", f"{pages}/report-campaign.html", ["Mutation score per defect class"])
open(f"{work}/bad.json", "w").write('{"something": 1}')
p = run(["report", f"{work}/bad.json", "-o", f"{pages}/bad.html"], codes=(2,))
if "not a result of sched" not in p.stderr or os.path.exists(f"{pages}/bad.html"):
    failures.append(f"report on a foreign JSON: {p.stderr}")

for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
