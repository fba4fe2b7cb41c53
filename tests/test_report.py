"""The HTML report (``rougekit.report``, ``CorpusResult.to_html``,
``rougekit report``), opened in a real browser: headless Chromium driven by
Selenium, with the network cut off (a proxy that leads nowhere, and the
DevTools protocol's offline mode), so the page must carry everything it uses.

Each page is checked for console errors (a SEVERE entry fails), sorted by a
score column (the order read back from the table), searched, and a row is
opened to find the matches highlighted: the ``mark.rk-hit`` elements' texts
are the matched pieces of ``rougekit.explain`` (its ``segments``). A
screenshot must not be blank. A report of 100,000 items is built and opened
the same way, and must stay under 20 MB; one of 12 items under 1 MB (no
plotting library in the file: the plots are SVG). At a 1,400 px window the
page does not scroll sideways, and the signature wraps only between fields.

Without a browser: the histograms' count axes have integer ticks, a p-value
below the bootstrap's resolution says so, each warning is given once, and an
item too long to explain (45,000 words a side) is shown without highlights
instead of explained (rougekit.report's limits).

Without Chromium, chromedriver or selenium the browser tests skip, saying
what is missing; in CI (``CI`` set) they fail instead, as the ROUGE-1.5.5
tests do (``.ci/run`` installs Debian's chromium and chromium-driver, and
selenium comes with the ``test`` extra). ``ROUGEKIT_REPORT_SCREENSHOT=PATH``
keeps the screenshot (docs/img/report.png is made so).
"""
import json
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import time
import zlib

import pytest

import rougekit
from _helpers import child_env

IN_CI = os.environ.get("CI", "").lower() not in ("", "0", "false")


def missing_extra():
    """The first module of rougekit[report] that does not import, or None."""
    for module in ("jinja2",):
        try:
            __import__(module)
        except ImportError:
            return module
    return None


@pytest.fixture(scope="module", autouse=True)
def report_extra():
    module = missing_extra()
    if module is not None:
        if IN_CI:
            pytest.fail(f"{module} is not installed in CI (the test extra installs it)")
        pytest.skip(f"{module} is not installed (pip install rougekit[report])")
# Debian's chromium (what .ci/run installs), else a Chrome on the PATH (GitHub's
# Ubuntu runners carry google-chrome and its chromedriver).
CHROMIUM = next(filter(None, map(shutil.which, ("chromium", "chromium-browser",
                                                 "google-chrome"))), "/usr/bin/chromium")
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
WORDS = ("the cat sat on a mat while dog ran in park with red ball and blue kite near "
         "old house tree river bank").split()
# An item that must stay text: markup, an emoji (two UTF-16 units), accents.
TRICKY = ("The cat <script>alert('x')</script> sat on the mat \U0001F600 "
          "and the café dog ran", "the café dog ran \U0001F600 to the cat on the mat")
MAX_BYTES = 20_000_000


