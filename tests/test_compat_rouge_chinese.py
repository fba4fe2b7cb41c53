"""rougekit.compat.rouge_chinese gives rouge-chinese 1.0.3's results and exceptions.

As tests/test_compat_rouge.py, against the real ``rouge_chinese`` run here:
jieba-segmented Chinese texts (``" ".join(jieba.cut(text))``, the way
Chinese evaluation scripts call it), its sentence splitter (``cut_sent``),
every option, the ``rouge_score`` module, ``FilesRouge``, the exceptions,
long texts (its ROUGE-L is the LCS of the whole texts: checked against a
plain LCS table, and at 5,000 words against numbers known in closed form),
the ``rouge_chinese`` command (``rougekit compat rouge_chinese``) and
``install_as("rouge_chinese")``.
"""
import json
import logging
import random
import subprocess
import sys
import textwrap
import zlib

import jieba
import pytest
import rouge_chinese as real
import rouge_chinese.rouge_score as real_rouge_score

from _compat import (
    ALL_METRICS,
    CALL_PARAMS,
    config_params,
    get_scores_mismatches,
    lcs_table,
    outcome,
    packages_f,
    random_batches,
    random_text,
    require_recorded_files,
)
from _helpers import child_env, sweep
from rougekit.compat import rouge_chinese as ours
from rougekit.compat.rouge_chinese import rouge_score as our_rouge_score

pytestmark = pytest.mark.backend

jieba.setLogLevel(logging.WARNING)

CONFIGS = {
    "defaults": {},
    "every-metric": {"metrics": ALL_METRICS},
    "rouge-l-upper-case": {"metrics": ["ROUGE-L"]},
    "stats-f-p": {"stats": ["f", "P"]},
    "lengths": {"return_lengths": True, "metrics": ALL_METRICS},
    "raw": {"raw_results": True, "metrics": ALL_METRICS},
    "not-exclusive": {"exclusive": False, "metrics": ALL_METRICS},
    "not-exclusive-raw-lengths": {"exclusive": False, "raw_results": True,
                                  "return_lengths": True},
}
CONFIG_PARAMS = config_params(CONFIGS)

# Sentences with the end marks cut_sent splits on (。！？? six dots, two
# ellipses, a mark before a closing quote) and the ones it does not (.,，)
SENTENCES = ["我爱北京天安门。", "今天天气很好！", "你吃饭了吗？", "他说：“好的。”然后走了",
             "这是一个测试……", "人工智能正在改变世界", "......", "Hello world. 好的",
             "?", "！！", "数据，模型，和训练。", "“真的吗？”", "模型的效果很好。。。",
             "北京 上海 广州", "他看了看……又看了看", "天气预报说明天会下雨"]
# Random texts of single characters and marks, segmented by spaces at random
CHARACTERS = list("我你他的了是在有和大中国北京天气好。！？?…….，”’“ ") + ["......", "……"]


@pytest.fixture(scope="module", autouse=True)
def real_rouge_chinese_is_installed_as_recorded():
    require_recorded_files("rouge-chinese", ("rouge_chinese/",))


def _both(call):
    return outcome(lambda: call(ours, our_rouge_score)), outcome(lambda: call(real, real_rouge_score))


def segmented(text):
    return " ".join(jieba.cut(text))


def _jieba_text(rng):
    return segmented("".join(rng.choice(SENTENCES) for _ in range(rng.randint(0, 6))))


def _character_text(rng):
    return random_text(rng, CHARACTERS, ["", "", " ", "  "], max_len=25)


@pytest.mark.parametrize("avg,ignore_empty", CALL_PARAMS)
@pytest.mark.parametrize("config", CONFIG_PARAMS)
def test_get_scores_equals_rouge_chinese_on_jieba_segmented_texts(config, avg, ignore_empty):
    seed = zlib.crc32(repr((config, avg, ignore_empty)).encode())
    batches = random_batches(seed, sweep(100, 30), _jieba_text)
    batches += random_batches(seed + 1, sweep(100, 30), _character_text)
    failures = get_scores_mismatches(_both, config, batches, "rouge-chinese",
                                     avg=avg, ignore_empty=ignore_empty)
    assert not failures, "\n".join(failures[:3])


