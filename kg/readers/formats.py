"""Paper records in the formats people's papers come in, recognised by their content.

Each converter turns one source object into kg's own record shape
(``{id, doi, arxiv_id, title, authors, abstract, area, keywords, venue, year}``),
which ``kg.readers.jsonl`` then validates. Written from each format's documentation:

* **arXiv metadata snapshot** (Kaggle ``arxiv-metadata-oai-snapshot.json``): ``authors``
  is one string and ``authors_parsed`` a list of ``[last, first, suffix]``;
  ``categories`` (``"cs.LG stat.ML"``) map to areas through the arXiv taxonomy.
* **OpenAlex works**: ``abstract_inverted_index`` (word -> positions) is rebuilt into
  text; ``authorships`` give the byline; ``primary_topic`` gives the area (field · subfield).
* **Semantic Scholar Graph API papers**: ``paperId``, ``externalIds`` (DOI, ArXiv),
  ``authors`` with ``authorId``, ``fieldsOfStudy``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

__all__ = [
    "detect",
    "dblp_author_ids",
    "person_id",
    "normal_doi",
    "normal_arxiv_id",
    "reference_keys",
    "title_key",
    "arxiv_area",
    "ARXIV_ARCHIVES",
]

# The arXiv taxonomy, top level (archive -> group and name); categories inside an archive
# (cs.LG) are named from ARXIV_CATEGORIES where we list them, else by their code.
ARXIV_ARCHIVES = {
    "cs": ("Computer Science", None),
    "stat": ("Statistics", None),
    "math": ("Mathematics", None),
    "eess": ("Electrical Engineering and Systems Science", None),
    "econ": ("Economics", None),
    "q-bio": ("Quantitative Biology", None),
    "q-fin": ("Quantitative Finance", None),
    "astro-ph": ("Physics", "Astrophysics"),
    "cond-mat": ("Physics", "Condensed Matter"),
    "gr-qc": ("Physics", "General Relativity and Quantum Cosmology"),
    "hep-ex": ("Physics", "High Energy Physics - Experiment"),
    "hep-lat": ("Physics", "High Energy Physics - Lattice"),
    "hep-ph": ("Physics", "High Energy Physics - Phenomenology"),
    "hep-th": ("Physics", "High Energy Physics - Theory"),
    "math-ph": ("Physics", "Mathematical Physics"),
    "nlin": ("Physics", "Nonlinear Sciences"),
    "nucl-ex": ("Physics", "Nuclear Experiment"),
    "nucl-th": ("Physics", "Nuclear Theory"),
    "physics": ("Physics", None),
    "quant-ph": ("Physics", "Quantum Physics"),
}
ARXIV_CATEGORIES = {
    "cs.AI": "Artificial Intelligence",
    "cs.CL": "Computation and Language",
    "cs.CV": "Computer Vision and Pattern Recognition",
    "cs.LG": "Machine Learning",
    "cs.NE": "Neural and Evolutionary Computing",
    "cs.RO": "Robotics",
    "cs.IR": "Information Retrieval",
    "cs.CR": "Cryptography and Security",
    "cs.DC": "Distributed, Parallel, and Cluster Computing",
    "cs.DS": "Data Structures and Algorithms",
    "cs.GT": "Computer Science and Game Theory",
    "cs.HC": "Human-Computer Interaction",
    "cs.IT": "Information Theory",
    "cs.LO": "Logic in Computer Science",
    "cs.MA": "Multiagent Systems",
    "cs.PL": "Programming Languages",
    "cs.SE": "Software Engineering",
    "cs.SI": "Social and Information Networks",
    "cs.SD": "Sound",
    "cs.GR": "Graphics",
    "cs.DB": "Databases",
    "cs.CY": "Computers and Society",
    "stat.ML": "Machine Learning",
    "stat.ME": "Methodology",
    "stat.TH": "Statistics Theory",
    "stat.AP": "Applications",
    "stat.CO": "Computation",
    "math.OC": "Optimization and Control",
    "math.ST": "Statistics Theory",
    "math.PR": "Probability",
    "math.NA": "Numerical Analysis",
    "eess.IV": "Image and Video Processing",
    "eess.SP": "Signal Processing",
    "eess.AS": "Audio and Speech Processing",
    "eess.SY": "Systems and Control",
    "q-bio.NC": "Neurons and Cognition",
    "q-bio.QM": "Quantitative Methods",
    "q-bio.BM": "Biomolecules",
}

_ARXIV_ID = re.compile(r"^(?:arxiv:)?((?:\d{4}\.\d{4,5})|(?:[a-z\-]+(?:\.[A-Z]{2})?/\d{7}))(?:v\d+)?$", re.I)
_ARXIV_DOI = re.compile(r"^10\.48550/arxiv\.(.+)$", re.I)


_DBLP_NAME = re.compile(r"^\S.*\s\d{4}$")  # 'Wei Wang 0010': dblp's own name for one of its homonyms


def dblp_author_ids(names, ids=None) -> tuple[str | None, ...] | None:
    """Source ids for a byline (``ids`` aligned with ``names``, or None), with dblp's homonym numbers read as ids.

    dblp tells apart people of one name by a number after it (*Wei Wang 0010*) and prints it in
    its exports; a name with one, and no other id, is given ``dblp:`` and the name as its id. None
    when no author has an id.

    >>> dblp_author_ids(["Wei Wang 0010", "Jun Zhu", "Yang Liu 0001"], [None, None, "orcid:0000-0001"])
    ('dblp:Wei Wang 0010', None, 'orcid:0000-0001')
    >>> dblp_author_ids(["Jun Zhu"]) is None
    True
    """
    given = ids if ids is not None else [None] * len(names)
    found = tuple(i or (f"dblp:{' '.join(n.split())}" if _DBLP_NAME.match(n.strip()) else None) for n, i in zip(names, given))
    return found if any(found) else None


_ORCID = re.compile(r"^(?:https?://orcid\.org/|orcid:)?(\d{4}-\d{4}-\d{4}-\d{3}[\dX])$", re.I)
_SCHEMED = re.compile(r"^[a-z][a-z0-9.+-]*:\S", re.I)
_OPENALEX_AUTHOR = re.compile(r"^(?:https?://openalex\.org/|openalex:)(A\d+)$", re.I)


def person_id(value: str | None) -> str | None:
    """A source's person id with its kind: two different ids of one kind are two people (``kg.authors``).

    An id with a scheme is kept (``s2:1705353``, ``scopus:57190000001``); an ORCID or an OpenAlex author URL
    gets its scheme; OpenReview's profile ids (``~Yang_Liu1``) get ``openreview:``; any other id, ``id:``.

    >>> person_id("https://orcid.org/0000-0002-1825-0097"), person_id("~Yang_Liu1"), person_id("s2:1705353")
    ('orcid:0000-0002-1825-0097', 'openreview:~Yang_Liu1', 's2:1705353')
    >>> person_id("https://openalex.org/A5023888391"), person_id("12345"), person_id(" ")
    ('openalex:A5023888391', 'id:12345', None)
    """
    text = (value or "").strip()
    if not text:
        return None
    if found := _ORCID.match(text):
        return f"orcid:{found.group(1).upper()}"
    if found := _OPENALEX_AUTHOR.match(text):
        return f"openalex:{found.group(1).upper()}"
    if text.startswith("~"):
        return f"openreview:{text}"
    return text if _SCHEMED.match(text) and "://" not in text else f"id:{text}"


def normal_doi(doi: str | None) -> str | None:
    """'https://doi.org/10.1000/ABC' -> '10.1000/abc' (DOIs are case-insensitive).

    >>> normal_doi("https://doi.org/10.5555/ABC.1")
    '10.5555/abc.1'
    """
    if not doi or not isinstance(doi, str):
        return None
    text = re.sub(r"^(?:https?://(?:dx\.)?doi\.org/|doi:)", "", doi.strip(), flags=re.I).strip().lower()
    return text if text.startswith("10.") else None


def normal_arxiv_id(value: str | None) -> str | None:
    """An arXiv identifier without its version; also read out of arXiv's own DOIs.

    >>> normal_arxiv_id("2010.01412v3"), normal_arxiv_id("10.48550/arXiv.2010.01412"), normal_arxiv_id("hep-th/9901001")
    ('2010.01412', '2010.01412', 'hep-th/9901001')
    """
    if not value or not isinstance(value, str):
        return None
    value = value.strip()
    doi = _ARXIV_DOI.match(normal_doi(value) or "")
    if doi:
        value = doi.group(1)
    match = _ARXIV_ID.match(value)
    return match.group(1).lower() if match else None


def title_key(title: str | None) -> str | None:
    """How a reference by title names a paper: its words, folded (``title:attention is all you need``).

    >>> title_key("Attention Is All You Need!")
    'title:attention is all you need'
    """
    words = re.findall(r"\w+", unicodedata.normalize("NFKC", title or "").casefold())
    return "title:" + " ".join(words) if words else None


_ID_LIKE = re.compile(r"^[A-Za-z][\w.-]*:\S+$")


def reference_keys(reference: str | dict) -> list[str]:
    """The keys one reference names its paper by (a reference with a DOI and a title names it both ways).

    A string is an arXiv id, a DOI (or its URL), an id with a scheme (``openalex:W2741809807``, ``s2:…``)
    or else a title; an object may give ``id``, ``doi``, ``arxiv_id`` and ``title``.

    >>> reference_keys("10.48550/arXiv.1706.03762"), reference_keys("https://doi.org/10.1000/X1")
    (['arxiv:1706.03762'], ['doi:10.1000/x1'])
    >>> reference_keys({"doi": "10.1000/x1", "title": "A Title"}), reference_keys("Attention is all you need")
    (['doi:10.1000/x1', 'title:a title'], ['title:attention is all you need'])
    """
    if isinstance(reference, dict):
        parts = [
            reference_keys(v) if f != "title" else [title_key(v)]
            for f in ("id", "arxiv_id", "doi", "title")
            if isinstance(v := reference.get(f), str) and v.strip()
        ]
        return list(dict.fromkeys(k for keys in parts for k in keys if k))
    text = " ".join(reference.split())
    if arxiv := normal_arxiv_id(text):
        return [f"arxiv:{arxiv}"]
    doi = normal_doi(text)
    if doi and doi.startswith("10.") and " " not in doi:
        return [f"doi:{doi}"]
    if _ID_LIKE.match(text) or (text and " " not in text and not text.isalpha()):
        return [text]
    key = title_key(text)
    return [key] if key else []


def arxiv_area(categories: str) -> list[str] | None:
    first = (categories or "").split()
    if not first:
        return None
    code = first[0]
    archive = code.split(".")[0]
    group, name = ARXIV_ARCHIVES.get(archive, ("arXiv", archive))
    leaf = ARXIV_CATEGORIES.get(code) or name or code
    return [group, leaf]


def from_arxiv(obj: dict) -> dict:
    parsed = obj.get("authors_parsed")
    if isinstance(parsed, list) and all(isinstance(p, list) for p in parsed):
        authors = [
            " ".join(x for x in (p[1] if len(p) > 1 else "", p[0], p[2] if len(p) > 2 else "") if x).strip() for p in parsed
        ]
    else:
        authors = [a.strip() for a in re.split(r",| and ", obj.get("authors") or "") if a.strip()]
    year = None
    for version in obj.get("versions") or []:
        match = re.search(r"\b(19|20)\d{2}\b", str(version.get("created", "")) if isinstance(version, dict) else "")
        if match:
            year = int(match.group(0))
            break
    area = arxiv_area(obj.get("categories") or "")
    return {
        "id": f"arxiv:{normal_arxiv_id(obj.get('id')) or obj.get('id')}",
        "arxiv_id": obj.get("id"),
        "doi": obj.get("doi"),
        "title": " ".join((obj.get("title") or "").split()),
        "authors": authors,
        "abstract": " ".join((obj.get("abstract") or "").split()),
        "area": " · ".join(area) if area else None,
        "keywords": [],
        "venue": obj.get("journal-ref") or "arXiv",
        "year": year,
    }


def rebuild_abstract(index: dict | None) -> str:
    """OpenAlex's ``abstract_inverted_index`` back into text.

    >>> rebuild_abstract({"Deep": [0], "nets": [1, 3], "are": [2]})
    'Deep nets are nets'
    """
    if not isinstance(index, dict):
        return ""
    words: dict[int, str] = {}
    for word, positions in index.items():
        for position in positions if isinstance(positions, list) else ():
            if isinstance(position, int):
                words[position] = word
    return " ".join(words[i] for i in sorted(words))


def from_openalex(obj: dict) -> dict:
    authors, affiliations, author_ids = [], [], []
    for authorship in obj.get("authorships") or []:
        person = authorship.get("author") or {}
        name = person.get("display_name") or authorship.get("raw_author_name")
        if name:
            authors.append(name)
            author_ids.append(_orcid(person.get("orcid")) or _openalex_id(person.get("id")))
            institutions = [i.get("display_name") for i in authorship.get("institutions") or [] if isinstance(i, dict)]
            affiliations.append(next((i for i in institutions if isinstance(i, str) and i), None))
    topic = obj.get("primary_topic") or {}
    field, subfield = (topic.get("field") or {}).get("display_name"), (topic.get("subfield") or {}).get("display_name")
    source = ((obj.get("primary_location") or {}).get("source") or {}).get("display_name")
    ids = obj.get("ids") or {}
    return {
        "id": "openalex:" + str(obj.get("id", "")).rsplit("/", 1)[-1],
        "doi": obj.get("doi") or ids.get("doi"),
        "arxiv_id": ids.get("arxiv"),
        "title": obj.get("title") or obj.get("display_name"),
        "authors": authors,
        "abstract": rebuild_abstract(obj.get("abstract_inverted_index")),
        "area": " · ".join(x for x in (field, subfield) if x) or None,
        "keywords": [k.get("display_name") for k in obj.get("keywords") or [] if isinstance(k, dict) and k.get("display_name")],
        "venue": source,
        "year": obj.get("publication_year"),
        "citations": obj.get("cited_by_count"),
        "affiliations": affiliations if any(affiliations) else None,
        "author_ids": author_ids if any(author_ids) else None,
        "references": [_openalex_id(w) for w in obj.get("referenced_works") or [] if _openalex_id(w)],
        "ids": [f"{kind}:{str(ids[kind]).rstrip('/').rsplit('/', 1)[-1]}" for kind in ("pmid", "mag") if ids.get(kind)],
    }


def _orcid(value) -> str | None:
    """``https://orcid.org/0000-0002-1825-0097`` → ``orcid:0000-0002-1825-0097``."""
    match = re.search(r"(\d{4}-\d{4}-\d{4}-\d{3}[\dX])", value) if isinstance(value, str) else None
    return f"orcid:{match.group(1)}" if match else None


