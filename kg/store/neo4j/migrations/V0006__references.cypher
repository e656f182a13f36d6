// Citations: (:Paper)-[:CITES]->(:Ref {key}) and (:Paper)-[:KNOWN_AS]->(:Ref {key}); a Ref no paper is known as is a stub.
CREATE CONSTRAINT ref_key IF NOT EXISTS FOR (k:Ref) REQUIRE k.key IS UNIQUE;