def unavailable():
    """Why the browser cannot run here, or None."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install selenium; the test extra has it)"
    for path, package in ((CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")):
        if not os.path.exists(path):
            return f"{path} not found (Debian: apt-get install {package})"
    return None


@pytest.fixture(scope="module")
def browser():
    reason = unavailable()
    if reason is not None:
        if IN_CI:
            pytest.fail("the report's browser tests cannot run in CI: " + reason)
        pytest.skip("no headless browser: " + reason)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1280,1600", "--hide-scrollbars",
                # offline: every request goes to a proxy where nothing listens
                "--proxy-server=127.0.0.1:9", "--proxy-bypass-list=<-loopback>",
                "--disable-background-networking", "--no-first-run"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(120)
    driver.set_script_timeout(120)
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    yield driver
    driver.quit()


# --- the corpus ----------------------------------------------------------------------

def text(rng, k):
    return " ".join(rng.choice(WORDS) for _ in range(k))


def corpus(n, seed=7):
    """(system A, system B, references): short texts, a few items with two
    references and a second line (rougeLsum), and the TRICKY item at 3."""
    rng = random.Random(seed)
    refs, a, b = [], [], []
    for i in range(n):
        item = [text(rng, rng.randint(6, 14)) + "\n" + text(rng, 5)]
        if i % 9 == 0:
            item.append(text(rng, 10))
        refs.append(item)
        a.append(text(rng, rng.randint(5, 12)))
        b.append(text(rng, rng.randint(5, 12)))
    if n > 3:
        refs[3], a[3] = [TRICKY[0]], TRICKY[1]
    return a, b, refs


def write_jsonl(path, candidates, references):
    with open(path, "w", encoding="utf-8") as f:
        for c, r in zip(candidates, references):
            f.write(json.dumps({"candidate": c, "references": r}) + "\n")
    return path


@pytest.fixture(scope="module")
def small():
    a, b, refs = corpus(240)
    result = rougekit.score_corpus(a, refs, TYPES, bootstrap=200, seed=1)
    return a, b, refs, result


@pytest.fixture(scope="module")
def single_page(small, tmp_path_factory):
    a, _, refs, result = small
    path = tmp_path_factory.mktemp("report") / "single.html"
    path.write_text(result.to_html(a, refs, title="A <b>test</b> report"), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def compare_page(small, tmp_path_factory):
    a, b, refs, _ = small
    folder = tmp_path_factory.mktemp("compare")
    out = folder / "compare.html"
    write_jsonl(folder / "system_a.jsonl", a, refs)
    write_jsonl(folder / "system_b.jsonl", b, refs)
    proc = run_cli("report", "--jsonl", "system_a.jsonl", "--compare", "system_b.jsonl",
                   "-o", out, "--bootstrap", 300, "--ar-trials", 999, cwd=folder)
    assert proc.returncode == 0, proc.stderr
    return folder, out


def run_cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "rougekit", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=600, env=child_env())


# --- the browser ----------------------------------------------------------------------

def open_page(driver, path):
    """Loads the file and waits for the table; returns the console's SEVERE
    entries (the log is emptied on each read)."""
    from selenium.webdriver.support.ui import WebDriverWait
    driver.get_log("browser")
    driver.get(path.as_uri())
    WebDriverWait(driver, 120).until(
        lambda d: d.execute_script("return document.readyState") == "complete"
        and d.find_elements("css selector", "#rk-body tr.rk-row"))
    return severe(driver)


def severe(driver):
    return [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]


def column(driver, index):
    """The numbers of a column (0 = item) on the table's page."""
    return [float(x) for x in driver.execute_script(
        "return Array.from(document.querySelectorAll('#rk-body tr.rk-row')).map("
        "r => r.children[arguments[0]].textContent)", index)]


def click(driver, selector):
    driver.find_element("css selector", selector).click()


def search(driver, query):
    box = driver.find_element("css selector", "#rk-search")
    box.clear()
    box.send_keys(query)


def open_item(driver, item):
    """Searches for the item's number and opens its row."""
    search(driver, str(item))
    click(driver, f"#rk-body tr.rk-row[data-item='{item}']")
    return driver.find_element("css selector", f"#rk-body tr.rk-detail[data-item='{item}']")


def marks(detail, side, system=0, ref=0):
    """The highlighted pieces of one text of an opened row."""
    box = detail.find_element("css selector", f".rk-text[data-side='{side}']"
                              f"[data-system='{system}'][data-ref='{ref}']")
    return [m.get_attribute("textContent")
            for m in box.find_elements("css selector", "mark.rk-hit")], \
        box.get_attribute("textContent")


def matched(explanation, side):
    return [piece for piece, hit in explanation.segments(side) if hit]


def rounded(values):
    return [round(v, 4) for v in values]


# --- PNG, without Pillow ------------------------------------------------------------

