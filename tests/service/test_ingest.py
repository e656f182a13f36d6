"""Ingest end to end on the embedded store: the seed quirks, idempotence, atomicity."""

from __future__ import annotations

import shutil

import pytest

from kg.errors import ReaderError, StoreError
from kg.graph.build import GraphBatch
from kg.graph.identity import paper_id
from kg.readers import read_path
from kg.service import PaperQuery

from helpers import SAMPLES, shared_edges, concept_postings

SEED_A = SAMPLES / "000_5a0f2845ea482b21.txt"
SEED_B = SAMPLES / "004_2af217a499316a6e.txt"


def snapshot(svc):
    store = svc.store
    return store.stats(), shared_edges(store), sorted(concept_postings(store).items())


def test_seeds_make_one_paper_per_abstract(seeded_embedded):
    s = seeded_embedded.stats()
    assert (s.papers, s.authors) == (39, 206)
    repeated = [r for r in read_path(SEED_B) if r.abstract.startswith("We propose a distributional framework")][0]
    pid = paper_id(repeated)
    [areas] = seeded_embedded.store.areas_of_papers([pid])
    assert [a.path for a in areas] == ["Reinforcement Learning · Inverse"]
    coauthors = seeded_embedded.store.coauthors_of(["feiyang wu"])[0]
    assert {(c.author_key, c.joint_papers) for c in coauthors} == {("ye zhao", 1), ("anqi wu", 1)}


def test_name_quirks_resolve(seeded_embedded):
    assert seeded_embedded.author("WEI LIN").name == "Wei Lin"
    assert seeded_embedded.author("junhua   shu").name == "Junhua Shu"
    assert seeded_embedded.author("JunhuaShu JunhuaShu").key == "junhua shu"
    page = seeded_embedded.papers(PaperQuery(author="Zhaolong Xing"), 0, 5)
    assert page.total == 1 and seeded_embedded.store.papers_by_ids([page.items[0].id])[0].authors_truncated


def test_title_less_papers_get_a_label(seeded_embedded):
    page = seeded_embedded.papers(PaperQuery(), 0, 100)
    assert all(p.title is None and p.label and len(p.label) <= 91 for p in page.items)
    assert all("$" not in p.label and "**" not in p.label for p in page.items)


def test_second_ingest_changes_nothing(service):
    service.ingest([SAMPLES])
    before = snapshot(service)
    summary = service.ingest([SAMPLES])
    assert summary.papers_added == 0 and summary.papers_already_present == 39
    assert snapshot(service) == before


def test_ingest_is_incremental(service, tmp_path, extractor):
    service.ingest([SEED_A])
    first = service.stats()
    assert first.papers == 20
    service.ingest([SEED_B])
    both = service.stats()
    assert both.papers == 39 and both.authors == 206
    assert both.coauthor_edges == 553 and both.research_areas == 28


def test_failing_ingest_leaves_the_store_as_it_was(service, tmp_path):
    service.ingest([SEED_A])
    before = snapshot(service)
    file_bytes = service.store.path.read_bytes()
    bad = tmp_path / "bad.txt"
    bad.write_text("header\n\nTheory · Everything Else\n\nAda Lovelace\n", encoding="utf-8")
    with pytest.raises(ReaderError, match="bad.txt:5"):
        service.ingest([SEED_B, bad])
    assert snapshot(service) == before and service.store.path.read_bytes() == file_bytes


def test_failed_write_leaves_the_store_as_it_was(service, monkeypatch):
    service.ingest([SEED_A])
    before = snapshot(service)
    file_bytes = service.store.path.read_bytes()

    def broken_write(target, data):
        raise StoreError("disk full")

    monkeypatch.setattr(service.store.log, "_write_atomically", broken_write)
    with pytest.raises(StoreError):
        service.ingest([SEED_B])
    assert snapshot(service) == before and service.store.path.read_bytes() == file_bytes


def test_store_survives_a_restart(service, settings, extractor, tmp_path):
    from kg.service import KGService
    from kg.store.embedded import EmbeddedStore

    service.ingest([SEED_B])
    again = KGService(EmbeddedStore(settings.data_dir), settings, extractor=extractor)
    assert snapshot(again) == snapshot(service)


def test_folder_with_a_copy_of_the_seeds(service, tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    shutil.copy(SEED_A, folder / "a.txt")
    shutil.copy(SEED_A, folder / "b.txt")
    summary = service.ingest([folder])
    assert summary.records == 40 and summary.papers_added == 20 and summary.repeated_listings == 20


def test_a_reader_sees_another_process_ingest(service, settings):
    from kg.store.embedded import EmbeddedStore

    reader = EmbeddedStore(settings.data_dir)
    assert reader.stats().papers == 0
    service.ingest([SEED_A])
    assert reader.stats().papers == 20  # re-read because the file changed


def test_a_writer_that_read_an_older_file_is_refused(service, settings, extractor):
    from kg.service import KGService
    from kg.store.embedded import EmbeddedStore

    service.ingest([SEED_A])
    stale = list(service.store.log.names())
    KGService(EmbeddedStore(settings.data_dir), settings, extractor=extractor).ingest([SEED_B])
    with pytest.raises(StoreError, match="changed while this ingest ran"):
        service.store.log.append(GraphBatch(), expected=stale)
    assert EmbeddedStore(settings.data_dir).stats().papers == 39