def _openalex_id(value) -> str | None:
    """``https://openalex.org/A5012345678`` → ``openalex:A5012345678``."""
    return f"openalex:{value.rsplit('/', 1)[-1]}" if isinstance(value, str) and value.strip() else None


def from_semantic_scholar(obj: dict) -> dict:
    external = obj.get("externalIds") or {}
    fields = obj.get("fieldsOfStudy") or []
    people = [a for a in obj.get("authors") or [] if isinstance(a, dict) and a.get("name")]
    return {
        "id": f"s2:{obj.get('paperId')}",
        "doi": external.get("DOI"),
        "arxiv_id": external.get("ArXiv"),
        "title": obj.get("title"),
        "authors": [a.get("name") for a in people],
        "author_ids": [f"s2:{a['authorId']}" if a.get("authorId") else None for a in people] or None,
        "abstract": obj.get("abstract"),
        "area": fields[0] if fields and isinstance(fields[0], str) else None,
        "keywords": [],
        "venue": obj.get("venue") or None,
        "year": obj.get("year"),
        "citations": obj.get("citationCount"),
        "references": [_s2_reference(r) for r in obj.get("references") or [] if isinstance(r, dict)],
        "ids": [
            f"{kind}:{external[name]}"
            for name, kind in (("PubMed", "pmid"), ("MAG", "mag"), ("DBLP", "dblp"))
            if external.get(name)
        ],
    }


def _s2_reference(ref: dict) -> dict:
    """A Semantic Scholar reference (``paperId``, ``externalIds``, ``title``) as kg's reference object."""
    external = ref.get("externalIds") or {}
    return {
        "id": f"s2:{ref['paperId']}" if ref.get("paperId") else None,
        "doi": external.get("DOI"),
        "arxiv_id": external.get("ArXiv"),
        "title": ref.get("title"),
    }


def detect(obj: dict) -> tuple[str, Callable[[dict], dict] | None]:
    """(format name, converter to kg's record shape; None for kg's own shape)."""
    if "authorships" in obj or "abstract_inverted_index" in obj:
        return "OpenAlex work", from_openalex
    if "paperId" in obj:
        return "Semantic Scholar paper", from_semantic_scholar
    if "authors_parsed" in obj or ("categories" in obj and isinstance(obj.get("authors"), str)):
        return "arXiv metadata", from_arxiv
    return "JSON record", None