# The kernel (_core/_pltrdy_counts) splits words on whitespace and compares
# them in C: every kind of whitespace str.split() knows, astral and
# lone-surrogate words; and whole texts past its LCS's mask table (512 words).
UNICODE_WORDS = ["我", "爱", "我", "é", "𝕏", "\ud800", "x", "", "。", "？", "……", "”"]
UNICODE_BREAKS = [" ", "  ", "\t", "\xa0", "\u3000", "\x1c", "\x85", "\u2028", "\n"]


@pytest.mark.parametrize("config", [CONFIGS[k] for k in ("every-metric", "not-exclusive")],
                         ids=["every-metric", "not-exclusive"])
def test_get_scores_equals_rouge_chinese_on_any_whitespace_and_long_texts(config):
    rng = random.Random(zlib.crc32(repr(config).encode()))
    batches = random_batches(rng.randint(0, 9999), sweep(60, 20),
                             lambda r: random_text(r, UNICODE_WORDS, UNICODE_BREAKS))
    for _ in range(sweep(3, 1)):
        long_text = " 。 ".join(" ".join(rng.choice("我你他的了是") for _ in range(200))
                               for _ in range(3))
        batches.append(([long_text], [long_text[::-1]]))
    failures = get_scores_mismatches(_both, config, batches, "rouge-chinese")
    assert not failures, "\n".join(failures[:3])


EDGE_TEXTS = ["", " ", "。", "？？？", "……", "......", ".", "“好。”", "我 我 我 我",
              "我 。 我 。", "a. b", "我  爱", "\t\n", "北京 ！ 上海 ？ 广州", "好 的 。 ” 他",
              segmented("我爱北京天安门。天安门上太阳升！"), segmented("他说：“好的。”然后走了")]


@pytest.mark.parametrize("config", [CONFIGS[k] for k in ("defaults", "raw", "not-exclusive")],
                         ids=["defaults", "raw", "not-exclusive"])
def test_get_scores_equals_rouge_chinese_on_edge_texts(config):
    failures = []
    for hyp in EDGE_TEXTS:
        for ref in EDGE_TEXTS:
            for avg in (False, True):
                mine, theirs = _both(lambda m, _: m.Rouge(**config).get_scores(hyp, ref, avg=avg))
                if mine != theirs:
                    failures.append(f"{hyp!r} / {ref!r} avg={avg}: {mine} != {theirs}")
    assert not failures, "\n".join(failures[:5])


def test_cut_sent_equals_rouge_chineses():
    rng = random.Random(11)
    marks = list("。！？?.…”’，a ") + ["......", "……", "\n"]
    texts = ["".join(rng.choice(marks) for _ in range(rng.randint(0, 12)))
             for _ in range(sweep(3000, 800))] + SENTENCES
    for text in texts:
        assert ours.Rouge().cut_sent(text) == real.Rouge().cut_sent(text), repr(text)


ERRORS = {
    "empty-hypothesis": lambda m: m.Rouge().get_scores("", "我 爱"),
    "empty-reference": lambda m: m.Rouge().get_scores("我 爱", ""),
    "blank-after-rstrip": lambda m: m.Rouge().get_scores("我", " \n "),
    "empty-for-rouge-l": lambda m: m.Rouge(metrics=["rouge-l"]).get_scores("", "我"),
    "unknown-metric": lambda m: m.Rouge(metrics=["rouge-w"]),
    "unknown-stat": lambda m: m.Rouge(stats=["precision"]),
    "list-and-tuple": lambda m: m.Rouge().get_scores(["我"], ("我",)),
    "unequal-lengths": lambda m: m.Rouge().get_scores(["我", "你"], ["我"]),
    "ignore-empty-leaves-nothing": lambda m: m.Rouge().get_scores([""], ["我"],
                                                                  ignore_empty=True),
    "raw-results-with-avg": lambda m: m.Rouge(raw_results=True).get_scores(["我"], ["我"],
                                                                           avg=True),
    "avg-of-nothing": lambda m: m.Rouge().get_scores([], [], avg=True),
    "none-text": lambda m: m.Rouge().get_scores([None], ["我"]),
    "bytes-text": lambda m: m.Rouge().get_scores([b"x"], ["我"]),
}


