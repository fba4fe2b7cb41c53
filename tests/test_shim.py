"""rougekit.shim.install_as_rouge_score: code written for rouge-score runs on rougekit.

Every test runs in a fresh interpreter (a subprocess), since the shim changes
``sys.modules`` for the whole process and this test process has already
imported the real rouge_score. Parity: the same script, written for
rouge-score, runs once under the shim and once on the real rouge-score (in
another subprocess), and prints the same results.
"""
import json
import subprocess
import sys
import textwrap

from _helpers import child_env


def run_python(code, cwd=None):
    """Runs ``code`` in a fresh interpreter with rougekit importable; its stdout."""
    # INSTALL + indented test code: dedent the test code alone
    if code.startswith(INSTALL):
        code = INSTALL + textwrap.dedent(code[len(INSTALL):])
    env = child_env(PYTHONIOENCODING="utf-8")
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)],
                          capture_output=True, text=True, encoding="utf-8",
                          env=env, cwd=cwd)
    assert proc.returncode == 0, "exit %d\n--- stdout\n%s\n--- stderr\n%s" % (
        proc.returncode, proc.stdout, proc.stderr)
    return proc.stdout


def run_json(code, cwd=None):
    return json.loads(run_python(code, cwd).strip().splitlines()[-1])


INSTALL = """
from rougekit.shim import install_as_rouge_score
install_as_rouge_score()
"""

# Code written for rouge-score 0.1.2, untouched: prints its results as JSON
# (reprs, so that int 0 and 0.0, and numpy floats, are told apart).
WORKLOAD = r'''
import json
import numpy as np
from rouge_score import rouge_scorer, scoring, tokenize, tokenizers

TEXTS = [
    ("the cat sat on the mat", "the cat is on the mat"),
    ("A quick brown fox jumped.\nThe dog slept.", "The quick fox jumps\nover the dog"),
    ("", "something"),
    ("Running runners ran", "the runner runs"),
    ("caf\u00e9 na\u00efve 2024 \u00fcber", "cafe naive 2024 uber"),
    ("one two three four", "four three two one"),
]
out = {"module": type(rouge_scorer.RougeScorer(["rouge1"])).__module__}
for stem in (False, True):
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"],
                                      use_stemmer=stem)
    out["score-%s" % stem] = [repr(scorer.score(t, p)) for t, p in TEXTS]
    out["multi-%s" % stem] = [repr(scorer.score_multi([t, p[::-1], "the"], p))
                              for t, p in TEXTS]
    aggregator = scoring.BootstrapAggregator()
    for t, p in TEXTS:
        aggregator.add_scores(scorer.score(t, p))
    np.random.seed(1234)
    out["bootstrap-%s" % stem] = repr(aggregator.aggregate())

class Split(tokenizers.Tokenizer):
    def tokenize(self, text):
        return text.split()

custom = rouge_scorer.RougeScorer(["rouge1", "rougeL"], tokenizer=Split())
out["custom"] = [repr(custom.score(t, p)) for t, p in TEXTS]
out["tokenize"] = [tokenize.tokenize(t, None) for t, _ in TEXTS]
out["tokenizer"] = [tokenizers.DefaultTokenizer(use_stemmer=True).tokenize(t)
                    for t, _ in TEXTS]
out["fmeasure"] = repr(scoring.fmeasure(0.5, 0.25))
print(json.dumps(out))
'''


def test_imports_give_rougekit_modules():
    result = run_json(INSTALL + """
        import importlib, importlib.util, json, sys
        import rouge_score
        from rouge_score import rouge_scorer, scoring, tokenize, tokenizers
        import rouge_score.rouge_scorer as via_dotted
        import rougekit
        out = {
            "same": [rouge_scorer is rougekit.rouge_scorer, scoring is rougekit.scoring,
                     tokenize is rougekit.tokenize, tokenizers is rougekit.tokenizers,
                     via_dotted is rougekit.rouge_scorer,
                     importlib.import_module("rouge_score.scoring") is rougekit.scoring,
                     sys.modules["rouge_score.tokenizers"] is rougekit.tokenizers],
            "scorer_module": type(rouge_scorer.RougeScorer(["rougeL"])).__module__,
            "spec": importlib.util.find_spec("rouge_score") is not None,
            "package": rouge_score.__name__,
            "path": rouge_score.__path__,
            "nltk": "nltk" in sys.modules,
        }
        print(json.dumps(out))
    """)
    assert result == {"same": [True] * 7, "scorer_module": "rougekit.rouge_scorer",
                      "spec": True, "package": "rouge_score", "path": [],
                      "nltk": False}


def test_rouge_score_code_runs_on_rougekit_with_rouge_scores_results():
    ours = run_json(INSTALL + WORKLOAD)
    theirs = run_json(WORKLOAD)  # no shim: the real rouge-score
    assert ours.pop("module") == "rougekit.rouge_scorer"
    assert theirs.pop("module") == "rouge_score.rouge_scorer"
    assert ours == theirs


def test_a_library_importing_rouge_score_at_import_time(tmp_path):
    # code the user cannot edit: a module that imports rouge_score itself
    (tmp_path / "some_metric.py").write_text(textwrap.dedent("""
        from rouge_score import rouge_scorer

        def rouge_l(target, prediction):
            scorer = rouge_scorer.RougeScorer(["rougeL"])
            return type(scorer).__module__, scorer.score(target, prediction)["rougeL"].fmeasure
    """))
    code = """
        import json, some_metric
        print(json.dumps(some_metric.rouge_l("the cat sat", "the cat sat down")))
    """
    ours = run_json(INSTALL + code, cwd=tmp_path)
    theirs = run_json(code, cwd=tmp_path)
    assert ours[0] == "rougekit.rouge_scorer"
    assert theirs[0] == "rouge_score.rouge_scorer"
    assert ours[1] == theirs[1]


