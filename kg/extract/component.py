"""The candidate finder as a spaCy pipeline component, so it runs wherever the tagger runs.

Registered as ``kg_concept_candidates`` (version 1 of its output, see
``CANDIDATES_VERSION``); it requires ``token.tag`` and assigns ``doc._.kg_candidates``:
plain, msgpack-friendly data (spaCy keeps extension values in ``doc.user_data``), so
documents tagged in worker processes (``nlp.pipe(n_process=2)``) carry their
candidates back with them.
"""

from __future__ import annotations

import numpy
from spacy.attrs import POS, TAG
from spacy.language import Language
from spacy.parts_of_speech import IDS as POS_IDS
from spacy.tokens import Doc

from kg.extract.candidates import DocCandidates, Occurrence, find_candidates
from kg.extract.vocabulary import Vocabulary, load_vocabulary

__all__ = ["COMPONENT", "CANDIDATES_VERSION", "ConceptCandidates", "to_plain", "from_plain", "candidates_data"]

COMPONENT = "kg_concept_candidates"
CANDIDATES_VERSION = 1
EXTENSION = "kg_candidates"
if not Doc.has_extension(EXTENSION):
    Doc.set_extension(EXTENSION, default=None)


def to_plain(c: DocCandidates) -> dict:
    def occ(o: Occurrence) -> list:
        return [o.key, o.surface, o.position, o.kind, o.entry.key if o.entry else None]

    return {
        "v": CANDIDATES_VERSION,
        "n": c.n_tokens,
        "occ": [occ(o) for o in c.occurrences],
        "short": [occ(o) for o in c.undefined_shorts],
        "defs": dict(c.definitions),
        "long": dict(c.long_forms),
    }


def from_plain(data: dict, vocab: Vocabulary) -> DocCandidates:
    def occ(row: list) -> Occurrence:
        key, surface, position, kind, entry_key = row
        return Occurrence(key, surface, position, kind, vocab.entries.get(entry_key) if entry_key else None)

    return DocCandidates(
        n_tokens=data["n"],
        occurrences=[occ(r) for r in data["occ"]],
        definitions=dict(data["defs"]),
        long_forms=dict(data["long"]),
        undefined_shorts=[occ(r) for r in data["short"]],
    )


class ConceptCandidates:
    """Finds concept candidates in a tagged Doc (needs the tagger before it).

    With ``tag_map`` it sets each token's coarse part of speech from its tag first,
    so the attribute ruler need not run.
    """

    def __init__(self, nlp: Language, name: str, *, vocabulary: str | None, tag_map: dict[str, str]) -> None:
        self.name = name
        self.vocabulary = load_vocabulary(vocabulary)
        self.tag_map = tag_map

    def __call__(self, doc: Doc) -> Doc:
        if self.tag_map:  # the part of speech the attribute ruler would give nouns and adjectives
            strings = doc.vocab.strings
            tags = doc.to_array([TAG, POS]).tolist()
            pos = [[POS_IDS.get(self.tag_map.get(strings[tag], ""), old)] for tag, old in tags]
            doc.from_array([POS], numpy.asarray(pos, dtype="uint64"))
        doc._.kg_candidates = to_plain(find_candidates(doc, self.vocabulary))
        return doc


@Language.factory(
    COMPONENT,
    default_config={"vocabulary": None, "tag_map": {}},
    requires=["token.tag"],
    assigns=["token.pos", f"doc._.{EXTENSION}"],
)
def make_concept_candidates(nlp: Language, name: str, vocabulary: str | None, tag_map: dict[str, str]) -> ConceptCandidates:
    return ConceptCandidates(nlp, name, vocabulary=vocabulary, tag_map=tag_map)


def candidates_data(doc: Doc) -> dict:
    """The plain candidate data the component left on a Doc."""
    return doc._.kg_candidates
