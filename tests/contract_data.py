"""A small graph whose every answer is known by hand (the store contract's data)."""

from __future__ import annotations

from kg.graph.build import GraphBatch
from kg.models import Author, Concept, Institution, Paper, ResearchArea


def contract_batch() -> GraphBatch:
    """A small graph whose every answer is known by hand."""
    papers = [
        Paper(
            "p1",
            "Fast Xray Methods",
            "Fast Xray Methods",
            "We study xray methods for games.",
            "V",
            2024,
            citations=10,
            topic="f38C",
        ),
        Paper("p2", None, "Games with zebras.", "Games with zebras. Xray methods help.", None, None),
        Paper("p3", "Robots", "Robots", "Zebra robots walk.", "V", 2023, concept_norm=0.5, citations=50),
        Paper("p4", None, "Whales sing.", "Whales sing.", "W", 2023, True, citations=0),
    ]
    authors = [Author("ann lee", "Ann Lee"), Author("bo chen", "Bo Chen"), Author("cy dee", "Cy Dee"), Author("di eve", "Di Eve")]
    areas = [
        ResearchArea("Theory", "Theory", None),
        ResearchArea("Theory · Optimization", "Optimization", "Theory"),
        ResearchArea("Theory · Game Theory", "Game Theory", "Theory"),
        ResearchArea("Applications", "Applications", None),
        ResearchArea("Applications · Robotics", "Robotics", "Applications"),
    ]
    concepts = [
        Concept("xray method", "xray method", ("XM", "x-ray method"), "method family"),
        Concept("method family", "method family"),
        Concept("zebra", "zebra", ()),
        Concept("whale song", "whale song", ("WS",)),
        Concept("yak", "yak", ("XM",)),
    ]
    batch = GraphBatch(
        papers=papers,
        authors=authors,
        authored=[
            ("ann lee", "p1", 0),
            ("bo chen", "p1", 1),
            ("cy dee", "p2", 0),
            ("bo chen", "p2", 1),
            ("cy dee", "p3", 0),
            ("di eve", "p4", 0),
        ],
        areas=areas,
        in_area=[
            ("p1", "Theory · Optimization"),
            ("p2", "Theory · Game Theory"),
            ("p1", "Theory · Game Theory"),
            ("p3", "Applications · Robotics"),
        ],
        concepts=concepts,
        mentions=[
            ("p1", "xray method", 2.0),
            ("p1", "yak", 0.5),
            ("p2", "xray method", 1.0),
            ("p2", "zebra", 1.2),
            ("p3", "zebra", 1.5),
            ("p4", "whale song", 1.0),
        ],
        broader=[("xray method", "method family")],
        coauthor_increments={("ann lee", "bo chen"): 1, ("bo chen", "cy dee"): 1},
        shared={("p1", "p2"): (1.5, ("xray method",)), ("p2", "p3"): (1.2, ("zebra",))},
        institutions=[Institution("mit", "MIT"), Institution("eth zurich", "ETH Zurich")],
        affiliated={("ann lee", "mit"): 1, ("bo chen", "mit"): 2, ("bo chen", "eth zurich"): 1},
    )
    return batch
