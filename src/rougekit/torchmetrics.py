"""ROUGE as a torchmetrics ``Metric``: torchmetrics' numbers from rougekit's core.

``ROUGEScore`` takes the arguments of ``torchmetrics.text.rouge.ROUGEScore``
(``use_stemmer``, ``normalizer``, ``tokenizer``, ``accumulate``,
``rouge_keys``, the ``Metric`` keyword arguments) and gives its keys and its
numbers: each item's float32 values equal torchmetrics' with ``==``. By
default the corpus value is the exact mean of those values, rounded once to
float32, where torchmetrics adds them in float32 in its own order (equal, or
a few units in the last place apart: ``rougekit._torchmetrics_numbers`` says
why). Its state is then two integer tensors whatever the number of items (sums
and a count), merged by
``dist_reduce_fx="sum"``: under DDP, ``compute()`` syncs them with one
all-reduce and gives the single-process result, bit for bit. With
``summation="torch"`` the state (of a fixed size still) replays torch's
float32 additions in their order: torchmetrics' corpus values with ``==``, in
one process and under DDP with ``DistributedSampler``'s split. With
``per_sample=True`` the metric also keeps each item's values (the state grows
with the items, as torchmetrics') and its corpus value is torch's own mean of
them: torchmetrics' with ``==``.

The pairs are scored by rougekit's compiled engine on every core: with the
default normalizer and tokenizer, torchmetrics' tokens are rouge-score's
(lowercase, ``[^a-z0-9]+`` between tokens, NLTK's Porter stemmer on words of
more than 3 characters), and rougeLsum's sentences are nltk's
``sent_tokenize``'s, as torchmetrics splits them. A custom ``normalizer`` or
``tokenizer`` tokenizes in Python, as torchmetrics does, and the counts are
still rougekit's kernels'. Needs torch, torchmetrics and, for rougeLsum, nltk
(``pip install 'rougekit[torch]'`` installs the three) with its ``punkt_tab``
data.

>>> metric = ROUGEScore(rouge_keys=("rouge1", "rougeL"))
>>> metric.update(["My name is John"], [["Is your name John"]])
>>> {k: round(v.item(), 4) for k, v in metric.compute().items()}
{'rouge1_fmeasure': 0.75, 'rouge1_precision': 0.75, 'rouge1_recall': 0.75, \
'rougeL_fmeasure': 0.5, 'rougeL_precision': 0.5, 'rougeL_recall': 0.5}
"""
import functools
import importlib.util
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

try:
    import torch
    from torch import Tensor
    from torchmetrics import Metric
    from torchmetrics.utilities.distributed import gather_all_tensors
except ImportError as exc:
    raise ImportError(f"rougekit.torchmetrics needs torch and torchmetrics ({exc}): "
                      "pip install 'rougekit[torch]'", name=exc.name) from exc

from rougekit import _torchmetrics_numbers as numbers
from rougekit._checks import as_list, thread_count
from rougekit._pipeline import PairScorer, lcs_score, ngram_score, summary_lcs_score
from rougekit._rouge_types import ROUGE_L, ROUGE_LSUM, parse_rouge_types
from rougekit._sentences import nltk_sentences
from rougekit._warn import RougekitWarning, warn
from rougekit.porter import new_stem_cache
from rougekit.tokenize import NON_ALPHANUM_RE, SPACES_RE
from rougekit.tokenizers import DefaultTokenizer, letter_check

__all__ = ["ROUGEScore", "torch_sum_lanes"]

# What the default tokenizer's warning about dropped letters tells the user
# here: torchmetrics' own arguments, not rougekit's lang= or tokenizers.
_LETTERS_REMEDY = ("torchmetrics' ROUGEScore tokenizes the same way. Give ROUGEScore a "
                   "normalizer that keeps them (a callable, e.g. normalizer=str.lower; "
                   "the default tokenizer then splits on whitespace). The scores are "
                   "torchmetrics'.")

#: ``summation``'s values: the exact sum, or torch's float32 additions replayed.
SUMMATIONS = ("exact", "torch")

