"""A batch's bylines as mentions: the other names of the byline, folded, and none from a byline over the limit."""

from __future__ import annotations

from helpers import member
from kg.authors.stage import batch_mentions
from kg.graph.build import build_batch, merge_records
from kg.models import SourceRecord


def _batch(*bylines, limit=100):
    records = [
        SourceRecord("t.jsonl", i + 1, f"Abstract {i}.", tuple(names), title=f"Paper {i}") for i, names in enumerate(bylines)
    ]
    merged = merge_records(records)
    return build_batch(merged, {}, new_ids={m.id for m in merged}, max_coauthor_byline=limit)


def test_a_mention_holds_the_other_names_of_its_byline_folded_and_once():
    batch = _batch(["Ann Lee", "Bo Chen", "Aurélien Lucchi"], ["Bo Chen", "Ann Lee"])
    mentions = [m for _, m in batch_mentions(batch)]
    assert [m.written for m in mentions] == ["Ann Lee", "Bo Chen", "Aurélien Lucchi", "Bo Chen", "Ann Lee"]
    assert [m.coauthors for m in mentions] == [
        ("bo chen", "aurelien lucchi"),
        ("ann lee", "aurelien lucchi"),
        ("ann lee", "bo chen"),
        ("ann lee",),
        ("bo chen",),
    ]


def test_a_byline_over_the_limit_gives_no_coauthors_as_it_gives_no_pairs():
    names = [member(i) for i in range(12)]
    batch = _batch(names, [member(1), member(2)], limit=10)
    mentions = batch_mentions(batch, max_coauthor_byline=10)
    big = [m for _, m in mentions if m.paper == batch.papers[0].id]
    small = [m for _, m in mentions if m.paper == batch.papers[1].id]
    assert len(big) == 12 and all(m.coauthors == () for m in big)
    assert [m.coauthors for m in small] == [("member aaac",), ("member aaab",)]


def test_training_reads_a_byline_printed_twice_as_the_ingest_does():
    # ICRA's and IROS's listings print every byline twice: the model must learn from the mentions an ingest makes,
    # where no one is their own co-author
    from kg.training.author_papers import TrainingPaper, paper_mentions

    byline = ("C.M.B. Rodrigues", "J.A.T. Machado", "Ann Lee", "C.M.B. Rodrigues", "J.A.T. Machado", "Ann Lee")
    ingest = [m for _, m in batch_mentions(_batch(byline))]
    paper = TrainingPaper("p", "Paper 0", "Abstract 0.", byline, ("a", "b", "c", "a", "b", "c"), None, (), "ICRA 2001", 2001)
    training = [m for m, _ in paper_mentions(paper, ())]
    assert [(m.position, m.written, m.coauthors) for m in training] == [(m.position, m.written, m.coauthors) for m in ingest]
    assert [m.coauthors for m in training] == [
        ("j a t machado", "ann lee"),
        ("c m b rodrigues", "ann lee"),
        ("c m b rodrigues", "j a t machado"),
    ]
    assert [g for _, g in paper_mentions(paper, ())] == ["a", "b", "c"]
