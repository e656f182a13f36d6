"""Normalising surface forms into concept keys: case, plural, hyphen/space, spelling."""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = ["word_norm", "phrase_key", "split_words", "display_form", "is_formula", "looks_like_short"]

_US_SPELLING = {
    "modelling": "modeling",
    "modelled": "modeled",
    "labelling": "labeling",
    "labelled": "labeled",
    "behaviour": "behavior",
    "behaviours": "behaviors",
    "colour": "color",
    "neighbour": "neighbor",
    "neighbours": "neighbors",
    "neighbourhood": "neighborhood",
    "centre": "center",
    "analyse": "analyze",
    "travelling": "traveling",
    "signalling": "signaling",
    "generalise": "generalize",
    "optimise": "optimize",
    "minimise": "minimize",
    "maximise": "maximize",
    "normalise": "normalize",
    "regularise": "regularize",
    "tokenise": "tokenize",
    "summarise": "summarize",
    "catalogue": "catalog",
    "fibre": "fiber",
    "artefact": "artifact",
    "artefacts": "artifacts",
    "defence": "defense",
    "defences": "defenses",
    "judgement": "judgment",
    "judgements": "judgments",
    "analysed": "analyzed",
    "analysing": "analyzing",
    "grey": "gray",
    "greyscale": "grayscale",
    "favour": "favor",
    "programme": "program",
    "adaption": "adaptation",
    "adaptions": "adaptations",  # a variant spelling, not British
}
_ISE = re.compile(
    r"(optim|minim|maxim|normal|regular|general|token|random|quant|parameter|summar|special|visual|real|organ|character|categor|stabil|personal|vector|discret|linear|local|serial|synchron|initial|util|prior|factor|central|formal|penal)is(e|es|ed|er|ers|ing|ation|ations)$"
)
_NO_SINGULAR = ("ss", "us", "is", "ics", "as", "ous", "ys")
_INVARIANT = {
    "series",
    "species",
    "data",
    "physics",
    "mathematics",
    "news",
    "bayes",
    "lens",
    "chaos",
    "gas",
    "this",
    "its",
    "less",
}
_IRREGULAR = {
    "matrices": "matrix",
    "vertices": "vertex",
    "indices": "index",
    "appendices": "appendix",
    "hypotheses": "hypothesis",
    "analyses": "analysis",
    "bases": "basis",
    "criteria": "criterion",
    "phenomena": "phenomenon",
    "heuristics": "heuristic",
    "lemmas": "lemma",
    "schemas": "schema",
}
_WORD_SPLIT = re.compile(r"[\s\-‐‑–—/]+")
_POSSESSIVE = re.compile(r"['’]s$")


@lru_cache(maxsize=200_000)
def word_norm(word: str, *, last: bool = False) -> str:
    """One word's normal form; ``last`` also reduces a plural head to its singular.

    Examples
    --------
    >>> [word_norm(w, last=True) for w in ["Methods", "LLMs", "optimisation", "bias", "strategies", "adaption"]]
    ['method', 'llm', 'optimization', 'bias', 'strategy', 'adaptation']
    """
    if last and len(word) > 2 and word.endswith("s") and word[:-1].isupper():
        return word[:-1].lower()  # LLMs -> llm
    w = word.lower()
    w = _US_SPELLING.get(w, w)
    w = _ISE.sub(lambda m: m.group(1) + "iz" + m.group(2), w)
    if last and w.isalpha() and len(w) > 3 and w.endswith("s") and w not in _INVARIANT:
        if w.endswith("ies") and len(w) > 4:
            return w[:-3] + "y"
        if w in _IRREGULAR:
            return _IRREGULAR[w]
        if w.endswith(("sses", "shes", "ches", "xes", "zzes")):
            return w[:-2]
        if not w.endswith(_NO_SINGULAR):
            return w[:-1]
    return w


def short_core(surface: str) -> str:
    """A short form without its plural s: the one place that rule is written.

    >>> [short_core(s) for s in ["LLMs", "SAM", "GANs"]]
    ['LLM', 'SAM', 'GAN']
    """
    return surface[:-1] if surface.endswith("s") else surface


def looks_like_short(surface: str) -> bool:
    """An undefined short form: 2-8 letters or digits, two of them capitals ('LLMs', 'GPT4', not 'Adam').

    >>> [looks_like_short(s) for s in ["LLMs", "GPT4", "Adam", "SO(3)"]]
    [True, True, False, False]
    """
    core = short_core(surface)
    return 2 <= len(core) <= 8 and sum(c.isupper() for c in core) >= 2 and core.isalnum()


def split_words(text: str) -> list[str]:
    """Words of a phrase, hyphens and slashes counted as spaces."""
    return [w for w in _WORD_SPLIT.split(text.strip()) if w]


def phrase_key(words: list[str] | str) -> str:
    """The normal key of a phrase.

    Examples
    --------
    >>> phrase_key("First-Order Methods") == phrase_key("first order method")
    True
    >>> phrase_key("Sharpness-Aware Minimisation")
    'sharpness aware minimization'
    >>> phrase_key("Newton's Method") == phrase_key(["Newton", "’s", "methods"])
    True
    """
    if isinstance(words, str):
        words = split_words(words)
    words = [_POSSESSIVE.sub("", w).strip("'’\"“”()[]") for w in words]  # "Newton's method": newton method
    words = [w for w in words if w]
    if not words:
        return ""
    return " ".join([word_norm(w) for w in words[:-1]] + [word_norm(words[-1], last=True)])


def is_formula(surface: str) -> bool:
    """A formula written out without ``$...$`` names no concept: unbalanced brackets, operators.

    >>> [is_formula(s) for s in ("o(log m", "p(y|x)", "a-b)^2", "SO(3)", "GPT-4V(ision)")]
    [True, True, True, False, False]
    """
    return surface.count("(") != surface.count(")") or any(c in surface for c in "^=|\\<>")


def display_form(surface: str) -> str:
    """A readable name: Title-case words lowered, acronyms and MixedCase kept, and so is the name
    of an eponym (its possessive before a lower-case word).

    Examples
    --------
    >>> display_form("Steering Vector Decoding")
    'steering vector decoding'
    >>> display_form("LoRA Adapters")
    'LoRA adapters'
    >>> [display_form(s) for s in ("Krippendorff’s alpha", "Newton-Euler's equation", "Earth Mover's Distance")]
    ['Krippendorff’s alpha', "Newton-Euler's equation", "earth mover's distance"]
    """
    words = surface.strip().split()
    out = []
    for i, word in enumerate(words):
        eponym = _POSSESSIVE.search(word) and i + 1 < len(words) and words[i + 1][:1].islower()
        out.append(word if eponym else _lower_title_case(word))
    return " ".join(out)


def _lower_title_case(word: str) -> str:
    """Each Title-case part of a (hyphenated) word lowered."""
    return "".join(part.lower() if part[:1].isupper() and part[1:].islower() else part for part in re.split(r"(-)", word))
