from kg.api.graphql.schema import schema_sdl

from helpers import ROOT


def test_exported_schema_matches_the_code():
    exported = (ROOT / "graphql" / "schema.graphql").read_text(encoding="utf-8")
    assert exported == schema_sdl(), "graphql/schema.graphql drifted: run `kg schema -o graphql/schema.graphql`"


def test_contract_names_are_in_the_schema():
    sdl = schema_sdl()
    for needle in (
        "stats: Stats!",
        "paper(id: ID!): Paper",
        "papers(filter: PaperFilter = null, first: Int = 20, after: String = null, orderBy: PaperOrder! = ID): PaperConnection!",
        "paperFacets(filter: PaperFilter = null): PaperFacets!",
        "author(name: String = null, id: ID = null): Author",
        "people(name: String!): [Person!]!",
        "concept(name: String!): Concept",
        "researchAreas: [ResearchArea!]!",
        "search(query: String!, first: Int = 10): [SearchHit!]!",
        "collaborationPath(from: String!, to: String!): [Author!]",
        "related(first: Int = 10): [RelatedPaper!]!",
        "network(depth: Int = 2, first: Int = null): CoauthorNetwork!",
        "suggest(prefix: String!, first: Int = 5): [Suggestion!]!",
    ):
        assert needle in sdl, needle
