// Paper identity (kg.works): (:Paper)-[:IN_BLOCK]->(:WorkBlock {key}), the title blocks a new record is compared in.
CREATE CONSTRAINT work_block_key IF NOT EXISTS FOR (b:WorkBlock) REQUIRE b.key IS UNIQUE;
