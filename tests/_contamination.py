"""Data and helpers of the max_similarity tests (test_dask.py, test_spark.py,
test_ray.py, test_contamination.py): rows to check against texts, with
exact duplicates (ties at F = 1: the first wins), empty and
punctuation-only texts (F = 0 against everything: index 0), and many other
ties (a small vocabulary); and a tokenizer that records each time it is
unpickled, to see the index reach each worker once."""
import os
import random
import uuid

WORDS = ("the a cat cats dog dogs sat sits ran running runs on under mat rug police "
         "gunman killed happy red blue green").split()
EMPTY = ["", "...", "  ", "!! ??"]


def _text(rng):
    return " ".join(rng.choice(WORDS) for _ in range(rng.randrange(1, 16)))


def against_texts(n=2000, seed=7):
    """``n`` texts: random ones, exact duplicates of earlier ones, empty and
    punctuation-only ones, non-ASCII and upper-case ones."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        r = rng.random()
        if out and r < 0.15:
            out.append(rng.choice(out))                  # a duplicate
        elif r < 0.18:
            out.append(rng.choice(EMPTY))
        elif r < 0.2:
            out.append(_text(rng).upper() + " caf\u00e9")
        else:
            out.append(_text(rng))
    return out


def rows_to_check(against, n=20000, seed=8):
    """``n`` texts: copies of texts of ``against`` (ties at F = 1 when it
    holds duplicates), edited copies, random texts, empty ones."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        r = rng.random()
        if r < 0.3:
            out.append(rng.choice(against))
        elif r < 0.6:
            words = rng.choice(against).split()
            if words:
                words[rng.randrange(len(words))] = rng.choice(WORDS)
            out.append(" ".join(words[:rng.randrange(0, len(words) + 1)] + words))
        elif r < 0.65:
            out.append(rng.choice(EMPTY))
        else:
            out.append(_text(rng))
    return out


def expected_max(index, texts):
    """``index.max`` of each text: (max_index, max_fmeasure) columns."""
    best = [index.max(t) for t in texts]
    return [i for i, _ in best], [f for _, f in best]


class ShippedWords:
    """Lower-cased whitespace tokens; each time one is unpickled (a
    RougeIndex holding it loaded in a process), a file named after the
    process appears in ``folder``."""

    def __init__(self, folder):
        self.folder = str(folder)

    def tokenize(self, text):
        return text.lower().split()

    def __reduce__(self):
        return (_unpickled, (self.folder,))


def _unpickled(folder):
    open(os.path.join(folder, f"{os.getpid()}-{uuid.uuid4().hex}"), "w").close()
    return ShippedWords(folder)


def loads_per_process(folder):
    """How many times a ShippedWords was unpickled, by process id."""
    counts = {}
    for name in os.listdir(folder):
        pid = name.split("-")[0]
        counts[pid] = counts.get(pid, 0) + 1
    return counts
