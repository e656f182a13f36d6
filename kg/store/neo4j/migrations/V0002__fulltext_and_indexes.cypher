// Full-text search over paper titles and abstracts, and the indexes the queries filter on.
CREATE FULLTEXT INDEX paper_text IF NOT EXISTS FOR (p:Paper) ON EACH [p.title, p.abstract];
CREATE INDEX research_area_top IF NOT EXISTS FOR (r:ResearchArea) ON (r.top);
CREATE INDEX research_area_parent IF NOT EXISTS FOR (r:ResearchArea) ON (r.parent);
