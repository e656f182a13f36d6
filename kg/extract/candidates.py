"""Concept candidates in one parsed abstract: vocabulary terms, abbreviations, noun phrases.

Works on a spaCy ``Doc`` tagged by the trained English pipeline (tagger only;
no parser or NER is needed). Each candidate is an occurrence of a concept key
at a token position; ranking happens later, with corpus statistics.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from spacy.tokens import Doc

from kg.extract.abbreviations import find_abbreviations
from kg.extract.normalize import display_form, is_formula, looks_like_short, phrase_key, short_core
from kg.extract.phrases import (
    MAX_WORDS,
    can_continue,
    generic_head,
    is_head,
    names_before_discourse_head,
    participle_lead,
    trim,
    weak_start,
)
from kg.extract.tokens import NOUNS, Tokens, noun_after_parenthesis
from kg.extract.vocabulary import Vocabulary, VocabularyEntry, choose_short
from kg.extract.wordlists import COMPOUND_SUFFIXES, GENERIC_HEADS

__all__ = ["Occurrence", "DocCandidates", "find_candidates"]


@dataclass(slots=True)
class Occurrence:
    key: str
    surface: str
    position: int  # token index in the doc
    kind: str  # vocabulary | abbreviation | phrase | sub (nested in a longer phrase) | short | attested (see participle_lead)
    entry: VocabularyEntry | None = None


@dataclass(slots=True)
class DocCandidates:
    n_tokens: int
    occurrences: list[Occurrence] = field(default_factory=list)
    definitions: dict[str, str] = field(default_factory=dict)  # short form -> long-form key
    long_forms: dict[str, str] = field(default_factory=dict)  # long-form key -> surface
    undefined_shorts: list[Occurrence] = field(default_factory=list)


@dataclass(slots=True)
class _Scan:
    """What the stages of one document's scan share: its tokens, what is covered, what short forms expand to."""

    doc: Doc
    t: Tokens
    vocab: Vocabulary
    out: DocCandidates
    text: str
    covered: list[bool]
    short_to_key: dict[str, tuple[str, VocabularyEntry | None]] = field(default_factory=dict)
    expand_only: dict[str, str] = field(default_factory=dict)  # short forms of modifiers: 'ZO' -> 'zeroth order'
    expand: dict[int, str] = field(default_factory=dict)  # token -> the long form it stands for
    modifiers: set[int] = field(default_factory=set)  # tokens that are short forms of modifiers


def find_candidates(doc: Doc, vocab: Vocabulary) -> DocCandidates:
    """Every concept occurrence in a tagged abstract, in four stages over one shared scan."""
    t = Tokens(doc)
    scan = _Scan(doc, t, vocab, DocCandidates(n_tokens=len(doc)), doc.text, [False] * len(doc))
    _definitions(scan)
    _vocabulary_terms(scan)
    _short_forms(scan)
    _noun_phrases(scan)
    return scan.out


def _definitions(scan: _Scan) -> None:
    """1. Abbreviation definitions: the document's own word wins over the vocabulary."""
    out, vocab, doc, text = scan.out, scan.vocab, scan.doc, scan.text
    for abbr in find_abbreviations(text):
        long_key, shorts = phrase_key(abbr.long), {abbr.short, abbr.short.rstrip("s")}
        entry = vocab.lookup(long_key)
        if entry is None:
            after = doc.char_span(abbr.end, len(text), alignment_mode="expand")
            nxt = noun_after_parenthesis(after) if after is not None else None
            if nxt is not None:
                entry = vocab.lookup(phrase_key(f"{abbr.long} {nxt}"))
        span = doc.char_span(abbr.start, abbr.end, alignment_mode="expand")
        if entry is None:
            if span is None or len(span) > 12:
                continue
            if span[-1].pos_ not in NOUNS | {"VERB"} or span[-1].lower_ in GENERIC_HEADS:
                # A modifier long form (zeroth-order) is no concept; it only expands its short form.
                scan.expand_only.update(dict.fromkeys(shorts, long_key))
                continue
            out.long_forms[long_key] = abbr.long
        key = entry.key if entry else long_key
        scan.short_to_key.update(dict.fromkeys(shorts, (key, entry)))
        out.definitions[abbr.short.rstrip("s")] = key
        if span is not None:
            out.occurrences.append(Occurrence(key, abbr.long, span.start, "vocabulary" if entry else "abbreviation", entry))
            for i in range(span.start, span.end):
                scan.covered[i] = True
    # Defined short forms stand for their long form inside longer phrases ('ZO methods').
    words = scan.t.text
    scan.expand = {i: scan.short_to_key[w][0] for i, w in enumerate(words) if w in scan.short_to_key}
    scan.modifiers = {i for i, w in enumerate(words) if w in scan.expand_only and w not in scan.short_to_key}
    scan.expand.update({i: scan.expand_only[words[i]] for i in scan.modifiers})


def _vocabulary_terms(scan: _Scan) -> None:
    """2. Vocabulary terms, longest match first, within punctuation-free segments."""
    t, vocab, covered = scan.t, scan.vocab, scan.covered
    for start, end in t.segments():
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
                parts = [p for w in words[i : i + n - 1] for p in t.key_parts(w, final=False)] + t.key_parts(
                    words[i + n - 1], final=True
                )
                entry = vocab.lookup(" ".join(p for p in parts if p))
                if entry is not None:
                    scan.out.occurrences.append(Occurrence(entry.key, t.span_text(first, last), first, "vocabulary", entry))
                    covered[first : last + 1] = [True] * (last - first + 1)
                    matched = n
                    break
            i += matched or 1