def png_colours(data):
    """The number of distinct colours of an 8-bit RGB or RGBA PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at, idat, header = 8, b"", None
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        chunk = data[at + 8:at + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", chunk)
        elif kind == b"IDAT":
            idat += chunk
        at += 12 + length
    width, height, depth, colour_type = header[:4]
    assert depth == 8 and colour_type in (2, 6), header
    bpp = 3 if colour_type == 2 else 4
    raw, stride = zlib.decompress(idat), width * bpp
    previous, colours = bytearray(stride), set()
    for y in range(height):
        kind, row = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            left = row[x - bpp] if x >= bpp else 0
            up, corner = previous[x], previous[x - bpp] if x >= bpp else 0
            if kind == 1:
                row[x] = (row[x] + left) & 255
            elif kind == 2:
                row[x] = (row[x] + up) & 255
            elif kind == 3:
                row[x] = (row[x] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                row[x] = (row[x] + (left if pa <= pb and pa <= pc else up if pb <= pc
                                    else corner)) & 255
        colours.update(bytes(row[x:x + 3]) for x in range(0, stride, bpp))
        previous = row
    return len(colours)


# --- the tests ------------------------------------------------------------------------

def test_the_browser_is_offline(browser, tmp_path):
    """What the page would fetch fails, and the failure is a SEVERE entry:
    so the reports' empty logs mean they fetched nothing."""
    page = tmp_path / "fetches.html"
    page.write_text('<!doctype html><title>x</title><script src="https://cdn.plot.ly/'
                    'plotly-2.35.2.min.js"></script><p>x</p>', encoding="utf-8")
    browser.get_log("browser")
    browser.get(page.as_uri())
    errors = severe(browser)
    assert errors and "cdn.plot.ly" in errors[0]["message"], errors
    assert browser.execute_script("return typeof Plotly") == "undefined"


def test_single_report_offline_no_console_errors(browser, single_page, small):
    _, _, _, result = small
    assert open_page(browser, single_page) == []
    page = browser.find_element("css selector", "body").text
    assert result.signature in page
    assert "A <b>test</b> report" in browser.title        # escaped, shown as text
    for t in TYPES:
        s, iv = result.scores[t], result.intervals[t]
        assert f"{s.fmeasure:.4f}" in page and f"[{iv.low.fmeasure:.4f}, " in page
    # the histograms' bars are drawn, with a size
    sizes = browser.execute_script(
        "return Array.from(document.querySelectorAll('#rk-figure-histograms rect')).map("
        "r => r.getBoundingClientRect()).map(b => b.width * b.height)")
    assert len(sizes) >= len(TYPES) and min(sizes) > 0


def test_sorting_by_a_score_column(browser, single_page, small):
    _, _, _, result = small
    open_page(browser, single_page)
    f = sorted(rounded(item["rougeL"].fmeasure for item in result.per_item))
    header = "#rk-table th[data-sort='2:0']"          # rougeL, system A
    click(browser, header)
    up = column(browser, 3)
    assert up == sorted(up) and up[0] == f[0] and len(up) == 50
    click(browser, header)
    down = column(browser, 3)
    assert down == sorted(down, reverse=True) and down[0] == f[-1]
    # the measure selector changes the column to recall, still in order
    browser.find_element("css selector", "#rk-measure option[value='1']").click()
    recall = column(browser, 3)
    assert recall == sorted(recall, reverse=True)
    assert recall[0] == max(rounded(item["rougeL"].recall for item in result.per_item))
    browser.find_element("css selector", "#rk-measure option[value='2']").click()
    click(browser, "#rk-worst")                          # worst rouge1 F first
    worst = column(browser, 1)
    assert worst == sorted(worst)
    assert worst[0] == min(rounded(item["rouge1"].fmeasure for item in result.per_item))
    assert severe(browser) == []


def test_search_and_paging(browser, single_page, small):
    a, _, refs, _ = small
    open_page(browser, single_page)
    assert "of 5 (240 items)" in browser.find_element("css selector", "#rk-page").text
    click(browser, "#rk-next")
    assert column(browser, 0)[0] == 50
    search(browser, "kite near")
    # every item's texts are in a file of 240 items: all are searched
    want = [i for i, c in enumerate(a) if "kite near" in "\n".join([c, *refs[i]])]
    assert want and column(browser, 0) == want


