"""Concept candidates in one parsed abstract: vocabulary terms, abbreviations, noun phrases.

Works on a spaCy ``Doc`` tagged by the trained English pipeline (tagger only;
no parser or NER is needed). Each candidate is an occurrence of a concept key
at a token position; ranking happens later, with corpus statistics.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from spacy.attrs import IS_PUNCT, IS_SPACE, IS_STOP, LIKE_NUM, LOWER, ORTH, POS, SPACY, TAG
from spacy.parts_of_speech import IDS as _POS_IDS
from spacy.tokens import Doc

from kg.extract.abbreviations import find_abbreviations
from kg.extract.normalize import display_form, phrase_key, word_norm
from kg.extract.vocabulary import Vocabulary, VocabularyEntry

__all__ = ["Occurrence", "DocCandidates", "find_candidates", "choose_short", "GENERIC_HEADS", "GENERIC_MODIFIERS"]

_HYPHENS = {"-", "‐", "‑", "–"}
_POS_NAMES = {v: k for k, v in _POS_IDS.items()}
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
# Generic heads that still end a named concept when modified: 'world model', 'recommender system',
# 'bilevel optimization problem', 'attention mechanism' (but never 'an important role').
NAMING_HEADS = frozenset(
    """model models method methods algorithm algorithms framework frameworks system systems task tasks
    problem problems process mechanism mechanisms analysis estimation learning""".split()
)
# Last parts of hyphenated compounds whose stem is itself a concept: 'diffusion-based', 'LLM-driven'.
COMPOUND_SUFFIXES = frozenset(
    "based driven guided aware free conditioned informed augmented enhanced inspired powered specific centric oriented".split()
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
    respective corresponding relevant underlying original fixed given arbitrary resulting desired
    flexible seamless severe limited realistic extra relative observed rich richer strict tight explicit
    tractable reliable accurate faithful fast faster slow slower easy hard difficult poor notable considerable
    appealing attractive desirable favorable consistent systematic careful detailed thorough natural""".split()
)


@dataclass(slots=True)
class Occurrence:
    key: str
    surface: str
    position: int  # token index in the doc
    kind: str  # vocabulary | abbreviation | phrase | sub (nested in a longer phrase) | short
    entry: VocabularyEntry | None = None


@dataclass(slots=True)
class DocCandidates:
    n_tokens: int
    occurrences: list[Occurrence] = field(default_factory=list)
    definitions: dict[str, str] = field(default_factory=dict)  # short form -> long-form key
    long_forms: dict[str, str] = field(default_factory=dict)  # long-form key -> surface
    undefined_shorts: list[Occurrence] = field(default_factory=list)


def _noun_after_parenthesis(span) -> str | None:
    toks = list(span[:4])
    for i, t in enumerate(toks):
        if t.text == ")":
            return toks[i + 1].text if i + 1 < len(toks) and toks[i + 1].pos_ in _NOUNS else None
    return None


