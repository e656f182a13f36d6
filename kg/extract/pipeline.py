"""Key concepts of a batch of abstracts: candidates per document, then corpus-aware ranking."""

from __future__ import annotations

import gc
import multiprocessing
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from kg.errors import ExtractionError
from kg.extract.abbreviations import keyword_parts
from kg.extract.background import Background, load_background
from kg.extract.title_rates import TitleRates, load_title_rates
from kg.extract.ranker import CandidateStats, Ranker, candidate_stats, features, head_word, load_ranker
from kg.extract.candidates import DocCandidates, Occurrence
from kg.extract.component import candidates_data, from_plain
from kg.extract.nlp import MODEL_NAMES, load_nlp
from kg.extract.normalize import display_form, phrase_key, short_core
from kg.extract.text import clean_markup
from kg.extract.vocabulary import Vocabulary, VocabularyEntry, choose_short, load_vocabulary

__all__ = ["DocumentInput", "ExtractedConcept", "ConceptExtractor", "load_nlp", "MODEL_NAMES", "document_text"]

MAX_DF_RATIO = 0.5  # a phrase in more than half of all papers says nothing about one of them
MAX_WORD_DF_RATIO = 0.1  # a plain one-word phrase in more than 10% of papers (data, model) is never key
MAX_TEXT_CHARS = 100_000  # of an abstract, for extraction
PARALLEL_FROM = 400  # documents in one call before the tagger runs in n_process processes


@dataclass(frozen=True, slots=True)
class DocumentInput:
    text: str
    keywords: tuple[str, ...] = ()
    title: str = ""


@dataclass(frozen=True, slots=True)
class ExtractedConcept:
    key: str
    name: str
    aliases: tuple[str, ...]
    weight: float
    source: str
    broader: tuple[tuple[str, str], ...] = ()  # (key, name) chain, nearest first
    minor: bool = False  # mentioned, not key: a named concept the paper's key ones leave out (see ``_rank``)


_WORKER: "ConceptExtractor | None" = None  # the extractor a forked worker inherits


def _candidates_of_chunk(texts: list[str]) -> list[dict]:
    assert _WORKER is not None
    return [candidates_data(doc) for doc in _WORKER.nlp.pipe(texts, batch_size=64)]


def document_text(title: str, abstract: str) -> tuple[str, str]:
    """(title prefix, whole text): the title, as a sentence of its own, before the abstract.

    Only the first ``MAX_TEXT_CHARS`` characters of an abstract are read (spaCy refuses
    texts over a million characters; no real abstract comes near).
    """
    head = clean_markup(title[:1000]).rstrip(" .") if title else ""
    prefix = f"{head}. " if head else ""
    return prefix, prefix + (abstract or "")[:MAX_TEXT_CHARS]


