"""Hugging Face evaluate's ``rouge`` metric, the reference of the evaluate
flavor's tests: its ``_compute`` (metrics/rouge/rouge.py in
huggingface/evaluate; evaluate loads it from the Hub, which is out of reach
here) reproduced line for line, calling the real rouge-score."""
from rouge_score import rouge_scorer as ref_rouge_scorer
from rouge_score import scoring as ref_scoring


class EvaluateTokenizer:
    """evaluate's rouge.py Tokenizer."""

    def __init__(self, tokenizer_func):
        self.tokenizer_func = tokenizer_func

    def tokenize(self, text):
        return self.tokenizer_func(text)


def evaluate_compute(predictions, references, rouge_types=None, use_aggregator=True,
                     use_stemmer=False, tokenizer=None):
    if rouge_types is None:
        rouge_types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]

    multi_ref = isinstance(references[0], list)

    if tokenizer is not None:
        tokenizer = EvaluateTokenizer(tokenizer)

    scorer = ref_rouge_scorer.RougeScorer(rouge_types=rouge_types, use_stemmer=use_stemmer,
                                          tokenizer=tokenizer)
    if use_aggregator:
        aggregator = ref_scoring.BootstrapAggregator()
    else:
        scores = []

    for ref, pred in zip(references, predictions):
        if multi_ref:
            score = scorer.score_multi(ref, pred)
        else:
            score = scorer.score(ref, pred)
        if use_aggregator:
            aggregator.add_scores(score)
        else:
            scores.append(score)

    if use_aggregator:
        result = aggregator.aggregate()
        for key in result:
            result[key] = result[key].mid.fmeasure
    else:
        result = {}
        for key in scores[0]:
            result[key] = list(score[key].fmeasure for score in scores)
    return result