#: The measures of each rouge key, in torchmetrics' order of output keys.
MEASURES = ("fmeasure", "precision", "recall")
# Their rows in rougekit's columns (P, R, F of each rouge type in turn).
_ROW = {"precision": 0, "recall": 1, "fmeasure": 2}


class ROUGEScore(Metric):
    """torchmetrics' ``ROUGEScore``, scored by rougekit.

    Args:
        use_stemmer: stem words of more than 3 characters with the Porter
            stemmer (NLTK's, as torchmetrics).
        normalizer: a function ``str -> str`` applied to each text instead of
            lowercasing and replacing each run of characters other than
            ``a-z0-9`` with a space.
        tokenizer: a function ``str -> sequence of str`` instead of splitting
            on whitespace. Tokens that are not a non-empty str are dropped.
        accumulate: how an item's references combine, per rouge key: "best"
            (the reference with the largest float32 F, the first on ties) or
            "avg" (the float32 mean of each measure).
        rouge_keys: a name or a tuple of names: "rouge1" to "rouge9",
            "rougeL", "rougeLsum".
        per_sample: also keep every item's float32 values (for a bootstrap,
            ``per_sample_scores()``); the state then grows with the items,
            and ``compute()`` gives torchmetrics' corpus values with ``==``.
        summation: how ``compute()`` adds the items' values without
            ``per_sample``: "exact" (their exact sum: the same value for any
            order of the items and any split over processes) or "torch"
            (torch's own float32 additions, replayed in a state of fixed
            size: torchmetrics' values with ``==`` in one process, and under
            DDP when the items are split round-robin with as many in each
            process, as ``DistributedSampler`` splits them; otherwise, and
            from 32,768 items on, where torch adds on several threads, the
            exact sum, with a warning that says why).
        threads: worker threads of the engine (default: every core; under
            DDP with one process per core, 1).
        kwargs: ``torchmetrics.Metric``'s (``dist_sync_on_step``,
            ``process_group``, ``dist_sync_fn``, ``sync_on_compute``, ...).

    ``update(preds, target)`` takes torchmetrics' forms: ``preds`` a str or
    a sequence of str; ``target`` a str, a sequence of str (one reference
    per prediction; every reference of a single str prediction), or a
    sequence of sequences of str (several references per prediction).
    Unlike torchmetrics, ``preds`` and ``target`` of different lengths, a
    prediction without references and texts that are not str are errors
    naming the argument (torchmetrics drops or mis-reads them).

    ``compute()`` gives ``{"{key}_{measure}": 0-d float32 tensor}``, keys
    in ``rouge_keys``' order, measures fmeasure, precision, recall; NaN
    before any item, as torchmetrics.
    """

    is_differentiable: bool = False
    higher_is_better: bool = True
    full_state_update: bool = False
    plot_lower_bound: float = 0.0
    plot_upper_bound: float = 1.0

    sums: Tensor
    count: Tensor
    order: Tensor        # summation="torch": the replay of torch's sum
    order_info: Tensor
    _forward_cache: Any
    scores: Any   # per_sample=True: a list of (items, 3 * types) tensors, cat on sync

    def __init__(self, use_stemmer: bool = False,
                 normalizer: Optional[Callable[[str], str]] = None,
                 tokenizer: Optional[Callable[[str], Sequence[str]]] = None,
                 accumulate: str = "best",
                 rouge_keys: Union[str, Sequence[str]] = ("rouge1", "rouge2", "rougeL",
                                                          "rougeLsum"),
                 *, per_sample: bool = False, summation: str = "exact",
                 threads: Optional[int] = None,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        for name, flag in (("use_stemmer", use_stemmer), ("per_sample", per_sample)):
            if not isinstance(flag, bool):
                raise TypeError(f"{name} must be a bool, not {type(flag).__name__}")
        for name, function in (("normalizer", normalizer), ("tokenizer", tokenizer)):
            if function is not None and not callable(function):
                raise TypeError(f"{name} must be a function or None, not "
                                f"{type(function).__name__}")
        if summation not in SUMMATIONS:
            raise ValueError(f"summation must be 'exact' or 'torch', not {summation!r}")
        if per_sample and summation != "exact":
            raise ValueError("summation='torch' is for the state of fixed size: with "
                             "per_sample=True compute() is torch's own mean already")
        if accumulate not in numbers.ACCUMULATE:
            raise ValueError(f"accumulate must be 'best' or 'avg', not {accumulate!r}")
        if threads is not None:
            thread_count(threads)
        keys = [rouge_keys] if isinstance(rouge_keys, str) else rouge_keys
        self.types = parse_rouge_types(keys, "rouge_keys")
        self.rouge_keys = tuple(name for name, _ in self.types)
        if any(kind == ROUGE_LSUM for _, kind in self.types) and \
                importlib.util.find_spec("nltk") is None:
            raise ModuleNotFoundError("rougeLsum splits sentences with nltk's sent_tokenize "
                                      "(as torchmetrics): pip install nltk")
        self.use_stemmer = use_stemmer
        self.normalizer = normalizer
        self.tokenizer = tokenizer
        self.accumulate = accumulate
        self.per_sample = per_sample
        self.summation = summation
        self.threads = threads
        rows = 3 * len(self.types)
        self.add_state("sums", torch.zeros((rows, numbers.SUM_LIMBS), dtype=torch.int64),
                       dist_reduce_fx="sum")
        self.add_state("count", torch.zeros((), dtype=torch.int64), dist_reduce_fx="sum")
        if per_sample:
            self.add_state("scores", [], dist_reduce_fx="cat")
        if summation == "torch":
            self.add_state("order", torch.from_numpy(
                numbers.torch_order_state(torch_sum_lanes(), rows)), dist_reduce_fx="sum")
            # this process's count squared, its world size at update, 1 per
            # process, and whether the order was lost (merge_state)
            self.add_state("order_info", torch.tensor([0, 0, 1, 0], dtype=torch.int64),
                           dist_reduce_fx="sum")
        self._batch_values: Optional[np.ndarray] = None   # forward()'s, summation="torch"
        self._pair_scorers: Optional[Dict[str, Any]] = None

    # -- update

    def update(self, preds: Union[str, Sequence[str]],
               target: Union[str, Sequence[str], Sequence[Sequence[str]]]) -> None:
        """Scores a batch: each prediction against its references."""
        predictions, references = _batch(preds, target)
        self._batch_values = None
        if not predictions:
            return
        columns = self._pair_columns(predictions, references)
        counts = [len(r) for r in references]
        lanes = torch_sum_lanes() if self.accumulate == "avg" and max(counts) > 1 else \
            numbers.TORCH_SUM_LANES
        values = numbers.item_values(columns, counts, self.accumulate, lanes)
        self.sums += torch.from_numpy(numbers.limb_sums(values)).to(self.sums.device)
        if self.summation == "torch":
            self._batch_values = values
            self._replay(values.T, int(self.count))
        self.count += len(predictions)
        if self.per_sample:
            self.scores.append(torch.from_numpy(np.ascontiguousarray(values.T))
                               .to(self.sums.device))

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        """torchmetrics' ``forward``: updates the whole and gives the batch's
        values. With summation="torch" the batch is added to the whole's
        replay where it stands (torchmetrics would score the batch in a
        fresh state and add the two states, which a replay of torch's
        order cannot do), and its values are torch's mean of its items."""
        if self.summation != "torch" or self.dist_sync_on_step:
            return super().forward(*args, **kwargs)   # dist_sync_on_step: a full update
        self.update(*args, **kwargs)
        values = self._batch_values
        lanes = self.order.shape[1] // 4
        means = numbers.torch_float32_mean(values, lanes) if values is not None else \
            np.full(3 * len(self.types), np.nan, dtype=np.float32)
        self._forward_cache = self._result(means)
        return self._forward_cache

    def _replay(self, values: np.ndarray, done: int) -> None:
        """summation="torch": adds the batch's values (items, 3 * types) to the
        replay of torch's sum, at this process's positions in the whole list
        (round-robin over the processes, as ``DistributedSampler``)."""
        world, rank = _world(self.process_group)
        info = self.order_info
        if int(info[1]) == 0:
            info[1] = world
        if int(info[1]) != world or self.order.shape[1] % world:
            info[3] = 1        # the positions are not known: compute() says so
            return
        order = self.order.detach().cpu().numpy()
        numbers.torch_order_add(order, values, done, world, rank)
        if self.order.device.type != "cpu":
            self.order.copy_(torch.from_numpy(order))
        info[0] = (done + len(values)) ** 2

    def _torch_order_lost(self, count: int) -> Optional[str]:
        """Why the replay of torch's sum is not torchmetrics' sum here, or
        None."""
        squares, strides, ranks, lost = (int(v) for v in self.order_info)
        world = strides // ranks if ranks else 0      # the world size at update
        row = self.order.shape[1]
        if world and row % world:
            return f"torch's row of {row} values cannot be split over {world} processes"
        if lost:
            return ("the metric was merged with another (merge_state) or updated under "
                    "another world size: the items' places in torch's order are lost")
        if strides != ranks * ranks:
            return f"it was updated by {world} processes and computed over {ranks}"
        if ranks * squares != count * count:
            return ("its processes hold different numbers of items (torchmetrics' own "
                    "sync needs as many in each)")
        if count >= numbers.TORCH_SERIAL_LIMIT and torch.get_num_threads() > 1:
            return f"torch adds {numbers.TORCH_SERIAL_LIMIT:,} values or more on " \
                   "several threads"
        return None

    def _pair_columns(self, predictions: List[str], references: List[List[str]]
                      ) -> np.ndarray:
        """rouge-score's float64 P, R and F of every (prediction, reference)
        pair on torchmetrics' tokens, shape (3 * types, pairs)."""
        if self.normalizer is not None or self.tokenizer is not None:
            return self._custom_columns(predictions, references)
        targets = [r for refs in references for r in refs]
        preds = [p for p, refs in zip(predictions, references) for _ in refs]
        scorers = self._scorers()
        out = np.empty((3 * len(self.types), len(targets)))
        whole = [(k, t) for k, t in enumerate(self.types) if t[1] != ROUGE_LSUM]
        if whole:
            matrix = scorers["whole"].score_matrix(targets, preds, self.threads)
            for j, (k, _) in enumerate(whole):
                out[3 * k:3 * k + 3] = matrix[3 * j:3 * j + 3]
        for k, (_, kind) in enumerate(self.types):
            if kind == ROUGE_LSUM:
                # each distinct text split once (a prediction has several references)
                lines = {text: _sentence_lines(text) for text in (*predictions, *targets)}
                out[3 * k:3 * k + 3] = scorers["lsum"].score_matrix(
                    [lines[t] for t in targets], [lines[p] for p in preds], self.threads)
        return out

    def _scorers(self) -> Dict[str, Any]:
        """The engine's pair scorers: rougekit's default tokenizer (with or
        without stemming) is torchmetrics' default; rougeLsum's scorer takes
        texts whose lines are nltk's sentences."""
        if self._pair_scorers is None:
            tokenizer = DefaultTokenizer(self.use_stemmer)
            check = letter_check(tokenizer)
            if check is not None:
                check.remedy = _LETTERS_REMEDY
            whole = [t for t in self.types if t[1] != ROUGE_LSUM]
            lsum = PairScorer([("rougeLsum", ROUGE_LSUM)], None, tokenizer, "newline")
            lsum.lines_to_check = 0  # its lines are sentences already
            self._pair_scorers = {"whole": PairScorer(whole, None, tokenizer, "newline")
                                  if whole else None, "lsum": lsum}
        return self._pair_scorers

    def _custom_columns(self, predictions: List[str], references: List[List[str]]
                        ) -> np.ndarray:
        """The pairs' scores with a custom normalizer or tokenizer: the
        tokens in Python, as torchmetrics makes them (``TextTokens``), the
        counts by rougekit's kernels."""
        tokens = TextTokens(self.normalizer, self.tokenizer, self.use_stemmer)
        has_lsum = any(kind == ROUGE_LSUM for _, kind in self.types)
        has_whole = any(kind != ROUGE_LSUM for _, kind in self.types)

        def sides(text: str) -> Tuple[List[str], List[List[str]]]:
            return (tokens(text) if has_whole else [],
                    [tokens(s) for s in _sentences(text)] if has_lsum else [])

        out = np.empty((3 * len(self.types), sum(map(len, references))))
        column = 0
        for prediction, refs in zip(predictions, references):
            pred, pred_sents = sides(prediction)
            for reference in refs:
                ref, ref_sents = sides(reference)
                for k, (_, kind) in enumerate(self.types):
                    if kind == ROUGE_LSUM:
                        score = summary_lcs_score(ref_sents, pred_sents)
                    elif kind == ROUGE_L:
                        score = lcs_score(ref, pred)
                    else:
                        score = ngram_score(ref, pred, kind)
                    out[3 * k:3 * k + 3, column] = score
                column += 1
        return out

    # -- compute

    def compute(self) -> Dict[str, Tensor]:
        """The corpus values: per rouge key and measure, the float32 mean of
        the items' float32 values. By default, their exact mean rounded
        once to float32 (the same for any order and any split of the
        items). With ``per_sample=True``, torch's own float32 mean of the
        kept values, as torchmetrics computes it: equal to torchmetrics'
        with ``==`` (under DDP too: the values are gathered in torchmetrics'
        order, item by item, round-robin over the ranks)."""
        if self.per_sample:
            return {key: values.contiguous().mean()
                    for key, values in self.per_sample_scores().items()}
        count = int(self.count)
        means = None
        if self.summation == "torch" and count:
            lost = self._torch_order_lost(count)
            if lost is None:
                total = numbers.torch_order_sum(self.order.detach().cpu().numpy(), count)
                means = np.asarray(total / np.float32(count), dtype=np.float32)
            else:
                warn(f"summation='torch' gives the exact sum's mean instead: {lost}",
                     RougekitWarning)
        if means is None:
            means = numbers.float32_means(self.sums.detach().cpu().numpy(), count)
        return self._result(means)

    def _result(self, means: np.ndarray) -> Dict[str, Tensor]:
        """torchmetrics' output dict of float32 ``means`` (3 * types)."""
        return {f"{name}_{measure}": torch.tensor(float(means[3 * k + _ROW[measure]]),
                                                  dtype=torch.float32, device=self.device)
                for k, name in enumerate(self.rouge_keys) for measure in MEASURES}

    def per_sample_scores(self) -> Dict[str, Tensor]:
        """Every item's float32 values in this process, in the order given
        (``per_sample=True``): ``{"{key}_{measure}": 1-D float32 tensor}``,
        each equal to the values torchmetrics' ``ROUGEScore`` keeps."""
        if not self.per_sample:
            raise RuntimeError("per_sample_scores() needs ROUGEScore(..., per_sample=True)")
        scores = self._kept_scores()
        return {f"{name}_{measure}": scores[:, 3 * k + _ROW[measure]]
                for k, name in enumerate(self.rouge_keys) for measure in MEASURES}

    def _kept_scores(self) -> Tensor:
        """``per_sample``'s values as one (items, 3 * types) float32 tensor."""
        if isinstance(self.scores, list):
            return torch.cat(self.scores) if self.scores else \
                torch.zeros((0, 3 * len(self.types)), dtype=torch.float32, device=self.device)
        return self.scores

    # -- the state: integers, synced with one all-reduce

    def _sync_dist(self, dist_sync_fn: Callable = gather_all_tensors,
                   process_group: Optional[Any] = None) -> None:
        """torchmetrics gathers every state from every process, then sums;
        the sums and the count are one all-reduce of one int64 tensor. With
        ``per_sample``, the kept values are gathered too and put in
        torchmetrics' order: item by item, round-robin over the ranks (the
        data's own order under a ``DistributedSampler`` without shuffling).
        A custom ``dist_sync_fn`` takes torchmetrics' way."""
        if dist_sync_fn is not gather_all_tensors:
            super()._sync_dist(dist_sync_fn, process_group)
            return
        group = process_group or self.process_group
        parts = [self.sums.reshape(-1), self.count.reshape(1)]
        if self.summation == "torch":
            # the replays' lanes are each filled by one process, zeros elsewhere:
            # the sum of their bits is the whole's float32 values
            parts += [self.order_info, self.order.view(torch.int32).reshape(-1).to(torch.int64)]
        both = torch.cat(parts)
        torch.distributed.all_reduce(both, op=torch.distributed.ReduceOp.SUM, group=group)
        sizes = [p.numel() for p in parts]
        pieces = torch.split(both, sizes)
        self.sums = pieces[0].reshape(self.sums.shape)
        self.count = pieces[1][0].clone()
        if self.summation == "torch":
            self.order_info = pieces[2].clone()
            self.order = pieces[3].to(torch.int32).view(torch.float32).reshape(self.order.shape)
        if self.per_sample:
            self.scores = _round_robin(gather_all_tensors(self._kept_scores(), group=group))

    def merge_state(self, incoming_state: Any) -> None:
        """torchmetrics' ``merge_state``: the sums and counts add up; with
        summation="torch" the replay's order is lost (compute() then says so
        and gives the exact sum's mean)."""
        super().merge_state(incoming_state)
        if self.summation == "torch":
            self.order_info[3] = 1

    def set_dtype(self, dst_type: Union[str, torch.dtype]) -> "ROUGEScore":
        """Does nothing: the state holds exact integer sums, and the values
        are float32, as torchmetrics' ``ROUGEScore``'s."""
        return self

    def __getstate__(self) -> Dict[str, Any]:
        state = super().__getstate__()
        state["_pair_scorers"] = None   # the engines are rebuilt where it loads
        return state


def _world(group: Any) -> Tuple[int, int]:
    """(world size, rank) of the process group, or (1, 0) outside DDP."""
    dist = torch.distributed
    if dist.is_available() and dist.is_initialized():
        return dist.get_world_size(group), dist.get_rank(group)
    return 1, 0


def _round_robin(pieces: List[Tensor]) -> Tensor:
    """The rows of each rank's values, in the order torchmetrics gathers its
    per-item lists: the first item of rank 0, of rank 1, ..., then the second
    of each (a rank with fewer items is skipped once it has none left).

    >>> _round_robin([torch.tensor([[0.], [2.], [4.]]), torch.tensor([[1.], [3.]])]).ravel()
    tensor([0., 1., 2., 3., 4.])
    """
    ranks = len(pieces)
    order = torch.cat([torch.arange(len(piece), dtype=torch.int64) * ranks + rank
                       for rank, piece in enumerate(pieces)])
    return torch.cat(pieces)[torch.argsort(order.to(pieces[0].device))]


# --- the input ---------------------------------------------------------------------------

def _batch(preds: Any, target: Any) -> Tuple[List[str], List[List[str]]]:
    """torchmetrics' input forms as (predictions, references per prediction),
    checked."""
    single = isinstance(preds, str)
    predictions = [preds] if single else as_list(preds, "preds", "a str or a sequence of str")
    for i, p in enumerate(predictions):
        if not isinstance(p, str):
            raise TypeError(f"preds[{i}] must be a str, not {type(p).__name__}")
    if isinstance(target, str):
        references = [[target]]
    else:
        entries = as_list(target, "target", "a str, a sequence of str or a sequence of "
                          "sequences of str")
        if isinstance(target, list) and all(isinstance(t, str) for t in entries):
            references = [entries] if single else [[t] for t in entries]
        else:
            for i, t in enumerate(entries):
                if isinstance(t, str):
                    # torchmetrics iterates it: each character a reference
                    where = ("target mixes str and lists" if isinstance(target, list)
                             else f"target is a {type(target).__name__}, not a list")
                    raise TypeError(f"{where}: torchmetrics' ROUGEScore reads target[{i}], a "
                                    "str, as references of one character each; give a list "
                                    "of str (one reference per prediction) or a list of "
                                    "lists of str")
            references = [as_list(t, f"target[{i}]", "a sequence of str")
                          for i, t in enumerate(entries)]
    if len(references) != len(predictions):
        raise ValueError(f"preds has {len(predictions)} predictions but target has "
                         f"{len(references)} entries")
    for i, refs in enumerate(references):
        if not refs:
            raise ValueError(f"target[{i}] has no reference")
        for j, r in enumerate(refs):
            if not isinstance(r, str):
                raise TypeError(f"target[{i}][{j}] must be a str, not {type(r).__name__}")
    return predictions, references


def _sentences(text: str) -> List[str]:
    """rougeLsum's sentences, as torchmetrics splits them: nltk's
    ``sent_tokenize`` (``_sentences.nltk_sentences``)."""
    try:
        return nltk_sentences(text)
    except LookupError:
        raise LookupError("rougeLsum splits sentences with nltk's punkt model, as "
                          "torchmetrics does; its data is not installed: "
                          "python -m nltk.downloader punkt_tab") from None


def _sentence_lines(text: str) -> str:
    """The text's sentences (``_sentences``) one per line, for the engine's
    rougeLsum, which takes lines as sentences. A newline inside a sentence
    becomes a space: either separates tokens, so each sentence keeps its
    tokens."""
    return "\n".join(s.replace("\n", " ") for s in _sentences(text))


class TextTokens:
    """torchmetrics' tokens of a text (its ``_normalize_and_tokenize_text``):
    ``normalizer(text)`` or the text lowercased with each run of characters
    other than ``a-z0-9`` replaced by a space; ``tokenizer(...)`` or a split
    on whitespace; with ``use_stemmer``, the Porter stem (NLTK's) of each
    token of more than 3 characters; then only the tokens that are non-empty
    str.

    >>> TextTokens(None, None, True)("The cats, running!")
    ['the', 'cat', 'run']
    >>> TextTokens(str.strip, str.split, False)("  Keep CASE, here ")
    ['Keep', 'CASE,', 'here']
    """

    def __init__(self, normalizer: Optional[Callable[[str], str]],
                 tokenizer: Optional[Callable[[str], Sequence[str]]],
                 use_stemmer: bool) -> None:
        self.normalizer, self.tokenizer = normalizer, tokenizer
        self.stemmer = new_stem_cache() if use_stemmer else None

    def __call__(self, text: str) -> List[str]:
        text = self.normalizer(text) if self.normalizer is not None else \
            NON_ALPHANUM_RE.sub(" ", text.lower())
        tokens = self.tokenizer(text) if self.tokenizer is not None else SPACES_RE.split(text)
        if self.stemmer is not None:
            tokens = [self.stemmer.stem(x) if len(x) > 3 else x for x in tokens]
        return [x for x in tokens if isinstance(x, str) and len(x) > 0]


@functools.lru_cache(maxsize=None)
def torch_sum_lanes() -> int:
    """The float32 lanes of this torch's vectorized sum, read off its sum of a
    probe (``_torchmetrics_numbers.torch_float32_sum`` with each width), for
    accumulate="avg"'s means; ``TORCH_SUM_LANES`` with a warning if no width
    reproduces it.

    >>> torch_sum_lanes() in (4, 8, 16, 32)
    True
    """
    probe = PROBE
    got = np.float32(torch.from_numpy(probe.copy()).sum().item())
    for lanes in LANE_WIDTHS:
        if numbers.torch_float32_sum(probe, lanes) == got:
            return lanes
    warn("torch's float32 sum on this machine adds in an order rougekit does not know: "
         "accumulate='avg' values of items with several references may differ from "
         "torchmetrics' in the last bit", RougekitWarning)
    return numbers.TORCH_SUM_LANES


#: The widths ``torch_sum_lanes`` tries, and its probe: 128 float32 values of
#: magnitudes from 2**-12 to 2**12, whose sum differs for each width
#: (tests/test_torchmetrics.py checks it).
LANE_WIDTHS = (numbers.TORCH_SUM_LANES, 16, 4, 32)
_probe_rng = np.random.default_rng(1)
PROBE = (_probe_rng.random(128) * 2.0 ** _probe_rng.integers(-12, 12, 128)).astype(np.float32)