@pytest.mark.parametrize("call", list(ERRORS.values()), ids=list(ERRORS))
def test_rouge_chinese_raises_what_rouge_chinese_raises(call):
    mine, theirs = _both(lambda m, _: call(m))
    assert theirs[0] != "ok", "not an error case any more"
    assert mine == theirs


def test_rouge_score_functions_equal_rouge_chineses():
    rng = random.Random(12)
    failures = []
    for _ in range(sweep(300, 100)):
        hyp = [_jieba_text(rng) for _ in range(rng.randint(0, 3))]
        ref = [_jieba_text(rng) for _ in range(rng.randint(0, 3))]
        for exclusive in (True, False, None):
            calls = {
                "rouge_l": lambda rs: rs.rouge_l_summary_level(hyp, ref, exclusive=exclusive),
                "rouge_l-raw": lambda rs: rs.rouge_l_summary_level(hyp, ref, raw_results=True),
                "rouge_n-2": lambda rs: rs.rouge_n(hyp, ref, 2, exclusive=bool(exclusive)),
                "multi_rouge_n": lambda rs: rs.multi_rouge_n([hyp, ref], [(0, 1), (1, 1)], 1),
                "_len_lcs": lambda rs: rs._len_lcs(" ".join(ref).split(" "),
                                                   " ".join(hyp).split(" ")),
            }
            for name, call in calls.items():
                mine, theirs = _both(lambda _, rs: call(rs))
                if mine != theirs:
                    failures.append(f"{name} {hyp!r} / {ref!r}: {mine} != {theirs}")
    assert not failures, "\n".join(failures[:5])


def test_public_names_equal_rouge_chineses():
    imported = {"six", "itertools", "deepcopy", "absolute_import", "division",
                "print_function", "unicode_literals"}
    theirs = {n for n in dir(real_rouge_score) if not n.startswith("__")} - imported
    assert theirs <= set(dir(our_rouge_score))
    assert set(dir(real.Rouge)) - set(dir(ours.Rouge)) == set()
    assert ours.Rouge.AVAILABLE_METRICS.keys() == real.Rouge.AVAILABLE_METRICS.keys()
    assert ours.__version__ == real.__version__ == "1.0.3"


def test_long_texts_equal_rouge_chinese_and_a_plain_lcs():
    rng = random.Random(13)
    hyp = " ".join(rng.choice("我你他的了是在有和大中国") for _ in range(800))
    ref = " ".join(rng.choice("我你他的了是在有和大中国") for _ in range(700))
    mine, theirs = _both(lambda m, _: m.Rouge(exclusive=False).get_scores(hyp, ref))
    assert mine == theirs
    hyp = " ".join(f"词{rng.randrange(300)}" for _ in range(1500))
    ref = " ".join(f"词{rng.randrange(300)}" for _ in range(1400))
    hits = lcs_table(ref.split(), hyp.split())[-1][-1]
    r, p = hits / 1400, hits / 1500
    assert ours.Rouge(metrics=["rouge-l"]).get_scores(hyp, ref) == [
        {"rouge-l": {"r": r, "p": p, "f": packages_f(p, r)}}]


def test_texts_of_5000_words_score():
    words = [f"词{i}" for i in range(5000)]
    same, backwards = " ".join(words), " ".join(reversed(words))
    assert ours.Rouge().get_scores(same, same)[0]["rouge-l"] == {
        "r": 1.0, "p": 1.0, "f": packages_f(1.0, 1.0)}
    one = 1 / 5000
    assert ours.Rouge().get_scores(backwards, same)[0]["rouge-l"] == {
        "r": one, "p": one, "f": packages_f(one, one)}


