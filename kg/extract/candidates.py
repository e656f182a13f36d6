"""Concept candidates in one parsed abstract: vocabulary terms, abbreviations, noun phrases.

Works on a spaCy ``Doc`` tagged by the trained English pipeline (tagger only;
no parser or NER is needed). Each candidate is an occurrence of a concept key
at a token position; ranking happens later, with corpus statistics.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from spacy.tokens import Doc, Token

from kg.extract.abbreviations import Abbreviation, find_abbreviations
from kg.extract.normalize import display_form, phrase_key, word_norm
from kg.extract.vocabulary import Vocabulary, VocabularyEntry

__all__ = ["Occurrence", "DocCandidates", "find_candidates", "GENERIC_HEADS", "GENERIC_MODIFIERS"]

_HYPHENS = {"-", "‐", "‑", "–"}
_NOUNS = {"NOUN", "PROPN"}
_MODIFIER_POS = {"NOUN", "PROPN", "ADJ"}
_MAX_WORDS = 4

# Heads that never make a concept on their own: evaluative or structural nouns
# ("a first-order concern", "an important role") and compound heads that only
# make adjectives ("first-order", "state-of-the-art", "real-time").
GENERIC_HEADS = frozenset(
    """concern issue way manner role part aspect kind type sort number lot amount degree extent fact
    case example instance order art time end level scale shot step stage term thing point matter
    variety range set series class family line body host piece deal advantage disadvantage benefit
    drawback challenge limitation need goal aim purpose attention interest insight light gain gains
    improvement improvements success progress effort efforts work works paper papers study studies
    result results finding findings experiment experiments evaluation evaluations analysis analyses
    method methods approach approaches technique techniques model models framework frameworks
    algorithm algorithms performance problem problems task tasks setting settings option choice
    baseline baselines art field area domain direction question questions idea ideas view perspective
    context scenario scenarios application applications use usage impact effect effects property
    properties behavior value values quality state cost costs rate factor factors component components
    solution solutions strategy strategies mechanism mechanisms procedure process system systems version
    variant variants design designs tool tools module modules pipeline pipelines scheme schemes
    practice practices practitioner researcher researchers community state-of-the-art""".split()
)
GENERIC_MODIFIERS = frozenset(
    """novel new existing various different proposed recent several many such previous prior current
    standard traditional conventional popular common significant important key main effective simple
    strong powerful general specific particular certain same other further additional extensive
    comprehensive large-scale wide broad promising remarkable impressive substantial superior competitive
    comparable better best good great high low higher lower small smaller larger extensive empirical
    theoretical practical real-world challenging crucial critical fundamental typical unified principled
    rigorous efficient lightweight robust scalable first second third initial final overall whole entire
    prevalent widespread emerging modern classical state-of-the-art sota numerous diverse multiple
    respective corresponding relevant underlying original fixed given arbitrary resulting desired""".split()
)


@dataclass(slots=True)
class Occurrence:
    key: str
    surface: str
    position: int  # token index in the doc
    kind: str  # vocabulary | abbreviation | phrase | short
    entry: VocabularyEntry | None = None


@dataclass(slots=True)
class DocCandidates:
    n_tokens: int
    occurrences: list[Occurrence] = field(default_factory=list)
    definitions: dict[str, str] = field(default_factory=dict)  # short form -> long-form key
    long_forms: dict[str, str] = field(default_factory=dict)  # long-form key -> surface
    undefined_shorts: list[Occurrence] = field(default_factory=list)


def _noun_after_parenthesis(span) -> str | None:
    toks = [t for t in span[:4]]
    for i, t in enumerate(toks):
        if t.text == ")":
            return toks[i + 1].text if i + 1 < len(toks) and toks[i + 1].pos_ in _NOUNS else None
    return None


def _is_infix_hyphen(doc: Doc, i: int) -> bool:
    tok = doc[i]
    return (
        tok.text in _HYPHENS
        and 0 < i < len(doc) - 1
        and doc[i - 1].whitespace_ == ""
        and tok.whitespace_ == ""
        and not doc[i + 1].is_punct
    )


def _words(doc: Doc, start: int, end: int) -> list[tuple[int, int]]:
    """Hyphen-joined words as (first token, last token) within [start, end)."""
    words: list[tuple[int, int]] = []
    i = start
    while i < end:
        j = i
        while j + 2 < end and _is_infix_hyphen(doc, j + 1):
            j += 2
        words.append((i, j))
        i = j + 1
    return words


def _segments(doc: Doc) -> list[tuple[int, int]]:
    """Token ranges between punctuation (infix hyphens do not split)."""
    segments, start = [], 0
    for i, tok in enumerate(doc):
        if (tok.is_punct and not _is_infix_hyphen(doc, i)) or tok.is_space:
            if i > start:
                segments.append((start, i))
            start = i + 1
    if start < len(doc):
        segments.append((start, len(doc)))
    return segments


def _word_text(doc: Doc, word: tuple[int, int]) -> str:
    return doc[word[0] : word[1] + 1].text


def _word_tokens(doc: Doc, word: tuple[int, int]) -> list[str]:
    return [t.text for t in doc[word[0] : word[1] + 1] if t.text not in _HYPHENS]


def _head(doc: Doc, word: tuple[int, int]) -> Token:
    return doc[word[1]]


def _choose_short(entries: list[VocabularyEntry], text_lower: str) -> VocabularyEntry | None:
    """Pick the vocabulary sense of a short form, by its context words in the document."""
    best, best_hits = None, 0
    for entry in entries:
        if not entry.context:
            if len(entries) == 1:
                return entry
            continue
        hits = sum(1 for c in entry.context if c in text_lower)
        if hits > best_hits:
            best, best_hits = entry, hits
    return best


def find_candidates(doc: Doc, vocab: Vocabulary) -> DocCandidates:
    """Every concept occurrence in a tagged abstract."""
    text = doc.text
    text_lower = text.lower()
    out = DocCandidates(n_tokens=len(doc))
    covered = [False] * len(doc)

    # 1. Abbreviation definitions: the document's own word wins over the vocabulary.
    abbreviations: list[Abbreviation] = find_abbreviations(text)
    short_to_key: dict[str, tuple[str, VocabularyEntry | None]] = {}
    for abbr in abbreviations:
        long_key = phrase_key(abbr.long)
        entry = vocab.lookup(long_key)
        if entry is None:
            # 'Kullback-Leibler (KL) divergence': the noun after the parenthesis completes the term.
            after = doc.char_span(abbr.end, len(text), alignment_mode="expand")
            nxt = _noun_after_parenthesis(after) if after is not None else None
            if nxt is not None:
                entry = vocab.lookup(phrase_key(f"{abbr.long} {nxt}"))
        if entry is None:
            span = doc.char_span(abbr.start, abbr.end, alignment_mode="expand")
            if span is None or span[-1].pos_ not in _NOUNS | {"VERB"} or len(span) > 12:
                continue  # an adjective long form (zeroth-order) only expands the short form
            if span[-1].lower_ in GENERIC_HEADS:
                continue
            out.long_forms[long_key] = abbr.long
        key = entry.key if entry else long_key
        for short in {abbr.short, abbr.short.rstrip("s")}:
            short_to_key[short] = (key, entry)
        out.definitions[abbr.short.rstrip("s")] = key
        start_tok = doc.char_span(abbr.start, abbr.end, alignment_mode="expand")
        if start_tok is not None:
            out.occurrences.append(
                Occurrence(key, abbr.long, start_tok.start, "vocabulary" if entry else "abbreviation", entry)
            )
            for t in range(start_tok.start, start_tok.end):
                covered[t] = True

    # Norms for n-gram lookups, with defined short forms expanded to their long form.
    expand: dict[int, str] = {}
    for i, tok in enumerate(doc):
        if tok.text in short_to_key:
            expand[i] = short_to_key[tok.text][0]

    segments = _segments(doc)
    # 2. Vocabulary terms, longest match first, within punctuation-free segments.
    for start, end in segments:
        words = _words(doc, start, end)
        i = 0
        while i < len(words):
            matched = 0
            for n in range(min(vocab.max_words, len(words) - i), 0, -1):
                if any(covered[t] for w in words[i : i + n] for t in range(w[0], w[1] + 1)):
                    continue
                toks: list[str] = []
                for w in words[i : i + n]:
                    toks.extend(_word_tokens(doc, w))
                entry = vocab.lookup(phrase_key(toks))
                if entry is not None:
                    first, last = words[i][0], words[i + n - 1][1]
                    out.occurrences.append(Occurrence(entry.key, doc[first : last + 1].text, first, "vocabulary", entry))
                    for t in range(first, last + 1):
                        covered[t] = True
                    matched = n
                    break
            i += matched or 1

    # 3. Short forms: defined in this document, or a vocabulary acronym in context.
    for i, tok in enumerate(doc):
        if covered[i] or not tok.text[:1].isupper() and not tok.text[:1].isdigit():
            continue
        surface = tok.text
        if surface in short_to_key:
            key, entry = short_to_key[surface]
            out.occurrences.append(Occurrence(key, surface, i, "vocabulary" if entry else "abbreviation", entry))
            covered[i] = True
            continue
        entries = vocab.by_short.get(surface) or (
            vocab.by_short.get(surface[:-1]) if surface.endswith("s") else None
        )
        if entries:
            entry = _choose_short(entries, text_lower)
            if entry is not None:
                out.occurrences.append(Occurrence(entry.key, surface, i, "vocabulary", entry))
                covered[i] = True

    # 4. Noun phrases from part-of-speech runs.
    for start, end in segments:
        words = _words(doc, start, end)
        run: list[tuple[int, int]] = []
        for w in words + [None]:
            if w is not None and _can_continue(doc, w):
                run.append(w)
                continue
            if run:
                _emit_phrase(doc, run, covered, expand, out)
            run = []
    return out


def _can_continue(doc: Doc, w: tuple[int, int]) -> bool:
    head = _head(doc, w)
    if w[0] == w[1] and head.is_stop:
        return False
    if head.pos_ in _MODIFIER_POS:
        return True
    if head.tag_ == "VBN" and w[0] == w[1]:
        return True  # 'constrained' in 'constrained optimization'; trimmed if it ends the run
    return False


def _emit_phrase(doc: Doc, run: list, covered: list[bool], expand: dict[int, str], out: DocCandidates) -> None:
    # Trim: leading generic or participle modifiers, trailing non-nouns.
    while run and (
        _word_text(doc, run[0]).lower() in GENERIC_MODIFIERS
        or (run[0][0] == run[0][1] and doc[run[0][0]].tag_ in {"VBN", "VBG"} and len(run) > 1)
        or doc[run[0][0]].like_num
        or (run[0][0] == run[0][1] and len(doc[run[0][0]].text) == 1 and len(run) > 1)
    ):
        run = run[1:]
    while run and _head(doc, run[-1]).pos_ not in _NOUNS:
        run = run[:-1]
    if not run:
        return
    run = run[-_MAX_WORDS:]
    if any(covered[t] for w in run for t in range(w[0], w[1] + 1)):
        return
    head_word = _head(doc, run[-1])
    if head_word.lower_ in GENERIC_HEADS or word_norm(head_word.text, last=True) in GENERIC_HEADS:
        return
    tokens: list[str] = []
    for w in run:
        for t in range(w[0], w[1] + 1):
            if doc[t].text in _HYPHENS:
                continue
            if t in expand:
                tokens.extend(expand[t].split())
            else:
                tokens.append(doc[t].text)
    key = phrase_key(tokens)
    if " et al" in f" {key}" or not key or not any(c.isalpha() for c in key) or len(key) < 2:
        return
    first, last = run[0][0], run[-1][1]
    surface = doc[first : last + 1].text
    if len(run) == 1 and run[0][0] == run[0][1] and _looks_like_short(surface) and first not in expand:
        out.undefined_shorts.append(Occurrence(key, surface, first, "short"))
        return
    out.occurrences.append(Occurrence(key, display_form(surface) if first not in expand else surface, first, "phrase"))


def _looks_like_short(surface: str) -> bool:
    core = surface[:-1] if surface.endswith("s") else surface
    return 2 <= len(core) <= 8 and sum(c.isupper() for c in core) >= 2 and core.isalnum()
