"""A profile's topics: the exact sum of its papers' stored topic vectors, in any order, kept through a store."""

from __future__ import annotations

from kg.authors.assign import mention_of, stored_topic
from kg.authors.features import topic_cosine
from kg.authors.profile import Profile
from kg.extract.topics import load_topics, paper_text

ROBOTS = "Legged robot locomotion on rough terrain with model predictive control of a quadruped."
WALKING = "A quadruped robot learns to walk over rough terrain with whole-body model predictive control."
WORDS = "Machine translation for low-resource language pairs with transformer language models."


def mention(i: int, text: str):
    topic = stored_topic(load_topics().signature(paper_text(None, text)))
    return mention_of(f"p{i}", 0, "Wei Wang", [], None, "ICRA 2020", 2020, (), topic=topic)


def test_topics_add_up_exactly_in_any_order_and_survive_a_store():
    a, b = Profile(), Profile()
    ms = [mention(0, ROBOTS), mention(1, WORDS), mention(2, WALKING)]
    for m in ms:
        a.add(m)
    for m in reversed(ms):
        b.add(m)
    assert a.topic == b.topic == [sum(t) for t in zip(*(m.topic for m in ms))]
    assert a.encode() == b.encode() and Profile.decode(a.encode()).topic == a.topic


def test_the_topic_feature_tells_a_field_from_another():
    robots = Profile()
    robots.add(mention(0, ROBOTS))
    assert topic_cosine(mention(1, WALKING).topic, robots.topic) > topic_cosine(mention(2, WORDS).topic, robots.topic)


def test_a_profile_stored_before_topics_reads_as_having_none():
    old = '{"n":1,"names":{"wei":1},"co":{},"aff":{},"venues":{},"years":{},"concepts":{},"ids":[]}'
    profile = Profile.decode(old)
    assert profile.topic == [] and topic_cosine(mention(0, ROBOTS).topic, profile.topic) == 0.0
    assert stored_topic("") is None


def test_a_profiles_head_is_its_papers_and_given_names():
    p = Profile()
    for i, name in enumerate(["Wei Wang", 'Wei "Vivian" Wang', "W. Wang"]):
        p.add(mention_of(f"p{i}", 0, name, ['A. "co" Author', ',"co":'], "ETH Zurich", "ICRA 2020", 2020, ("slam",)))
    head = Profile.head(p.encode())
    assert len(head) < len(p.encode())
    short = Profile.decode(head)
    assert (short.papers, short.names) == (p.papers, p.names) and not short.coauthors and not short.concepts
    assert Profile.head("") == "" and Profile.decode(Profile.head(head)).names == p.names


def test_a_name_is_looked_up_alike_from_profile_heads(seeded_embedded):
    from kg.authors.lookup import resolve

    store = seeded_embedded.store
    names = [a.name for a in seeded_embedded.authors(None, 0, 300).items]
    assert len(names) > 100
    for name in names + ["wei lin", "W. Lin", "Lin Wei", "Nobody Here"]:
        whole, heads = resolve(store, name), resolve(store, name, heads=True)
        assert whole[0] == heads[0] and [r[0] for r in whole[1]] == [r[0] for r in heads[1]], name
