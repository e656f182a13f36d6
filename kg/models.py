"""Store-agnostic records and graph entities."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

__all__ = [
    "AREA_SEPARATOR",
    "SourceRecord",
    "PaperSource",
    "Paper",
    "Author",
    "Authorship",
    "Reference",
    "ResearchArea",
    "Concept",
    "RelatedPaperAnswer",
    "CoauthorAnswer",
    "RelatedPaper",
    "RelatedConcept",
    "Coauthor",
    "Stats",
    "Page",
]

AREA_SEPARATOR = " · "


@dataclass(frozen=True, slots=True)
class SourceRecord:
    """One paper as a reader found it, with where it was found."""

    source: str
    line: int
    abstract: str
    authors: tuple[str, ...]
    id: str | None = None
    title: str | None = None
    area: tuple[str, ...] | None = None
    keywords: tuple[str, ...] = ()
    venue: str | None = None
    year: int | None = None
    authors_truncated: bool = False
    doi: str | None = None  # normalised (lower case, no resolver prefix)
    arxiv_id: str | None = None  # without version
    citations: int | None = None
    affiliations: tuple[str | None, ...] | None = None  # aligned with authors: each one's institution, if known
    author_ids: tuple[str | None, ...] | None = None  # aligned with authors: a source id (orcid:…, openalex:…, s2:…)
    references: tuple[tuple[str, ...], ...] = ()  # the works it cites, each by its keys (arxiv:…, doi:…, title:…)
    ids: tuple[str, ...] = ()  # more ids naming the work (openalex:W…, pmid:…, wos:…, scopus:…; kg.works.keys)
    format: str = ""  # what the reader read it as: "OpenAlex work", "Scopus CSV", "RIS", …


@dataclass(frozen=True, slots=True)
class PaperSource:
    """One record a paper was read from (``kg.works``): what the reader read it as, where, the record's own
    id, and why it is this paper; ``fields`` holds, as JSON, what matching and merging read of it."""

    key: str  # the record's own id (or its first typed id, or a hash of its text)
    format: str
    file: str
    line: int
    why: str  # "first record", "the same doi:…", "matched 0.97 (title, authors, year)", "a correction …"
    fields: str = "{}"

    @property
    def data(self) -> dict:
        return json.loads(self.fields)

    def encode(self) -> str:
        """One JSON string, as stores keep it."""
        body = {"key": self.key, "format": self.format, "file": self.file, "line": self.line, "why": self.why}
        return json.dumps({**body, "fields": json.loads(self.fields)}, ensure_ascii=False, sort_keys=True)

    @classmethod
    def decode(cls, text: str) -> "PaperSource":
        d = json.loads(text)
        fields = json.dumps(d.get("fields", {}), ensure_ascii=False, sort_keys=True)
        return cls(d["key"], d.get("format", ""), d.get("file", ""), d.get("line", 0), d.get("why", ""), fields)


@dataclass(frozen=True, slots=True)
class Paper:
    id: str
    title: str | None
    label: str
    abstract: str
    venue: str | None = None
    year: int | None = None
    authors_truncated: bool = False
    concept_norm: float = 0.0  # length of its concept vector when it was linked (shares-concept scoring)
    citations: int | None = None
    topic: str = ""  # its signature (topic vector, term weights) as an ingest writes it (kg.extract.topics); reads leave it empty


@dataclass(frozen=True, slots=True)
class Author:
    """A person (``key`` stays theirs for good); ``block`` and ``profile`` are what the people stage
    (kg.authors) compares new mentions with: writes carry them, reads leave them empty."""

    key: str
    name: str
    block: str = ""
    profile: str = ""


@dataclass(frozen=True, slots=True)
class Authorship:
    """One name on one paper's byline: as written there, the person kg took it for, and their place there."""

    paper_id: str
    position: int
    name: str | None  # as written on the paper (None in a store from before people)
    author: Author
    affiliation: str | None = None  # as written on the paper
    source_id: str | None = None  # the source's id for this author here (orcid:…, openreview:…), if any


@dataclass(frozen=True, slots=True)
class Reference:
    """A work a paper cites: the key it is cited by, and the paper kg has for it (None while kg has none)."""

    key: str  # arxiv:…, doi:…, a source id, or title:… (the title, folded)
    paper_id: str | None = None


@dataclass(frozen=True, slots=True)
class Institution:
    key: str  # normalised name
    name: str


@dataclass(frozen=True, slots=True)
class Suggestion:
    kind: str  # "author" | "concept" | "paper"
    key: str  # author key, concept key or paper id
    label: str
    papers: int  # an author's or concept's papers; a paper's citations (0 if unknown)
    exact: bool = False  # the name (or an alias) is what was typed: ranked first


@dataclass(frozen=True, slots=True)
class Facets:
    years: list[tuple[int, int]]  # (year, papers), oldest first
    venues: list[tuple[str, int]]  # (venue, papers), most papers first


@dataclass(frozen=True, slots=True)
class ResearchArea:
    path: str
    name: str
    parent: str | None


@dataclass(frozen=True, slots=True)
class Concept:
    key: str
    name: str
    aliases: tuple[str, ...] = ()
    broader: str | None = None


@dataclass(frozen=True, slots=True)
class RelatedPaper:
    paper_id: str
    shared: tuple[str, ...]  # concept keys
    score: float


@dataclass(frozen=True, slots=True)
class RelatedPaperAnswer:
    """A related paper as every reader shows it: the paper, how strongly, and the concepts both have (rarest first)."""

    paper: Paper
    score: float
    shared: list[Concept]
    year: int | None = None  # the related paper's year


@dataclass(frozen=True, slots=True)
class RelatedConcept:
    concept_key: str
    shared_papers: int


@dataclass(frozen=True, slots=True)
class Coauthor:
    author_key: str
    joint_papers: int


@dataclass(frozen=True, slots=True)
class CoauthorAnswer:
    """A co-author as every reader shows them: the person and their joint papers."""

    author: Author
    joint_papers: int


@dataclass(frozen=True, slots=True)
class Stats:
    papers: int
    authors: int
    concepts: int
    research_areas: int
    coauthor_edges: int
    shared_concept_edges: int


@dataclass(frozen=True, slots=True)
class Page:
    """A slice of an ordered result plus the size of the whole result (None when it was not counted)."""

    items: list = field(default_factory=list)
    total: int | None = 0
