"""Turning LaTeX and markdown markup in abstracts into plain prose."""

from __future__ import annotations

import re

__all__ = ["clean_markup", "first_sentence_label"]

_TEXT_COMMANDS = r"(?:text(?:bf|it|tt|sf|rm|sc|up)?|math(?:tt|rm|bf|sf|it|cal|bb|frak)?|emph|underline|textsuperscript|operatorname|boldsymbol|mbox)"
_CMD_WITH_ARG = re.compile(r"\\" + _TEXT_COMMANDS + r"\s*\{([^{}]*)\}")
_INLINE_MATH = re.compile(r"\$\$(.+?)\$\$|\$(.+?)\$|\\\((.+?)\\\)", re.S)
_WORD_ONLY = re.compile(r"^[A-Za-z][A-Za-z0-9\-]*(?: [A-Za-z][A-Za-z0-9\-]*)*$")
_OTHER_CMD = re.compile(r"\\[A-Za-z]+\*?")
_MD_BOLD = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1")
_MD_ITALIC = re.compile(r"(?<![\w*])\*(?=\S)([^*]+?)(?<=\S)\*(?!\w)")
_MD_CODE = re.compile(r"`([^`]+)`")
_MD_LINK = re.compile(r"\[([^\]]+)\]\((?:[^)]+)\)")
_URL = re.compile(r"https?://\S+|www\.\S+")
_SPACES = re.compile(r"\s+")


def _math(match: re.Match) -> str:
    body = next(g for g in match.groups() if g is not None)
    body = _CMD_WITH_ARG.sub(lambda m: m.group(1), body).strip()
    # Keep math that is really a word or a name ($\mathtt{Adam}$); drop formulas,
    # gluing the word around a formula back together (S$H^2$RF -> SRF).
    if _WORD_ONLY.match(body):
        return body
    text, start, end = match.string, match.start(), match.end()
    glued = start > 0 and end < len(text) and text[start - 1].isalnum() and text[end].isalnum()
    return "" if glued else " "


def clean_markup(text: str) -> str:
    """Plain prose from an abstract with LaTeX and markdown markup.

    Examples
    --------
    >>> clean_markup(r"We train $\\mathtt{Adam}$ with **MaxRL** and \\textbf{care} in $O(n^2)$ time.")
    'We train Adam with MaxRL and care in time.'
    """
    text = _MD_LINK.sub(r"\1", text)
    text = _URL.sub(" ", text)
    text = _INLINE_MATH.sub(_math, text)
    for _ in range(3):  # nested commands: \textbf{\emph{x}}
        text = _CMD_WITH_ARG.sub(lambda m: m.group(1), text)
    text = _OTHER_CMD.sub(" ", text)
    text = text.replace("{", "").replace("}", "")
    text = _MD_BOLD.sub(r"\2", text)
    text = _MD_ITALIC.sub(r"\1", text)
    text = _MD_CODE.sub(r"\1", text)
    text = text.replace("---", " — ").replace("--", "–")
    text = _SPACES.sub(" ", text).strip()
    text = re.sub(r"(^|[\s(])-(?=\w)", r"\1", text)  # '-Nash' left by a dropped '$\epsilon$'
    return re.sub(r" ([.,;:])", r"\1", text)


def first_sentence_label(text: str, limit: int = 90) -> str:
    """A readable label: the first sentence of the cleaned text, cut at a word boundary.

    Examples
    --------
    >>> first_sentence_label("Short one. And more.")
    'Short one.'
    """
    clean = clean_markup(text)
    match = re.search(r"(?<=[a-z0-9)\]][.!?])\s+(?=[A-Z])", clean)
    sentence = clean[: match.start()] if match else clean
    if len(sentence) <= limit:
        return sentence
    cut = sentence[:limit].rsplit(" ", 1)[0].rstrip(",;:")
    return cut + "…"
