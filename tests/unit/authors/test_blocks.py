"""A block counts each spelling alike whether it saw the mention or read the person back from a store."""

from __future__ import annotations

from kg.authors.assign import Block, Person, mention_of
from kg.authors.profile import Profile


def test_a_person_read_back_counts_their_spellings_as_the_mentions_did():
    names = ["Yi-Ling Chen", "Yi Ling Chen", "Mark Hasegawa-Johnson", "M. Gienger"]
    mentions = [mention_of(f"p{i}", 0, n, [], None, "ICRA 2020", 2020, ()) for i, n in enumerate(names)]
    seen = Block()
    for m in mentions:
        seen.saw(m)
    read_back = Block()
    for m in mentions:
        profile = Profile()
        profile.add(m)
        read_back.join(Person(f"k{m.paper}", m.written, m.block, Profile.decode(profile.encode())))
    assert read_back.spellings == seen.spellings and read_back.mentions == seen.mentions
    assert seen.spellings["yiling"] == 2
