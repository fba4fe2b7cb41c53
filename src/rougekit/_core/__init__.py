"""Private compiled layer: each kernel beside its pure-Python twin (see ``rougekit._backend``)."""
