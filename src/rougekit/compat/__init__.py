"""Drop-ins for other ROUGE packages, with their APIs and their numbers.

- :mod:`rougekit.compat.rouge`: ``rouge`` 1.0.1 (pltrdy's ``from rouge
  import Rouge``)
- :mod:`rougekit.compat.rouge_chinese`: ``rouge-chinese`` 1.0.3

(rouge-score's modules are rougekit's own: ``rougekit.rouge_scorer``, ...)
``rougekit.install_as(name)`` makes ``import <name>`` give one of them, and
``rougekit compat rouge ...`` is pltrdy's ``rouge`` command.
"""