class _Toks:
    """The token attributes the rules read, copied once out of the Doc (fast to index)."""

    __slots__ = ("text", "lower", "pos", "tag", "stop", "num", "punct", "ws", "infix", "norm", "last")

    def __init__(self, doc: Doc) -> None:
        # One array read instead of a Token object per token and attribute.
        strings = doc.vocab.strings
        rows = doc.to_array([ORTH, LOWER, TAG, POS, IS_STOP, LIKE_NUM, IS_PUNCT, IS_SPACE, SPACY]).tolist()
        self.text = [strings[r[0]] for r in rows]
        self.lower = [strings[r[1]] for r in rows]
        self.tag = [strings[r[2]] for r in rows]
        self.pos = [_POS_NAMES.get(r[3], "") for r in rows]
        self.stop = [bool(r[4]) for r in rows]
        self.num = [bool(r[5]) for r in rows]
        self.punct = [bool(r[6] or r[7]) for r in rows]
        self.ws = [" " if r[8] else "" for r in rows]
        n = len(self.text)
        self.infix = [
            self.text[i] in _HYPHENS and 0 < i < n - 1 and self.ws[i - 1] == "" and self.ws[i] == "" and not self.punct[i + 1]
            for i in range(n)
        ]
        self.norm = [word_norm(_strip(w)) for w in self.text]
        self.last = [word_norm(_strip(w), last=True) for w in self.text]

    def span_text(self, first: int, last: int) -> str:
        return "".join(self.text[i] + (self.ws[i] if i < last else "") for i in range(first, last + 1))

    def words(self, start: int, end: int) -> list[tuple[int, int]]:
        """Hyphen-joined words as (first token, last token) within [start, end)."""
        words: list[tuple[int, int]] = []
        i = start
        while i < end:
            j = i
            while j + 2 < end and self.infix[j + 1]:
                j += 2
            words.append((i, j))
            i = j + 1
        return words

    def segments(self) -> list[tuple[int, int]]:
        """Token ranges between punctuation (infix hyphens do not split)."""
        segments, start = [], 0
        for i, punct in enumerate(self.punct):
            if punct and not self.infix[i]:
                if i > start:
                    segments.append((start, i))
                start = i + 1
        if start < len(self.text):
            segments.append((start, len(self.text)))
        return segments

    def key_parts(self, word: tuple[int, int], *, final: bool) -> list[str]:
        toks = [i for i in range(word[0], word[1] + 1) if not self.infix[i]]
        if not final:
            return [self.norm[i] for i in toks]
        return [self.norm[i] for i in toks[:-1]] + [self.last[toks[-1]]]


def _strip(word: str) -> str:
    return word.strip("'’\"“”()[]")


