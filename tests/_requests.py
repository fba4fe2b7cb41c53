"""One set of scoring requests, run through every door: tests/test_one_way_in.py
(the in-process doors and the command line), test_dask.py and test_spark.py
(the engines). A request is what a caller types: option fields as keywords,
``options=``, a flavor with its package's switches."""
from rougekit import ScoringOptions

# Items with one to three references, newlines (rougeLsum's sentences),
# empty and punctuation-only texts, repeated tokens and stems.
CANDIDATES = [
    "The cats were running home.\nThey ran fast.",
    "police killed the gunman",
    "",
    "a a a b b",
    "Stocks fell sharply on Monday.",
    "...",
    "the gunman was killed by police officers\nthe police said",
    "running runs ran runner",
]
REFERENCES = [
    ["A cat runs home.\nIt was fast.", "the cats run home quickly"],
    ["the gunman was shot dead by police", "police kill gunman"],
    ["nothing here"],
    ["a b a b", "b a", "a"],
    ["Stock markets fell sharply on Monday morning."],
    ["!!"],
    ["police officers killed the gunman\npolice said so"],
    ["the runner runs", "running ran"],
]
TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]

#: name -> the keywords of the request (for every door that honours them).
REQUESTS = {
    "keywords": dict(rouge_types=TYPES, use_stemmer=True, multi_ref="mean"),
    "options": dict(options=ScoringOptions(rouge_types=TYPES, use_stemmer=True,
                                           multi_ref="mean")),
    "rouge-score with its stemmer": dict(flavor="rouge-score", use_stemmer=True,
                                         rouge_types=TYPES),
    "rouge-score, fields": dict(flavor="rouge-score", sentence_split="newline",
                                use_stemmer=True),
    "pltrdy with its metrics": dict(flavor="pltrdy", metrics=["rouge-1", "rouge-l"]),
    "rouge155 flags": dict(flavor="rouge155:-m -n 2"),
    "lang": dict(lang="hindi", use_stemmer=True, rouge_types=["rouge1", "rougeL"]),
    "counting and F": dict(counting="sets", f_measure="epsilon", rouge_types=["rouge1"]),
}

#: The requests every per-item door honours (no corpus keyword).
PER_ITEM = list(REQUESTS)

#: The same requests as command-line flags (switches as the fields they set).
FLAGS = {
    "keywords": ["--rouge-types", ",".join(TYPES), "--stemmer", "--multi-ref", "mean"],
    "options": ["--rouge-types", ",".join(TYPES), "--stemmer", "--multi-ref", "mean"],
    "rouge-score with its stemmer": ["--flavor", "rouge-score", "--stemmer",
                                     "--rouge-types", ",".join(TYPES)],
    "rouge-score, fields": ["--flavor", "rouge-score", "--sentence-split", "newline",
                            "--stemmer"],
    "pltrdy with its metrics": ["--flavor", "pltrdy", "--rouge-types", "rouge1,rougeL"],
    "rouge155 flags": ["--flavor", "rouge155:-m -n 2"],
    "lang": ["--lang", "hindi", "--stemmer", "--rouge-types", "rouge1,rougeL"],
    "counting and F": ["--counting", "sets", "--f-measure", "epsilon", "--rouge-types",
                       "rouge1"],
}
