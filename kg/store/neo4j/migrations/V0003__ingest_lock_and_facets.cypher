// One ingest at a time per database: the lease node `kg ingest` holds (MERGE on a unique key is race-free).
CREATE CONSTRAINT kg_ingest_lock_name IF NOT EXISTS FOR (l:KgIngestLock) REQUIRE l.name IS UNIQUE;
// Facets and sorting: papers by year, venue and citations.
CREATE INDEX paper_year IF NOT EXISTS FOR (p:Paper) ON (p.year);
CREATE INDEX paper_venue IF NOT EXISTS FOR (p:Paper) ON (p.venue);
CREATE INDEX paper_citations IF NOT EXISTS FOR (p:Paper) ON (p.citations);
// Source author ids (ORCID, OpenAlex, Semantic Scholar): (:AuthorId {id})-[:IDENTIFIES]->(:Author).
CREATE CONSTRAINT author_source_id IF NOT EXISTS FOR (i:AuthorId) REQUIRE i.id IS UNIQUE;
// Autocomplete: word prefixes of author names, concept names and aliases, and paper labels (the title, else the first sentence).
CREATE FULLTEXT INDEX suggest IF NOT EXISTS FOR (n:Author|Concept|Paper) ON EACH [n.name, n.alias_text, n.label];
// Institutions from affiliations.
CREATE CONSTRAINT institution_key IF NOT EXISTS FOR (i:Institution) REQUIRE i.key IS UNIQUE;