def _write(path, text):
    path.write_bytes(text.encode("utf-8"))
    return str(path)


def test_files_rouge_equals_rouge_chineses(tmp_path):
    hyp = _write(tmp_path / "hyp.txt", segmented("我爱北京天安门。天安门上太阳升") + "\n\n你好")
    ref = _write(tmp_path / "ref.txt", "我 爱 天安门\n我\n你好\n")
    for avg in (False, True):
        for ignore_empty in (False, True):
            mine, theirs = _both(lambda m, _: m.FilesRouge(metrics=["rouge-1", "rouge-l"])
                                 .get_scores(hyp, ref, avg=avg, ignore_empty=ignore_empty))
            assert mine == theirs
    mine, theirs = _both(lambda m, _: m.FilesRouge().get_scores(hyp, str(tmp_path / "no")))
    assert theirs[0] == "AssertionError" and mine == theirs


@pytest.mark.parametrize("args,metrics,stats,avg", [
    (["我 爱 北京 。 天安门", "我 爱 天安门"], None, None, False),
    (["-a", "我 爱 北京", "我 爱 上海", "--metrics", "1", "L", "--stats", "F"],
     ["rouge-1", "rouge-l"], ["F"], True),
], ids=["text", "text-avg-metrics-stats"])
def test_compat_rouge_chinese_command_prints_what_rouge_chinese_prints(args, metrics, stats,
                                                                        avg):
    proc = subprocess.run([sys.executable, "-m", "rougekit", "compat", "rouge_chinese", *args],
                          capture_output=True, text=True, encoding="utf-8",
                          env=child_env(PYTHONIOENCODING="utf-8"))
    assert (proc.returncode, proc.stderr) == (0, "")
    hyp, ref = [a for a in args if " " in a]
    # what rouge-chinese's bin/rouge_cmd.py prints for these flags
    expected = json.dumps(real.Rouge(metrics, stats).get_scores(hyp, ref, avg=avg), indent=2)
    assert proc.stdout == expected + "\n"


WORKLOAD = """
import json
import rouge_chinese
from rouge_chinese import Rouge
from rouge_chinese.rouge_score import rouge_l_summary_level
hyps = ["我 爱 北京 。 天安门 很 大", "今天 天气 很 好 ！"]
refs = ["我 爱 天安门", "今天 天气 不错"]
out = {"module": Rouge.__module__, "version": rouge_chinese.__version__,
       "scores": repr(Rouge().get_scores(hyps, refs)),
       "avg": repr(Rouge(return_lengths=True).get_scores(hyps, refs, avg=True)),
       "function": repr(rouge_l_summary_level(["a b"], ["b a c"]))}
print(json.dumps(out))
"""


def test_install_as_rouge_chinese_runs_its_code_unchanged_and_uninstalls():
    def run(code):
        proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)],
                              capture_output=True, text=True, encoding="utf-8",
                              env=child_env(PYTHONIOENCODING="utf-8"))
        assert proc.returncode == 0, proc.stderr
        return json.loads(proc.stdout.strip().splitlines()[-1])

    mine = run("import rougekit\nrougekit.install_as('rouge_chinese')\n" + WORKLOAD)
    theirs = run(WORKLOAD)
    assert mine.pop("module") == "rougekit.compat.rouge_chinese.rouge"
    assert theirs.pop("module") == "rouge_chinese.rouge"
    assert mine == theirs
    restored = run("import rougekit, json\nrougekit.install_as('rouge_chinese')\n"
                   "rougekit.uninstall_as('rouge_chinese')\n"
                   "import rouge_chinese\nprint(json.dumps(rouge_chinese.Rouge.__module__))")
    assert restored == "rouge_chinese.rouge"