def test_a_row_opens_to_the_highlighted_matches(browser, single_page, small):
    a, _, refs, _ = small
    open_page(browser, single_page)
    for item in (3, 9):                      # the tricky one; one with two references
        detail = open_item(browser, item)
        explained = [rougekit.explain(ref, a[item], TYPES) for ref in refs[item]]
        for k, t in enumerate(TYPES):
            detail.find_elements("css selector", ".rk-types button")[k].click()
            for r, e in enumerate(explained):
                got, shown = marks(detail, "target", ref=r)
                assert shown == refs[item][r] and got == matched(e[t], "target"), (item, t)
                got, shown = marks(detail, "prediction", ref=r)
                assert shown == a[item] and got == matched(e[t], "prediction"), (item, t)
                assert got or item != 3, (item, t)     # the tricky item matches in each type
    # the markup in item 3 is text (compared above), not an element
    assert not browser.find_elements("css selector", "#rk-body script")
    assert severe(browser) == []


def test_compare_report(browser, compare_page, small):
    folder, out = compare_page
    a, b, refs, _ = small
    proc = run_cli("compare", "--jsonl", write_compare_jsonl(folder, a, b, refs),
                   "--rouge-types", ",".join(TYPES), "--bootstrap", 300, "--ar-trials", 999,
                   "--format", "json")
    assert proc.returncode == 0, proc.stderr
    tests = json.loads(proc.stdout)["results"]
    assert open_page(browser, out) == []
    rows = browser.execute_script(
        "return Array.from(document.querySelectorAll('#rk-tests tbody tr')).map("
        "r => Array.from(r.children).map(c => c.textContent))")
    for row, t in zip(rows, TYPES):
        r = tests[t]["fmeasure"]
        p_bootstrap = "< 0.0034" if r["p_bootstrap"] == 0 else f"{r['p_bootstrap']:.4f}"
        assert row == [t, f"{r['a']:.4f}", f"{r['b']:.4f}", f"{r['diff']:+.4f}",
                       f"[{r['ci_low']:+.4f}, {r['ci_high']:+.4f}]",
                       p_bootstrap, f"{r['p_ar']:.4f}"]
    # one point per item and type in the scatter plot, bars for the differences
    assert len(browser.find_elements("css selector", "#rk-figure-scatter circle")) == \
        len(TYPES) * len(a)
    assert browser.find_elements("css selector", "#rk-figure-differences rect")
    # the differences column, sorted: the item where B gains most comes first
    click(browser, "#rk-table th[data-sort='0:d']")
    click(browser, "#rk-table th[data-sort='0:d']")
    diffs = column(browser, 3)
    assert diffs == sorted(diffs, reverse=True)
    scored = [rougekit.score_corpus(s, refs, TYPES).per_item for s in (a, b)]
    gains = [round(y["rouge1"].fmeasure, 4) - round(x["rouge1"].fmeasure, 4)
             for x, y in zip(*scored)]
    assert diffs[0] == pytest.approx(max(gains), abs=1e-9)
    item = int(column(browser, 0)[0])
    detail = open_item(browser, item)
    for s, system in enumerate((a, b)):
        e = rougekit.explain(refs[item][0], system[item], TYPES)["rouge1"]
        assert marks(detail, "target", system=s)[0] == matched(e, "target")
        assert marks(detail, "prediction", system=s)[0] == matched(e, "prediction")
    assert severe(browser) == []


def write_compare_jsonl(folder, a, b, refs):
    path = folder / "both.jsonl"
    with open(path, "w", encoding="utf-8") as f:
        for x, y, r in zip(a, b, refs):
            f.write(json.dumps({"candidate_a": x, "candidate_b": y, "references": r}) + "\n")
    return path


def test_screenshot_is_not_blank(browser, compare_page, tmp_path):
    _, out = compare_page
    assert open_page(browser, out) == []
    open_item(browser, 3)
    browser.execute_script("window.scrollTo(0, 0)")
    shot = tmp_path / "report.png"
    browser.save_screenshot(str(shot))
    data = shot.read_bytes()
    assert png_colours(data) > 50
    keep = os.environ.get("ROUGEKIT_REPORT_SCREENSHOT")
    if keep:
        shutil.copyfile(shot, keep)


