"""rougekit.torchmetrics.ROUGEScore in a real Lightning module, as the guide
"ROUGE in training" shows it: the module of torchmetrics' ROUGEScore with the
import swapped and nothing else. A Trainer validates it (validation_step
updates the metric, on_validation_epoch_end logs its compute()); what the
Trainer logs equals what the same module logs with torchmetrics' own
ROUGEScore: with ``==`` with ``summation="torch"`` or ``per_sample=True``, and
by default the exact mean, within 2 ulp of torchmetrics' (its float32
additions round; docs/guides/training.md).
"""
import pytest

from _float32 import exact_sum_mean, ulps
from _integrations import CANDIDATES, REFERENCES, need

torch = need("torch")
need("torchmetrics")
L = need("lightning")

from torchmetrics.text.rouge import ROUGEScore as ReferenceROUGEScore  # noqa: E402

from rougekit.torchmetrics import ROUGEScore  # noqa: E402

pytestmark = [pytest.mark.filterwarnings("ignore::UserWarning"),
              pytest.mark.filterwarnings("ignore::DeprecationWarning")]


class Summarizer(L.LightningModule):
    """The guide's module: the summaries are given (no model to decode)."""

    def __init__(self, metric):
        super().__init__()
        self.val_rouge = metric

    def validation_step(self, batch, batch_idx):
        self.val_rouge.update(batch["summaries"], batch["references"])

    def on_validation_epoch_end(self):
        self.log_dict(self.val_rouge.compute())
        self.val_rouge.reset()


def validate(metric, batch_size=16):
    rows = [{"summaries": c, "references": [r] if isinstance(r, str) else r}
            for c, r in zip(CANDIDATES, REFERENCES)]
    loader = torch.utils.data.DataLoader(
        rows, batch_size=batch_size,
        collate_fn=lambda items: {k: [item[k] for item in items] for k in items[0]})
    trainer = L.Trainer(accelerator="cpu", devices=1, logger=False, enable_progress_bar=False,
                        enable_model_summary=False, enable_checkpointing=False)
    [logged] = trainer.validate(Summarizer(metric), dataloaders=loader, verbose=False)
    return logged


@pytest.mark.parametrize("use_stemmer", [False, True])
def test_a_lightning_validation_logs_torchmetrics_numbers(punkt_data, use_stemmer):
    want = validate(ReferenceROUGEScore(use_stemmer=use_stemmer))
    assert len(want) == 12 and len(CANDIDATES) == 243
    assert validate(ROUGEScore(use_stemmer=use_stemmer, per_sample=True)) == want
    assert validate(ROUGEScore(use_stemmer=use_stemmer, summation="torch")) == want
    got = validate(ROUGEScore(use_stemmer=use_stemmer))
    assert got.keys() == want.keys()
    assert max(ulps(got[k], want[k]) for k in want) <= 2, (got, want)
    # and the default is its definition: the exact mean of the logged items' values
    metric = ROUGEScore(use_stemmer=use_stemmer, per_sample=True)
    metric.update(CANDIDATES, [[r] if isinstance(r, str) else r for r in REFERENCES])
    assert got == {k: exact_sum_mean(v.tolist())
                   for k, v in metric.per_sample_scores().items()}