class ConceptExtractor:
    """Finds the key concepts of abstracts.

    Parameters
    ----------
    nlp : spacy.Language
        A tagging pipeline (``load_nlp()``).
    vocabulary, background, title_rates
        The curated vocabulary, the background document frequencies and the literature's title rates.
    top_n : int
        Key concepts kept per document (author keywords come on top).
    """

    def __init__(
        self,
        nlp,
        *,
        vocabulary: Vocabulary,
        background: Background,
        title_rates: TitleRates | None = None,
        ranker: Ranker | None | bool = None,
        top_n: int = 15,
        n_process: int = 1,
    ) -> None:
        self.nlp = nlp
        self.n_process = n_process
        self.vocabulary = vocabulary
        self.background = background
        self.title_rates = load_title_rates() if title_rates is None else title_rates
        # None: the shipped model; False: none (training needs candidates only)
        self.ranker: Ranker | None = load_ranker() if ranker is None else (ranker if isinstance(ranker, Ranker) else None)
        self.top_n = top_n

    @classmethod
    def load(
        cls,
        *,
        model: str | None = None,
        background: Background | None = None,
        title_rates: TitleRates | None = None,
        ranker: str | None = None,
        top_n: int = 15,
        n_process: int = 1,
        trained: bool = True,
    ) -> "ConceptExtractor":
        return cls(
            load_nlp(model),
            vocabulary=load_vocabulary(),
            background=load_background() if background is None else background,
            title_rates=title_rates,
            ranker=load_ranker(ranker) if trained else False,
            top_n=top_n,
            n_process=n_process,
        )

    def title_tokens(self, prefix: str) -> int:
        """Tokens the title prefix takes at the start of the document's text."""
        return len(self.nlp.tokenizer(clean_markup(prefix))) if prefix else 0

    # -- stage 1: candidates per document ------------------------------------------------
    def candidates(self, texts: Iterable[str], progress=None) -> list[DocCandidates]:
        cleaned = [clean_markup(t) for t in texts]
        # Large batches use every worker; small ones are not worth starting processes for.
        plain: Iterable[dict]
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
        # Freeze what this process holds (in an ingest, the whole graph) before forking: a worker's
        # garbage collector would otherwise walk those objects and copy every page it touches.
        gc.freeze()
        try:
            with multiprocessing.get_context("fork").Pool(self.n_process) as pool:
                found = (data for chunk in pool.imap(_candidates_of_chunk, chunks) for data in chunk)
                if progress is not None:
                    found = progress(found, len(texts), "extracting concepts")
                return list(found)
        finally:
            _WORKER = None
            gc.unfreeze()

    def candidate_keys(self, texts: Iterable[str]) -> list[set[str]]:
        """The set of keys each document could have as a concept (for background counts)."""
        return [{o.key for o in c.occurrences} | {o.key for o in c.undefined_shorts} for c in self.candidates(texts)]

    # -- stage 2: corpus-aware ranking ----------------------------------------------------
    def extract(self, documents: Sequence[DocumentInput], *, progress=None) -> list[list[ExtractedConcept]]:
        """Key concepts of each document, best first, then the concepts it names below them (``minor``).

        Short forms a document uses without defining are resolved by the
        definitions other documents of the same batch give.
        """
        texts = [document_text(d.title, d.text) for d in documents]
        n_titles = [self.title_tokens(prefix) for prefix, _ in texts]
        return self.rank(documents, self.candidates((text for _, text in texts), progress), n_titles)

    def plain_candidates(self, documents: Iterable[DocumentInput]) -> Iterator[tuple[dict, int]]:
        """Stage 1 on its own, for a worker of a distributed ingest: each document's plain
        (picklable) candidate data and title length, in order; ``from_plain`` reads it back."""
        texts = [document_text(d.title, d.text) for d in documents]
        tagged = self.nlp.pipe((clean_markup(text) for _, text in texts), batch_size=64)
        for (prefix, _), doc in zip(texts, tagged, strict=True):
            yield candidates_data(doc), self.title_tokens(prefix)

    def rank(
        self, documents: Sequence[DocumentInput], cands: Sequence[DocCandidates], n_titles: Sequence[int]
    ) -> list[list[ExtractedConcept]]:
        """Stage 2: the documents' key concepts from their candidates, the batch read as one corpus."""
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
            self._rank(doc, c, n_title, batch_defs, names, short_aliases)
            for doc, c, n_title in zip(documents, cands, n_titles, strict=True)
        ]

    def _names(self, cands: Sequence[DocCandidates], long_surfaces: dict[str, Counter[str]]) -> dict[str, str]:
        surfaces: dict[str, Counter[str]] = defaultdict(Counter)
        for c in cands:
            for o in c.occurrences:
                if o.kind in ("phrase", "sub"):
                    surfaces[o.key][o.surface] += 1
            for o in c.undefined_shorts:
                surfaces[o.key][short_core(o.surface)] += 1
        names = {k: s.most_common(1)[0][0] for k, s in surfaces.items()}
        names.update({k: s.most_common(1)[0][0] for k, s in long_surfaces.items()})
        return names

    def resolve_shorts(self, cand: DocCandidates, batch_defs: dict[str, Counter[str]]) -> list[Occurrence]:
        """The document's occurrences, with undefined short forms read through the batch's definitions."""
        occurrences: list[Occurrence] = self.title_rates.attested(cand.occurrences)
        for o in cand.undefined_shorts:
            core = short_core(o.surface)
            defs = batch_defs.get(core)
            if defs:
                key = defs.most_common(1)[0][0]
                entry = self.vocabulary.entries.get(key)
                occurrences.append(Occurrence(key, o.surface, o.position, "vocabulary" if entry else "abbreviation", entry))
            else:
                occurrences.append(Occurrence(o.key, core, o.position, "phrase"))
        return occurrences

    def candidate_features(
        self, key: str, s: CandidateStats, n_tokens: int, n_title: int, priors: tuple[dict, dict]
    ) -> list[float]:
        """The ranker's features of one candidate; ``priors`` are (per phrase, per head word) keyword counts."""
        prior, head_prior = priors
        return features(
            key,
            s,
            n_tokens=n_tokens,
            n_title=n_title,
            specificity=self.background.specificity(key),
            df_ratio=self.background.ratio(key),
            prior=prior.get(key),
            head_prior=head_prior.get(head_word(key)),
            title=self.title_rates.features(key),
        )

    def _rank(
        self,
        doc: DocumentInput,
        cand: DocCandidates,
        n_title: int,
        batch_defs: dict[str, Counter[str]],
        names: dict[str, str],
        short_aliases: dict[str, set[str]],
    ) -> list[ExtractedConcept]:
        ranker = self.ranker
        if ranker is None:
            raise ExtractionError("no concept ranker model; train one with: python -m kg.training.concepts")
        stats = candidate_stats(self.resolve_shorts(cand, batch_defs), n_title)
        kept = [(key, s) for key, s in stats.items() if self._may_be_key(key, s)]
        rows = [self.candidate_features(key, s, cand.n_tokens, n_title, (ranker.prior, ranker.head_prior)) for key, s in kept]
        scored = [(round(p, 4), key, s) for p, (key, s) in zip(ranker.score_many(rows), kept, strict=True)]
        scored.sort(key=lambda x: (-x[0], x[1]))
        chosen, rest = scored[: self.top_n], scored[self.top_n :]
        result: dict[str, ExtractedConcept] = {}
        for keyword in doc.keywords:
            key, entry, name, short = self.read_keyword(keyword, doc.text, cand.definitions)
            if key and key not in result:
                result[key] = self._concept(key, entry, name, 1.0, "keyword", short_aliases, short)
        for score, key, s in chosen:
            if key not in result:
                result[key] = self._concept(key, s.entry, names.get(key, s.surface), score, _kind(s), short_aliases)
        key_concepts = sorted(result.values(), key=lambda c: (-c.weight, c.key))
        minor = [
            self._concept(key, s.entry, names.get(key, s.surface), score, _kind(s), short_aliases, minor=True)
            for score, key, s in rest
            if key not in result and _named(s)
        ]
        return key_concepts + minor

    def _may_be_key(self, key: str, s: CandidateStats) -> bool:
        ratio = self.background.ratio(key)
        return not (ratio > MAX_DF_RATIO or (ratio > MAX_WORD_DF_RATIO and " " not in key and s.entry is None))

    def read_keyword(
        self, keyword: str, text: str, definitions: dict[str, str]
    ) -> tuple[str, VocabularyEntry | None, str, str | None]:
        """A keyword as written ('Large Language Models (LLMs)'): key, vocabulary entry, name, short form."""
        name, short = keyword_parts(keyword)
        return (*self._keyword_key(name, text, definitions), name, short)

    def _keyword_key(self, keyword: str, text: str, definitions: dict[str, str]) -> tuple[str, VocabularyEntry | None]:
        """A keyword name's concept; a short form (SAM) is read the way the paper's own text reads it."""
        short = keyword.strip()
        if short.isalpha() and short.islower() and len(short) <= 5:  # lower-cased acronyms: 'sam', 'llms'
            short = short.upper() if not short.endswith("s") else short[:-1].upper() + "s"
        core = short_core(short) if short_core(short).isupper() else short
        for form in (short, core):
            if form in definitions:
                return definitions[form], self.vocabulary.entries.get(definitions[form])
        by_short = self.vocabulary.by_short
        entries = by_short.get(short) or by_short.get(core) or by_short.get(short.upper())  # 'rkhs': RKHS
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
        short: str | None = None,
        *,
        minor: bool = False,
    ) -> ExtractedConcept:
        if entry is not None:
            name = entry.name
            aliases = set(entry.aliases)
        else:
            name = display_form(name) if source == "keyword" else name
            aliases = set()
        aliases |= short_aliases.get(key, set()) | ({short_core(short)} if short else set())
        aliases = {a for a in aliases if a.lower() != name.lower()}
        broader: list[tuple[str, str]] = []
        seen = {key}
        current = self.vocabulary.broader_of(key)
        while current is not None and current.key not in seen:
            broader.append((current.key, current.name))
            seen.add(current.key)
            current = self.vocabulary.broader_of(current.key)
        return ExtractedConcept(key, name, tuple(sorted(aliases)), round(weight, 4), source, tuple(broader), minor)


def _kind(s: CandidateStats) -> str:
    """What a ranked candidate is: a vocabulary concept, an abbreviation the text defines, or a phrase."""
    return "vocabulary" if s.entry is not None else ("abbreviation" if s.kind == "abbreviation" else "phrase")


def _named(s: CandidateStats) -> bool:
    """A well-formed concept whatever its rank: one the curated vocabulary names (KL divergence, SGD,
    InfoNCE) or one the text defines with a short form (group relative policy optimization (GRPO)).
    A paper keeps these as minor mentions when they fall below its key concepts; other phrases below
    them are mostly the words around the ideas ("border", "advent"), and are left out."""
    return s.entry is not None or s.kind == "abbreviation"