def test_report_of_100000_items(browser, tmp_path):
    """The file stays under 20 MB and opens, sorts and opens a row; its
    size and build time are measured by benchmarks/bench_report.py."""
    n = 100_000
    a, b, refs = corpus(n, seed=3)
    start = time.perf_counter()
    # no intervals and few resamples: the size does not depend on them, CI time does
    result_a = rougekit.score_corpus(a, refs, TYPES)
    result_b = rougekit.score_corpus(b, refs, TYPES)
    page = result_a.to_html(a, refs, compare=result_b, compare_candidates=b,
                            bootstrap=100, ar_trials=200)
    built = time.perf_counter() - start
    path = tmp_path / "big.html"
    path.write_text(page, encoding="utf-8")
    size = path.stat().st_size
    print(f"100,000 items, two systems: {size:,} bytes, built in {built:.1f} s")
    assert size < MAX_BYTES
    assert open_page(browser, path) == []
    assert "of 2,000 (100,000 items)" in browser.find_element("css selector", "#rk-page").text
    click(browser, "#rk-table th[data-sort='1:1']")   # rouge2 of B, ascending
    up = column(browser, 5)
    assert up == sorted(up)
    assert up[0] == min(round(item["rouge2"].fmeasure, 4) for item in result_b.per_item)
    item = int(column(browser, 0)[0])      # among the worst: its texts are in the file
    detail = open_item(browser, item)
    e = rougekit.explain(refs[item][0], b[item], TYPES)["rouge1"]
    assert marks(detail, "prediction", system=1)[0] == matched(e, "prediction")
    assert severe(browser) == []


# --- without a browser ------------------------------------------------------------------

def test_the_page_escapes_user_text(small):
    a, _, refs, result = small
    page = result.to_html(a, refs, title="<i>t</i>")
    assert "<i>t</i>" not in page and "&lt;i&gt;t&lt;/i&gt;" in page
    assert "<script>alert" not in page
    assert "\\u003cscript\\u003ealert" in page      # in the payload, as Jinja2's |tojson
    # the payload and the table's code; the one figure is SVG
    assert page.count("<script") == 2 and 'id="rk-figure-histograms"' in page


def test_the_plots_and_the_signature_escape_their_text(small):
    """The SVG's titles and tooltips, and the signature's fields, are
    autoescaped like the rest of the page: a rouge type named with markup
    (a hand-made result) stays text in the plots, the tables and the data."""
    import dataclasses
    _, _, _, result = small
    odd = "<b onload=x>&"

    def renamed(scores):
        return {odd if t == "rouge2" else t: s for t, s in scores.items()}
    strange = dataclasses.replace(
        result, scores=renamed(result.scores), intervals=renamed(result.intervals),
        per_item=[renamed(item) for item in result.per_item],
        signature=result.signature.replace("|stem:", f"|{odd}|stem:"))
    page = strange.to_html(compare=strange)
    assert "<b onload" not in page and "onload=x>" not in page
    escaped = "&lt;b onload=x&gt;&amp;"
    assert f'aria-label="{escaped}"' in page                      # each figure's panel
    titles = re.findall(r'<text class="rk-plot-title"[^>]*>([^<]*)</text>', page)
    assert titles.count(escaped) == 3                    # histograms, differences, scatter
    assert f"<span>{escaped}</span>" in page                      # the signature's field


def test_without_the_extra_the_error_names_it(small, monkeypatch, capsys, tmp_path):
    a, _, refs, result = small
    monkeypatch.setitem(sys.modules, "jinja2", None)
    with pytest.raises(ImportError, match=r"pip install 'rougekit\[report\]'"):
        result.to_html(a, refs)
    from rougekit.cli import main
    path = write_jsonl(tmp_path / "a.jsonl", a[:5], refs[:5])
    assert main(["report", "--jsonl", str(path), "-o", str(tmp_path / "r.html")]) == 2
    err = capsys.readouterr().err
    assert "pip install 'rougekit[report]'" in err and len(err.splitlines()) == 1


