r"""References from a compiled LaTeX bibliography (a ``.bbl`` file, as arXiv sources carry it).

Each ``\bibitem`` is one reference. BibTeX's standard styles and natbib's write an entry as
blocks split by ``\newblock``: the authors, then the title, then where it appeared. kg takes the
title from the second block, and any arXiv id or DOI written anywhere in the entry.

>>> text = r'''\begin{thebibliography}{2}
... \bibitem[Vaswani et~al.(2017)]{vaswani2017}
... Ashish Vaswani, Noam Shazeer, and Niki Parmar.
... \newblock Attention is all you need.
... \newblock In {\em NeurIPS}, 2017. arXiv:1706.03762.
... \bibitem{he2016} K.~He and J.~Sun.
... \newblock {Deep Residual Learning} for image recognition.
... \newblock In \emph{CVPR}, 2016. \doi{10.1109/CVPR.2016.90}
... \end{thebibliography}'''
>>> bbl_references(text)
[{'title': 'Attention is all you need', 'arxiv_id': '1706.03762'}, {'title': 'Deep Residual Learning for image recognition', 'doi': '10.1109/CVPR.2016.90'}]
"""

from __future__ import annotations

import re

__all__ = ["bbl_references"]

_ITEM = re.compile(r"\\bibitem\s*(?:\[[^\]]*\])?\s*\{[^}]*\}")
_ARXIV = re.compile(r"(?:arXiv[:\s]*|arxiv\.org/abs/)(\d{4}\.\d{4,5})", re.IGNORECASE)
_DOI = re.compile(r"\b(10\.\d{4,9}/[^\s{}\\,;]+[^\s{}\\,;.])")


def _clean(block: str) -> str:
    """A block as plain text: formatting commands and braces dropped, ties and escapes as what they stand for."""
    text = block.replace("~", " ").replace("\\&", "&").replace("--", "-")
    text = re.sub(r"\\[a-zA-Z]+\s*", "", text).replace("{", "").replace("}", "")  # every command dropped, its argument kept
    return " ".join(text.split()).strip(" .,")


def bbl_references(text: str) -> list[dict]:
    """One reference per ``\\bibitem``: its title (the second ``\\newblock`` block) and any arXiv id or DOI."""
    out = []
    for entry in _ITEM.split(text.split("\\end{thebibliography}")[0])[1:]:
        blocks = entry.split("\\newblock")
        reference = {}
        if len(blocks) > 1 and (title := _clean(blocks[1])):
            reference["title"] = title
        if arxiv := _ARXIV.search(entry):
            reference["arxiv_id"] = arxiv.group(1)
        if doi := _DOI.search(entry):
            reference["doi"] = doi.group(1)
        if reference:
            out.append(reference)
    return out