def choose_short(entries: list[VocabularyEntry], text_lower: str) -> VocabularyEntry | None:
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
    t = _Toks(doc)
    text = t.span_text(0, len(t.text) - 1) + (t.ws[-1] if t.ws else "") if t.text else ""
    text_lower = text.lower()
    out = DocCandidates(n_tokens=len(doc))
    covered = [False] * len(doc)

    # 1. Abbreviation definitions: the document's own word wins over the vocabulary.
    short_to_key: dict[str, tuple[str, VocabularyEntry | None]] = {}
    expand_only: dict[str, str] = {}  # short forms of modifiers: 'ZO' -> 'zeroth order'
    for abbr in find_abbreviations(text):
        long_key = phrase_key(abbr.long)
        entry = vocab.lookup(long_key)
        if entry is None:
            # 'Kullback-Leibler (KL) divergence': the noun after the parenthesis completes the term.
            after = doc.char_span(abbr.end, len(text), alignment_mode="expand")
            nxt = _noun_after_parenthesis(after) if after is not None else None
            if nxt is not None:
                entry = vocab.lookup(phrase_key(f"{abbr.long} {nxt}"))
        span = doc.char_span(abbr.start, abbr.end, alignment_mode="expand")
        if entry is None:
            if span is None or len(span) > 12:
                continue
            if span[-1].pos_ not in _NOUNS | {"VERB"} or span[-1].lower_ in GENERIC_HEADS:
                # A modifier long form (zeroth-order) is no concept; it only expands its short form.
                for short in {abbr.short, abbr.short.rstrip("s")}:
                    expand_only[short] = long_key
                continue
            out.long_forms[long_key] = abbr.long
        key = entry.key if entry else long_key
        for short in {abbr.short, abbr.short.rstrip("s")}:
            short_to_key[short] = (key, entry)
        out.definitions[abbr.short.rstrip("s")] = key
        if span is not None:
            out.occurrences.append(Occurrence(key, abbr.long, span.start, "vocabulary" if entry else "abbreviation", entry))
            for i in range(span.start, span.end):
                covered[i] = True

    # Defined short forms stand for their long form inside longer phrases ('ZO methods').
    expand = {i: short_to_key[w][0] for i, w in enumerate(t.text) if w in short_to_key}
    modifiers = {i for i, w in enumerate(t.text) if w in expand_only and w not in short_to_key}
    expand.update({i: expand_only[t.text[i]] for i in modifiers})

    segments = t.segments()
    # 2. Vocabulary terms, longest match first, within punctuation-free segments.
    for start, end in segments:
        words = t.words(start, end)
        i = 0
        while i < len(words):
            matched = 0
            if t.norm[words[i][0]] not in vocab.first_words and t.last[words[i][0]] not in vocab.first_words:
                i += 1  # no vocabulary term starts with this word
                continue
            for n in range(min(vocab.max_words, len(words) - i), 0, -1):
                first, last = words[i][0], words[i + n - 1][1]
                if any(covered[first : last + 1]):
                    continue
                parts = [p for w in words[i : i + n - 1] for p in t.key_parts(w, final=False)]
                parts += t.key_parts(words[i + n - 1], final=True)
                entry = vocab.lookup(" ".join(p for p in parts if p))
                if entry is not None:
                    out.occurrences.append(Occurrence(entry.key, t.span_text(first, last), first, "vocabulary", entry))
                    covered[first : last + 1] = [True] * (last - first + 1)
                    matched = n
                    break
            i += matched or 1

    # 3. Short forms: defined in this document, or a vocabulary acronym in context.
    for i, surface in enumerate(t.text):
        if covered[i] or not (surface[:1].isupper() or surface[:1].isdigit()):
            continue
        if surface in short_to_key:
            key, entry = short_to_key[surface]
            out.occurrences.append(Occurrence(key, surface, i, "vocabulary" if entry else "abbreviation", entry))
            covered[i] = True
            continue
        entries = vocab.by_short.get(surface) or (vocab.by_short.get(surface[:-1]) if surface.endswith("s") else None)
        if entries:
            entry = choose_short(entries, text_lower)
            if entry is not None:
                out.occurrences.append(Occurrence(entry.key, surface, i, "vocabulary", entry))
                covered[i] = True

    # 4. Noun phrases from part-of-speech runs.
    for start, end in segments:
        run: list[tuple[int, int]] = []
        for w in t.words(start, end) + [None]:
            if w is not None and _can_continue(t, w):
                run.append(w)
                continue
            if run:
                _emit_phrase(t, run, covered, expand, out, vocab, modifiers)
            run = []
    return out


def _can_continue(t: _Toks, w: tuple[int, int]) -> bool:
    head = w[1]
    if w[0] == head and t.stop[head]:
        return False
    if t.pos[head] in _MODIFIER_POS or (w[0] != head and t.lower[head] in COMPOUND_SUFFIXES):
        return True
    # 'constrained optimization'; 'time series forecasting', 'catastrophic forgetting' (trimmed unless it ends a phrase)
    return t.tag[head] in ("VBN", "VBG") and w[0] == head


def _emit_phrase(
    t: _Toks,
    run: list,
    covered: list[bool],
    expand: dict[int, str],
    out: DocCandidates,
    vocab: Vocabulary,
    modifiers: set[int],
) -> None:
    """A noun-phrase run: the whole phrase, then the shorter phrases nested in it (kind ``sub``).

    The learned ranker decides which of them authors would name: 'dataset distillation'
    inside 'dataset distillation methods', 'world model', 'diffusion' in 'diffusion models'.
    """
    run = _trim(t, run)
    if not run:
        return
    first, last = run[0][0], run[-1][1]
    if all(covered[first : last + 1]) or last in modifiers:
        return
    if _generic_head(t, run):
        return
    if not _emit_span(t, run, expand, out, vocab, modifiers, kind="phrase"):
        return
    _emit_compound_stems(t, run, expand, out, vocab, modifiers)
    n = len(run)
    for size in range(n - 1, 0, -1):
        for start in range(0, n - size + 1):
            sub = run[start : start + size]
            if not _is_head(t, sub) or (start > 0 and _weak_start(t, sub[0])) or _generic_head(t, sub):
                continue
            if not all(covered[sub[0][0] : sub[-1][1] + 1]):
                _emit_span(t, sub, expand, out, vocab, modifiers, kind="sub")