def test_cli_report_checks_its_input(small, tmp_path):
    a, b, refs, _ = small
    one = write_jsonl(tmp_path / "a.jsonl", a[:5], refs[:5])
    other = write_jsonl(tmp_path / "b.jsonl", b[:5], refs[1:6])
    proc = run_cli("report", "--jsonl", one, "--compare", other, "-o", tmp_path / "r.html")
    assert proc.returncode == 2 and "different references (item 0)" in proc.stderr
    shorter = write_jsonl(tmp_path / "c.jsonl", b[:4], refs[:4])
    proc = run_cli("report", "--jsonl", one, "--compare", shorter, "-o", tmp_path / "r.html")
    assert proc.returncode == 2 and "has 5 items but" in proc.stderr
    proc = run_cli("report", "--jsonl", one, "-o", tmp_path / "r.html", "--bootstrap", 0)
    assert proc.returncode == 0, proc.stderr
    size = (tmp_path / "r.html").stat().st_size
    assert f"5 items, {size:,} bytes" in proc.stdout and size > 10_000


def test_per_item_scores_are_needed(small):
    _, _, _, result = small
    import dataclasses
    with pytest.raises(ValueError, match="per-item"):
        dataclasses.replace(result, per_item=None).to_html()


# --- small and light ----------------------------------------------------------------------

LONG_TOKEN = "https://example.org/" + "x" * 300        # no break opportunity in it


@pytest.fixture(scope="module")
def twelve(tmp_path_factory):
    """A two-system report of 12 items (one with a 320-character token), and
    its parts."""
    a, b, refs = corpus(12, seed=5)
    a[5] += " " + LONG_TOKEN
    refs[5][0] += " " + LONG_TOKEN
    results = [rougekit.score_corpus(s, refs, TYPES, bootstrap=100, seed=1) for s in (a, b)]
    page = results[0].to_html(a, refs, compare=results[1], compare_candidates=b)
    path = tmp_path_factory.mktemp("twelve") / "twelve.html"
    path.write_text(page, encoding="utf-8")
    return a, b, refs, results, path


def payload(page):
    """The item data of a report (its rk-data script)."""
    start = page.index('<script type="application/json" id="rk-data">')
    return json.loads(page[page.index(">", start) + 1:page.index("</script>", start)])


def panels(page, key):
    """Per panel of a figure: its y tick labels and its bars as (series, count)."""
    start = page.index(f'id="rk-figure-{key}"')
    figure = page[start:page.index("</div>\n</div>", start)]
    out = []
    for svg in figure.split('<svg class="rk-panel"')[1:]:
        ticks = re.search(r'<g class="rk-y-ticks">(.*?)</g>', svg).group(1)
        out.append((re.findall(r">([^<]*)</text>", ticks),
                    [(int(s), int(c)) for s, c in
                     re.findall(r'data-series="(\d+)" data-count="(\d+)"', svg)]))
    return out


def test_a_report_of_12_items_is_under_1_mb(twelve):
    """No plotting library in the file (4.9 MB of plotly.js at 8f63ea3)."""
    a, _, refs, results, path = twelve
    assert path.stat().st_size < 1_000_000
    assert len(results[0].to_html(a, refs).encode("utf-8")) < 1_000_000


def test_histogram_count_axes_have_integer_ticks(twelve):
    a, _, _, results, path = twelve
    page = path.read_text(encoding="utf-8")
    for key, series in (("histograms", (0, 1)), ("differences", (2,))):
        figure = panels(page, key)
        assert len(figure) == len(TYPES)
        for ticks, bars in figure:
            values = [int(t.replace(",", "")) for t in ticks]     # integers, or ValueError
            assert values[0] == 0 and len(set(values[k + 1] - values[k]
                                              for k in range(len(values) - 1))) == 1
            assert max(c for _, c in bars) <= values[-1]
            for s in series:                                     # every item in one bar
                assert sum(c for t, c in bars if t == s) == len(a), (key, s)


