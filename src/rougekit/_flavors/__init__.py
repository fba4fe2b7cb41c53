"""Each flavor's declaration and the stages it registers (``rougekit._stages``).

A flavor is another package's ROUGE (``rougekit.flavors`` is the public
face): the module of each declares it (``_flavor.Flavor``) and registers the
stage functions it needs. Importing this package imports every flavor, in
the order ``rougekit.audit`` lists them; ``rougekit._options`` does, so
every ``ScoringOptions`` can name them.
"""
from rougekit._flavors import (  # noqa: F401
    evaluate,
    pltrdy,
    rouge155,
    rouge_score,
    torchmetrics,
    xlsum,
)
from rougekit._flavors._flavor import (
    ANY,
    CALLER_FIELDS,
    Flavor,
    Switch,
    lookup,
    registered,
    split_name,
)

__all__ = ["Flavor", "Switch", "lookup", "registered", "split_name", "ANY", "CALLER_FIELDS"]
