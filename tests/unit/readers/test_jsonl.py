import json

import pytest

from kg.errors import ReaderError
from kg.readers import read_jsonl


def write(tmp_path, lines):
    path = tmp_path / "papers.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


GOOD = {
    "id": "p1",
    "title": "A  Title",
    "authors": ["Ada Lovelace", "Alan Turing"],
    "abstract": "We study. ",
    "area": "generative models",
    "keywords": ["diffusion", "diffusion"],
    "venue": "ICLR 2024",
    "year": 2024,
}


def test_reads_fields(tmp_path):
    [record] = list(read_jsonl(write(tmp_path, [json.dumps(GOOD)])))
    assert record.id == "p1" and record.title == "A  Title" and record.abstract == "We study."
    assert record.authors == ("Ada Lovelace", "Alan Turing")
    assert record.area == ("generative models",) and record.year == 2024 and record.line == 1


def test_null_area_and_empty_keywords(tmp_path):
    obj = dict(GOOD, area=None, keywords=[])
    [record] = list(read_jsonl(write(tmp_path, [json.dumps(obj)])))
    assert record.area is None and record.keywords == ()


def test_wrong_json_names_file_and_line(tmp_path):
    path = write(tmp_path, [json.dumps(GOOD), '{"id": "p2", "abstract": '])
    with pytest.raises(ReaderError, match=r"papers.jsonl:2: invalid JSON"):
        list(read_jsonl(path))


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"abstract": "", "title": ""}, "abstract"),
        ({"abstract": 5}, "abstract"),
        ({"authors": "Ada"}, "authors"),
        ({"year": "2024"}, "year"),
        ({"title": 3}, "title"),
    ],
)
def test_bad_field_is_named(tmp_path, change, field):
    path = write(tmp_path, [json.dumps(dict(GOOD, **change))])
    with pytest.raises(ReaderError, match=rf"papers.jsonl:1: field '{field}'"):
        list(read_jsonl(path))


def test_invalid_utf8(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_bytes(json.dumps(GOOD).encode() + b"\n" + b'{"abstract": "\xc3\x28"}\n')
    with pytest.raises(ReaderError, match=r"bad.jsonl:2: invalid UTF-8"):
        list(read_jsonl(path))


def test_utf8_read_as_latin1_is_mended(tmp_path):
    # 'ä' and 'ï' as UTF-8 bytes read one byte a character, the way some crawls hand them on; true accents stay
    obj = dict(
        GOOD,
        title="A naÃ¯ve Bayes",
        abstract="We study naÃ¯ve Bayes â\x80\x93 again.",
        authors=["Linh KÃ¤stner", "Hông-Ân Sandlin"],
    )
    [record] = list(read_jsonl(write(tmp_path, [json.dumps(obj)])))
    assert record.title == "A naïve Bayes" and record.abstract == "We study naïve Bayes – again."
    assert record.authors == ("Linh Kästner", "Hông-Ân Sandlin")