def test_p_below_the_bootstrap_resolution_says_so():
    """Five items, B better on each: no resample goes the other way (p = 0,
    below 1/1,000), while approximate randomization's p is large."""
    refs = [["the cat sat on the mat"], ["a dog ran in the park"], ["red ball and blue kite"],
            ["old house near the river"], ["the tree by the bank"]]
    a = ["the cat", "a dog", "red ball", "old house", "the tree"]
    b = ["the cat sat on", "a dog ran in", "red ball and blue", "old house near the",
         "the tree by the"]
    ra, rb = (rougekit.score_corpus(s, refs, ["rouge1"], bootstrap=50, seed=1) for s in (a, b))
    from rougekit.significance import compare_systems
    columns = [[[x for x in item["rouge1"]] for item in r.per_item] for r in (ra, rb)]
    want = compare_systems(*(list(zip(*c)) for c in columns), ["rouge1"], 1000, 0.95,
                           10000)["rouge1"]["fmeasure"]
    assert want["p_bootstrap"] == 0 and want["p_ar"] > 0.05
    page = ra.to_html(a, refs, compare=rb, compare_candidates=b)
    row = re.search(r'<table id="rk-tests">.*?<tbody>\s*<tr>(.*?)</tr>', page, re.S).group(1)
    cells = re.findall(r"<t[hd][^>]*>([^<]*)</t[hd]>", row)
    assert cells[-2:] == ["&lt; 0.001", f"{want['p_ar']:.4f}"]
    note = re.search(r'<p class="rk-note" id="rk-tests-note">(.*?)</p>', page, re.S).group(1)
    assert "resolution is 1/1,000" in note and "&ldquo;&lt; 0.001&rdquo;" in note
    # and with 300 resamples, 1/300 rounded up
    page = ra.to_html(a, refs, compare=rb, compare_candidates=b, bootstrap=300)
    assert ">&lt; 0.0034</td>" in page


SENTENCES = ["The cat sat on the mat. The dog ran in the park.",
             "A man walked in. He sat down at once."]


def test_each_warning_is_given_once_with_compare(tmp_path):
    """The one-sentence-per-line warning of rougeLsum: once per command, and
    the report does not give it again for texts that were scored."""
    refs = [["The cat was on the mat. A dog ran."], ["A man came in. He sat."]]
    b = ["The cat sat. The dog ran off.", "A woman walked in. She sat."]
    one = write_jsonl(tmp_path / "a.jsonl", SENTENCES, refs)
    other = write_jsonl(tmp_path / "b.jsonl", b, refs)
    proc = run_cli("report", "--jsonl", one, "--compare", other, "-o", tmp_path / "r.html",
                   "--bootstrap", 50, "--ar-trials", 99)
    assert proc.returncode == 0, proc.stderr
    warned = [line for line in proc.stderr.splitlines() if "warning" in line]
    assert len(warned) == 1 and "rougeLsum" in warned[0], proc.stderr
    import warnings
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ra = rougekit.score_corpus(SENTENCES, refs, TYPES)
        rb = rougekit.score_corpus(b, refs, TYPES)
        assert len(caught) == 2                              # one per scoring
        ra.to_html(SENTENCES, refs, compare=rb, compare_candidates=b, bootstrap=50,
                   ar_trials=99)
    assert len(caught) == 2, [str(w.message) for w in caught[2:]]


def words(rng, k):
    return " ".join(rng.choice(WORDS) + str(rng.randrange(1000)) for _ in range(k))


def test_a_long_item_is_shown_without_explaining_it(monkeypatch):
    """One item of 55,000 words a side among short ones: over the pair
    limit (50,000 a side; before the compiled alignment, explaining such a
    pair hung), so it is not explained; its texts are in the file, cut, and
    its row says why."""
    rng = random.Random(4)
    long_ref, long_cand = words(rng, 55_000), words(rng, 55_000)
    a, _, refs = corpus(4)
    a[2], refs[2] = long_cand, [long_ref]
    result = rougekit.score_corpus(a, refs, TYPES)
    import rougekit.report as report
    explained = []

    def explain_short(pairs, target, prediction):
        assert len(target) < 10_000 and len(prediction) < 10_000, "explained a long item"
        explained.append(prediction)
        return rougekit.explanation.explain_pair(pairs, target, prediction)
    monkeypatch.setattr(report, "explain_pair", explain_short)
    page = result.to_html(a, refs)
    details = {d["i"]: d for d in payload(page)["details"]}
    assert set(explained) == {a[i] for i in (0, 1, 3)}
    long = details[2]
    assert long["marks"] is None and "55,000 tokens" in long["note"]
    assert long["cands"] == [long_cand[:report.TEXT_MAX]] and \
        long["refs"] == [long_ref[:report.TEXT_MAX]]
    assert f"texts of {len(long_ref):,}, {len(long_cand):,} characters" in long["note"]
    assert all(details[i]["marks"] is not None and details[i]["note"] == "" for i in (0, 1, 3))
    assert "1 of them is shown without highlights" in page