def _is_head(t: _Toks, run: list) -> bool:
    """A phrase ends in a noun, or in an -ing noun after a modifier ('adversarial training')."""
    head = run[-1][1]
    if t.pos[head] in _NOUNS:
        return True
    return len(run) > 1 and t.tag[head] == "VBG" and t.pos[run[-2][1]] in _MODIFIER_POS


def _generic_head(t: _Toks, run: list) -> bool:
    head = run[-1][1]
    generic = t.lower[head] in GENERIC_HEADS or t.last[head] in GENERIC_HEADS
    return generic and (len(run) == 1 or t.last[head] not in NAMING_HEADS)


def _emit_compound_stems(t: _Toks, run: list, expand, out: DocCandidates, vocab: Vocabulary, modifiers: set[int]) -> None:
    """'Rectified-flow-based transformers' mentions rectified flow: the stem of an X-based/-driven/... compound."""
    for first, last in run:
        if last - first < 4 or t.lower[last] not in COMPOUND_SUFFIXES:
            continue
        stem_last = last - 2  # the token before '-based'
        if t.pos[stem_last] in _NOUNS | {"ADJ", "VERB"}:
            _emit_span(t, [(first, stem_last)], expand, out, vocab, modifiers, kind="sub")


def _weak_start(t: _Toks, w: tuple[int, int]) -> bool:
    """Leading words that make no concept: generic, participle, numeric or one-letter modifiers."""
    single = w[0] == w[1]
    return (
        t.span_text(*w).lower() in GENERIC_MODIFIERS
        or (single and t.tag[w[0]] in {"VBN", "VBG"})
        or t.num[w[0]]
        or (single and len(t.text[w[0]]) == 1)
    )


def _trim(t: _Toks, run: list) -> list:
    """Drop weak leading words and trailing non-nouns; keep at most the last ``_MAX_WORDS`` words."""
    while len(run) > 1 and _weak_start(t, run[0]) or (run and t.num[run[0][0]]):
        run = run[1:]
    while run and not _is_head(t, run):
        run = run[:-1]
    return run[-_MAX_WORDS:]


def _emit_span(
    t: _Toks, run: list, expand: dict[int, str], out: DocCandidates, vocab: Vocabulary, modifiers: set[int], *, kind: str
) -> bool:
    first, last = run[0][0], run[-1][1]
    tokens: list[str] = []
    for i in range(first, last + 1):
        if t.infix[i]:
            continue
        tokens.extend(expand[i].split() if i in expand else [t.text[i]])
    key = phrase_key(tokens)
    if " et al" in f" {key}" or not key or not any(c.isalpha() for c in key) or len(key) < 2:
        return False
    surface = t.span_text(first, last)
    if first == last and _looks_like_short(surface) and first not in expand:
        if kind == "phrase":
            out.undefined_shorts.append(Occurrence(key, surface, first, "short"))
        return kind == "phrase"
    entry = vocab.lookup(key)  # 'ZO methods' expands to a vocabulary term
    if entry is not None:
        out.occurrences.append(Occurrence(entry.key, surface, first, "vocabulary" if kind == "phrase" else "sub", entry))
        if first in modifiers:  # ...and then 'ZO' is a name for that term too
            out.definitions.setdefault(t.text[first], entry.key)
        return True
    out.occurrences.append(Occurrence(key, display_form(surface) if first not in expand else surface, first, kind))
    return True


def _looks_like_short(surface: str) -> bool:
    core = surface[:-1] if surface.endswith("s") else surface
    return 2 <= len(core) <= 8 and sum(c.isupper() for c in core) >= 2 and core.isalnum()
