"""Drop-in for ``rouge-chinese`` 1.0.3: its API and its numbers, exactly.

``from rougekit.compat.rouge_chinese import Rouge`` instead of ``from
rouge_chinese import Rouge``, or ``rougekit.install_as("rouge_chinese")`` to
keep the import as written. Texts are segmented words joined by spaces, as
rouge-chinese expects (``" ".join(jieba.cut(text))``). Results equal the
package's with ``==``, and it raises what the package raises (same type and
message); long texts score in linear memory instead of the package's
quadratic LCS table.

>>> from rougekit.compat.rouge_chinese import Rouge
>>> Rouge().get_scores("我 爱 北京", "我 爱 上海", avg=True)["rouge-1"]["r"]
0.6666666666666666
"""
from rougekit.compat.rouge_chinese.rouge import FilesRouge, Rouge

__version__ = "1.0.3"
__all__ = ["FilesRouge", "Rouge"]
