"""``python -m rougekit``: the same as the ``rougekit`` command."""
import sys

from rougekit.cli import main

sys.exit(main())