def test_install_is_idempotent_and_silent():
    result = run_json("""
        import json, warnings
        warnings.simplefilter("error")
        from rougekit.shim import install_as_rouge_score, is_installed
        first = install_as_rouge_score()
        second = install_as_rouge_score()
        import rouge_score
        print(json.dumps([first is second, rouge_score is first, is_installed()]))
    """)
    assert result == [True, True, True]


def test_already_imported_real_rouge_score_is_replaced_with_a_warning():
    result = run_json("""
        import json, sys, warnings
        import rouge_score.rouge_scorer as real_scorer_module
        import rouge_score.create_pyrouge_files  # a module the shim does not provide
        from rougekit.shim import install_as_rouge_score
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            install_as_rouge_score()
        from rouge_score import rouge_scorer
        try:
            import rouge_score.create_pyrouge_files
            missing = None
        except ModuleNotFoundError as exc:
            missing = type(exc).__name__
        import rouge_score.io
        print(json.dumps({
            "warnings": [(w.category.__name__, str(w.message)) for w in caught],
            "now": type(rouge_scorer.RougeScorer(["rouge1"])).__module__,
            "held": real_scorer_module.__name__,
            "missing": missing,
            "io": rouge_score.io.__name__,
        }))
    """)
    [(category, message)] = result["warnings"]
    assert category == "RuntimeWarning"
    assert "already imported" in message
    assert "rouge_score.rouge_scorer" in message
    assert "rouge_score.create_pyrouge_files" in message
    assert result["now"] == "rougekit.rouge_scorer"
    # a reference taken before the install keeps the real module: the warned mix
    assert result["held"] == "rouge_score.rouge_scorer"
    assert result["missing"] == "ModuleNotFoundError"
    assert result["io"] == "rougekit.io"


def test_strict_refuses_when_already_imported_and_changes_nothing():
    result = run_json("""
        import json, sys
        import rouge_score
        before = dict((k, v) for k, v in sys.modules.items() if k.startswith("rouge_score"))
        from rougekit.shim import install_as_rouge_score
        try:
            install_as_rouge_score(strict=True)
            error = None
        except RuntimeError as exc:
            error = str(exc)
        after = dict((k, v) for k, v in sys.modules.items() if k.startswith("rouge_score"))
        from rouge_score import rouge_scorer
        print(json.dumps({"error": error, "unchanged": before == after,
                          "module": rouge_scorer.__name__}))
    """)
    assert result["error"] and "already imported" in result["error"]
    assert result["unchanged"]
    assert result["module"] == "rouge_score.rouge_scorer"


def test_strict_installs_when_nothing_was_imported():
    result = run_json("""
        from rougekit.shim import install_as_rouge_score
        install_as_rouge_score(strict=True)
        import json
        from rouge_score import rouge_scorer
        print(json.dumps(rouge_scorer.__name__))
    """)
    assert result == "rougekit.rouge_scorer"


def test_uninstall_restores_the_real_rouge_score():
    result = run_json("""
        import json, sys, warnings
        warnings.simplefilter("ignore")
        from rougekit.shim import install_as_rouge_score, uninstall_as_rouge_score, is_installed
        install_as_rouge_score()
        uninstall_as_rouge_score()
        from rouge_score import rouge_scorer as fresh  # imports the real one
        first = (fresh.__name__, is_installed())
        import rouge_score
        real = rouge_score
        install_as_rouge_score()
        replaced = sys.modules["rouge_score"] is not real
        uninstall_as_rouge_score()
        restored = sys.modules["rouge_score"] is real
        uninstall_as_rouge_score()  # harmless twice
        print(json.dumps([first, replaced, restored, is_installed()]))
    """)
    assert result == [["rouge_score.rouge_scorer", False], True, True, False]


def test_unknown_attribute_and_submodule():
    result = run_json(INSTALL + """
        import json
        import rouge_score
        out = {"has_nonsense": hasattr(rouge_score, "nonsense")}
        for name in ("rouge", "create_pyrouge_files", "io"):
            try:
                out[name] = __import__("rouge_score." + name, fromlist=["x"]).__name__
            except ModuleNotFoundError as exc:
                out[name] = type(exc).__name__
        print(json.dumps(out))
    """)
    assert result == {"has_nonsense": False, "rouge": "rougekit.rouge",
                      "create_pyrouge_files": "ModuleNotFoundError",
                      "io": "rougekit.io"}


def test_pickled_scorer_from_the_shim_loads_without_it():
    pickled = run_python(INSTALL + """
        import pickle, sys
        from rouge_score import rouge_scorer
        sys.stdout.write(pickle.dumps(rouge_scorer.RougeScorer(["rouge1"])).hex())
    """).strip()
    result = run_json("""
        import json, pickle
        scorer = pickle.loads(bytes.fromhex(%r))
        print(json.dumps([type(scorer).__module__, scorer.score("a b", "a")["rouge1"].recall]))
    """ % pickled)
    assert result == ["rougekit.rouge_scorer", 0.5]
