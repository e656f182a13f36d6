from pathlib import Path

import pytest

from kg.errors import ReaderError
from kg.readers import expand_paths, read_listing, read_path
from kg.readers.listing import parse_area, parse_byline

from helpers import SAMPLES

SEED_A = SAMPLES / "000_5a0f2845ea482b21.txt"
SEED_B = SAMPLES / "004_2af217a499316a6e.txt"


def write(tmp_path: Path, text: str | bytes, name: str = "listing.txt") -> Path:
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return path


def test_seed_a_has_entries_with_and_without_areas():
    records = list(read_listing(SEED_A))
    assert len(records) == 20
    assert sum(r.area is None for r in records) == 9
    first = records[0]
    assert first.area == ("Deep Learning", "Algorithms")
    assert first.authors[0] == "Senkang Hu" and "Sam Kwong" in first.authors
    assert first.abstract.startswith("Adapting billion-parameter language models")


def test_entry_starts_are_line_numbers():
    records = list(read_listing(SEED_A))
    lines = SEED_A.read_text(encoding="utf-8").splitlines()
    assert lines[records[0].line - 1] == "Deep Learning · Algorithms"
    for record in records:
        assert (
            lines[record.line - 1].strip() in {" · ".join(record.area or ()), ", ".join(record.authors)}
            or record.authors_truncated
        )


def test_et_al_marker_is_dropped_and_remembered():
    record = next(r for r in read_listing(SEED_A) if r.authors_truncated)
    assert record.authors[-1] == "Zhen Chen"
    assert "JunhuaShu JunhuaShu" in record.authors  # the reader keeps names raw; identity cleans them


def test_repeated_paper_is_listed_twice_once_without_area():
    records = [r for r in read_listing(SEED_B) if r.abstract.startswith("We propose a distributional framework")]
    assert len(records) == 2
    assert [r.area for r in records] == [None, ("Reinforcement Learning", "Inverse")]


def test_parse_area_and_byline():
    assert parse_area("Theory · Everything Else") == ("Theory", "Everything Else")
    assert parse_area("We study things. A · B") is None
    assert parse_byline("A B, C D 等") == (("A B", "C D"), True)
    assert parse_byline("This is not a byline, because it has a sentence that is far too long to be a name of anyone.") is None


def test_truncated_entry_names_file_and_line(tmp_path):
    path = write(tmp_path, "header\n\nTheory · Everything Else\n\nAda Lovelace, Alan Turing\n")
    with pytest.raises(ReaderError) as err:
        list(read_listing(path))
    assert err.value.line == 5 and str(path) in str(err.value) and "truncated" in str(err.value)


def test_area_without_byline_is_truncated(tmp_path):
    path = write(tmp_path, "header\n\nAda Lovelace\n\nAn abstract. It has sentences.\n\nTheory · Everything Else\n")
    with pytest.raises(ReaderError, match=r"listing.txt:7: truncated entry"):
        list(read_listing(path))


def test_abstract_where_byline_expected(tmp_path):
    text = "header\n\nAda Lovelace\n\nFirst abstract. It is long enough.\n\nSecond abstract follows without a byline. Surely this is wrong.\n\nMore text.\n"
    with pytest.raises(ReaderError, match=r":7: expected a byline"):
        list(read_listing(path := write(tmp_path, text)))
    assert path.exists()


def test_invalid_utf8_names_the_line(tmp_path):
    path = write(tmp_path, b"header\n\nAda Lovelace\n\nBad \xff byte here.\n")
    with pytest.raises(ReaderError, match=r"listing.txt:5: invalid UTF-8"):
        list(read_listing(path))


def test_expand_paths_folder_and_unknown(tmp_path):
    assert [p.name for p in expand_paths([SAMPLES])] == [SEED_A.name, SEED_B.name]
    odd = write(tmp_path, "x", "notes.docx")
    with pytest.raises(ReaderError, match="unknown format"):
        expand_paths([odd])
    with pytest.raises(ReaderError, match="no such file"):
        expand_paths([tmp_path / "missing.txt"])


def test_read_path_dispatches_by_extension():
    assert len(list(read_path(SEED_B))) == 20