def test_the_explain_budget_goes_to_the_shortest_items(monkeypatch):
    """Over EXPLAIN_BUDGET token pairs in all, the longest items are shown
    plain; an explained text cut to the shown length keeps its marks in it."""
    import rougekit.report as report
    a = ["w1 w2 w3 w4 w5", "w1 w2", "w1 w2 w3 w4"]
    refs = [["w1 w2 w3 w4"], ["w2 w1 w3"], ["w3 w2 w1 w4"]]    # costs 20, 6, 16
    result = rougekit.score_corpus(a, refs, TYPES)
    monkeypatch.setattr(report, "EXPLAIN_BUDGET", 22)
    monkeypatch.setattr(report, "TEXT_MIN", 8)
    monkeypatch.setattr(report, "TEXT_MAX", 8)
    details = payload(result.to_html(a, refs))["details"]
    assert [d["marks"] is None for d in details] == [True, False, False]
    assert "this item's 20 did not fit" in details[0]["note"]
    assert details[0]["cands"] == ["w1 w2 w3"] and "cut to their first 8" in details[0]["note"]
    # rouge1's marks: item 1 whole; item 2's texts cut at 8, their matches too
    assert details[1]["marks"][0][0][0][:2] == [[0, 5], [0, 5]]
    assert details[2]["refs"] == ["w3 w2 w1"] and details[2]["cands"] == ["w1 w2 w3"]
    assert details[2]["marks"][0][0][0][:2] == [[0, 8], [0, 8]]


# --- in the browser, at a laptop's width --------------------------------------------------

def at_width(driver, width):
    driver.set_window_size(width, 1000)
    assert driver.execute_script("return window.innerWidth") == width


def scrolls_sideways(driver):
    return driver.execute_script("var e = document.documentElement; "
                                 "return [e.scrollWidth, e.clientWidth]")


def test_no_horizontal_scroll_at_1400_px(browser, twelve, single_page):
    _, _, _, _, path = twelve
    try:
        at_width(browser, 1400)
        for page in (path, single_page):
            assert open_page(browser, page) == []
            if page == path:
                detail = open_item(browser, 5)                   # the 320-character token
                assert LONG_TOKEN in detail.text.replace("\n", "")
                search(browser, "")
            width, client = scrolls_sideways(browser)
            assert width <= client, (page.name, width, client)
            # the items' table fits too: no scroll box of its own
            assert browser.execute_script(
                "var b = document.querySelector('.rk-table-box'); "
                "return b.scrollWidth <= b.clientWidth")
    finally:
        browser.set_window_size(1280, 1600)


def test_the_signature_wraps_only_between_fields(browser, twelve):
    _, _, _, results, path = twelve
    signature = results[0].signature
    assert open_page(browser, path) == []
    code = browser.find_element("css selector", "code.rk-signature")
    assert code.get_attribute("textContent") == signature
    # in a narrow column it takes several lines, each field whole on one
    browser.execute_script("arguments[0].parentElement.style.width = '300px'", code)
    assert browser.execute_script("return arguments[0].getClientRects().length", code) >= 3
    # and a column narrower than a field does not break it (at "-" in tok:rouge-score)
    fields = browser.execute_script("""
        var code = arguments[0], box = code.parentElement;
        return Array.from(code.querySelectorAll('span')).map(function (s) {
          box.style.width = '';
          box.style.width = (s.getBoundingClientRect().width - 1) + 'px';
          return [s.textContent, s.getClientRects().length];
        });""", code)
    assert [f for f, _ in fields] == signature.split("|") and "-" in signature
    assert all(n == 1 for _, n in fields), fields
