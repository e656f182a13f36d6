// Uniqueness constraints for every node key (each also backs an index for MERGE and lookups).
CREATE CONSTRAINT paper_id IF NOT EXISTS FOR (p:Paper) REQUIRE p.id IS UNIQUE;
CREATE CONSTRAINT author_key IF NOT EXISTS FOR (a:Author) REQUIRE a.key IS UNIQUE;
CREATE CONSTRAINT concept_key IF NOT EXISTS FOR (c:Concept) REQUIRE c.key IS UNIQUE;
CREATE CONSTRAINT research_area_path IF NOT EXISTS FOR (r:ResearchArea) REQUIRE r.path IS UNIQUE;
