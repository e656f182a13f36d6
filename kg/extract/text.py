"""Turning LaTeX and markdown markup, and what PDF text extraction leaves, in abstracts into plain prose."""

from __future__ import annotations

import re

__all__ = ["clean_markup", "first_sentence_label"]

_TEXT_COMMANDS = r"(?:text(?:bf|it|tt|sf|rm|sc|up)?|math(?:tt|rm|bf|sf|it|cal|bb|frak)?|emph|underline|textsuperscript|operatorname|boldsymbol|mbox)"
_CMD_WITH_ARG = re.compile(r"\\" + _TEXT_COMMANDS + r"\s*\{([^{}]*)\}")
_INLINE_MATH = re.compile(r"\$\$(.+?)\$\$|\$(.+?)\$|\\\((.+?)\\\)", re.S)
_WORD_ONLY = re.compile(r"^[A-Za-z][A-Za-z0-9\-]*(?: [A-Za-z][A-Za-z0-9\-]*)*$|^\d+(?:\.\d+)?$")  # or a number: $3$-player
_OTHER_CMD = re.compile(r"\\[A-Za-z]+\*?")
_MD_BOLD = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1")
_MD_ITALIC = re.compile(r"(?<![\w*])\*(?=\S)([^*]+?)(?<=\S)\*(?!\w)")
_MD_ITALIC_UNDERSCORE = re.compile(r"(?<![\w_])_(?=[^\s_])([^_]+?)(?<=[^\s_])_(?![\w_])")
_MD_CODE = re.compile(r"`([^`]+)`")
# An optional part in brackets is left out: '(block-)coordinate descent' is coordinate descent,
# 'model(s)' a model. A word broken at a line end ('func- tion') is joined; a suspended hyphen
# ('pre- and post-training') is not.
_OPTIONAL_PREFIX = re.compile(r"(?<![\w(])\([A-Za-z]+-?\)(?=[A-Za-z])")
_OPTIONAL_PLURAL = re.compile(r"(?<=[A-Za-z])\((?:s|es)\)(?!\w)")
_BROKEN_WORD = re.compile(r"(?<=[a-z])- (?=(?!(?:and|or|nor|to|as|but|vs)\b)[a-z])")
# PDF text extraction's unmapped glyphs: TeX's ligatures (cid:11-15), the soft hyphen of a word
# broken at a line end (cid:173); any other is a symbol, dropped.
_PDF_GLYPH = re.compile(r"\(cid:(\d+)\)(\s*)")
_MOJIBAKE = re.compile(r"[\xc2-\xf4][\x80-\xbf]{1,3}")  # UTF-8 read as Latin-1: 'personâ\x80\x99s'
_ESCAPED = re.compile(r"\\([%#&_])")  # '65\\%' is 65%
_TIE = re.compile(r"(?<=\S)~(?=\S)")  # TeX's unbreakable space: 'e.g.~time'
_LIGATURES = {"11": "ff", "12": "fi", "13": "fl", "14": "ffi", "15": "ffl"}
_MD_LINK = re.compile(r"\[([^\]]+)\]\((?:[^)]+)\)")
_URL = re.compile(r"https?://\S+|www\.\S+")
_SPACES = re.compile(r"\s+")


def _unwrap_commands(text: str) -> str:
    """Text commands give their argument, nested ones too: \\textbf{\\emph{x}} -> x."""
    for _ in range(3):
        text = _CMD_WITH_ARG.sub(lambda m: m.group(1), text)
    return text


def _math(match: re.Match) -> str:
    body = _unwrap_commands(next(g for g in match.groups() if g is not None)).strip()
    # Keep math that is really a word, a name or a number ($\mathtt{Adam}$, $3$); drop formulas,
    # gluing the word around a formula back together (S$H^2$RF -> SRF).
    if _WORD_ONLY.match(body):
        return body
    text, start, end = match.string, match.start(), match.end()
    glued = start > 0 and end < len(text) and text[start - 1].isalnum() and text[end].isalnum()
    return "" if glued else " "


def _utf8(match: re.Match) -> str:
    try:
        return match.group().encode("latin-1").decode("utf-8")
    except UnicodeError:
        return match.group()


def _glyph(match: re.Match) -> str:
    code, space = match.groups()
    text, start, end = match.string, match.start(), match.end()
    if code == "173":
        return ""
    in_word = (start > 0 and text[start - 1].isalpha()) or (not space and end < len(text) and text[end].isalpha())
    return (_LIGATURES.get(code, " ") if in_word else " ") + space


def clean_markup(text: str) -> str:
    """Plain prose from an abstract with LaTeX and markdown markup.

    Examples
    --------
    >>> clean_markup(r"We train $\\mathtt{Adam}$ with **MaxRL** and \\textbf{care} in $O(n^2)$ time.")
    'We train Adam with MaxRL and care in time.'
    """
    text = _ESCAPED.sub(r"\1", _PDF_GLYPH.sub(_glyph, _MOJIBAKE.sub(_utf8, text)))
    text = _MD_LINK.sub(r"\1", text)
    text = _URL.sub(" ", text)
    text = _INLINE_MATH.sub(_math, text)
    text = _unwrap_commands(text)
    text = _OTHER_CMD.sub(" ", text)
    text = text.replace("{", "").replace("}", "")
    text = _MD_BOLD.sub(r"\2", text)
    text = _MD_ITALIC.sub(r"\1", text)
    text = _MD_ITALIC_UNDERSCORE.sub(r"\1", text)
    text = _MD_CODE.sub(r"\1", text)
    text = _TIE.sub(" ", text.replace("---", " — ").replace("--", "–"))
    text = _SPACES.sub(" ", text).strip()
    text = _BROKEN_WORD.sub("", _OPTIONAL_PLURAL.sub("", _OPTIONAL_PREFIX.sub("", text)))
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