def _short_forms(scan: _Scan) -> None:
    """3. Short forms: defined in this document, or a vocabulary acronym in context."""
    text_lower = scan.text.lower()
    for i, surface in enumerate(scan.t.text):
        if scan.covered[i] or not (surface[:1].isupper() or surface[:1].isdigit()):
            continue
        if surface in scan.short_to_key:
            key, entry = scan.short_to_key[surface]
            scan.out.occurrences.append(Occurrence(key, surface, i, "vocabulary" if entry else "abbreviation", entry))
            scan.covered[i] = True
            continue
        entries = scan.vocab.by_short.get(surface) or scan.vocab.by_short.get(short_core(surface))
        if entries:
            entry = choose_short(entries, text_lower)
            if entry is not None:
                scan.out.occurrences.append(Occurrence(entry.key, surface, i, "vocabulary", entry))
                scan.covered[i] = True


def _noun_phrases(scan: _Scan) -> None:
    """4. Noun phrases from part-of-speech runs."""
    for start, end in (t := scan.t).segments():
        run: list[tuple[int, int]] = []
        for w in t.words(start, end) + [None]:
            if w is not None and can_continue(t, w):
                run.append(w)
                continue
            if run:
                _emit_phrase(scan, run)
            run = []


def _emit_phrase(scan: _Scan, run: list) -> None:
    """A noun-phrase run: the whole phrase, then the shorter phrases nested in it (kind ``sub``), for the learned
    ranker to weigh: 'dataset distillation' in 'dataset distillation methods', 'diffusion' in 'diffusion models'."""
    t, covered, whole = scan.t, scan.covered, run
    if not (run := trim(t, run)):
        return
    lead = whole[i - 1] if (i := whole.index(run[0])) else None  # the word trimmed just before it
    lead_kind = participle_lead(t, lead) if lead else None
    first, last = run[0][0], run[-1][1]
    if last in scan.modifiers:
        return
    if generic_head(t, run):
        if names_before_discourse_head(t, run):
            _emit_phrase(scan, run[:-1])
        return
    if lead_kind and len(run) < MAX_WORDS and not covered[lead[0]]:
        _emit_span(scan, [lead, *run], kind=lead_kind)  # 'constrained optimization': the ranker decides
    if all(covered[first : last + 1]) or not _emit_span(scan, run, kind="phrase"):
        return
    _emit_compound_stems(scan, run)
    n = len(run)
    for size in range(n - 1, 0, -1):
        for start in range(0, n - size + 1):
            sub = run[start : start + size]
            if not is_head(t, sub, final=start + size == n) or (start > 0 and weak_start(t, sub[0])) or generic_head(t, sub):
                continue
            if not all(covered[sub[0][0] : sub[-1][1] + 1]):
                _emit_span(scan, sub, kind="sub")


def _emit_compound_stems(scan: _Scan, run: list) -> None:
    """'Rectified-flow-based transformers' mentions rectified flow, 'reinforcement learning-based search'
    reinforcement learning: an X-based/-driven/... compound's stem, alone and after the phrase's words before it."""
    t = scan.t
    for j, (first, last) in enumerate(run):
        stem = (first, last - 2)  # the tokens before '-based'
        if (
            last - first < 2
            or t.lower[last] not in COMPOUND_SUFFIXES
            or t.text[last - 1] != "-"
            or t.pos[stem[1]] not in NOUNS | {"ADJ", "VERB"}
        ):
            continue
        for start in range(j, -1, -1):
            sub = [*run[start:j], stem]
            if not ((start < j and weak_start(t, sub[0])) or generic_head(t, sub)):
                _emit_span(scan, sub, kind="sub")


def _emit_span(scan: _Scan, run: list, *, kind: str) -> bool:
    """One candidate for the words of ``run``; False when they make no concept."""
    t, expand, out = scan.t, scan.expand, scan.out
    first, last = run[0][0], run[-1][1]
    key = phrase_key(
        [w for i in range(first, last + 1) if not t.infix[i] for w in (expand[i].split() if i in expand else [t.text[i]])]
    )
    surface = t.span_text(first, last)
    if " et al" in f" {key}" or not key or not any(c.isalpha() for c in key) or len(key) < 2 or is_formula(surface):
        return False
    if first == last and looks_like_short(surface) and first not in expand:
        if kind == "phrase":
            out.undefined_shorts.append(Occurrence(key, surface, first, "short"))
        return kind == "phrase"
    entry = scan.vocab.lookup(key)  # 'ZO methods' expands to a vocabulary term
    if entry is not None:
        out.occurrences.append(Occurrence(entry.key, surface, first, "vocabulary" if kind == "phrase" else "sub", entry))
        if first in scan.modifiers:  # ...and then 'ZO' is a name for that term too
            out.definitions.setdefault(t.text[first], entry.key)
        return True
    out.occurrences.append(Occurrence(key, display_form(surface) if first not in expand else surface, first, kind))
    return True
