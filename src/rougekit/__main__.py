"""``python -m rougekit``: the same as the ``rougekit`` command."""
import sys

from rougekit._launch import main

sys.exit(main())
