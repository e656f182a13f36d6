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
