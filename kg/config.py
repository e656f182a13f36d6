"""Settings: the only module that reads the environment."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from typing import Annotated, Literal

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

__all__ = ["Settings", "get_settings"]


class Settings(BaseSettings):
    """Every setting of the service, read once from the environment."""

    model_config = SettingsConfigDict(env_prefix="", extra="ignore", populate_by_name=True)

    data_dir: Path = Field(
        default_factory=lambda: default_data_dir(),
        alias="KG_DATA_DIR",
        description="the embedded store's folder (default: the platform's per-user data folder)",
    )

    neo4j_uri: str | None = Field(default=None, alias="NEO4J_URI")
    neo4j_username: str = Field(default="neo4j", alias="NEO4J_USERNAME")
    neo4j_password: str | None = Field(
        default=None,
        alias="NEO4J_PASSWORD",
        description="unset: the password of the `kg neo4j start` server at NEO4J_URI, else 'neo4j'",
    )
    neo4j_database: str = Field(default="neo4j", alias="NEO4J_DATABASE")
    neo4j_batch_size: int = Field(default=1000, alias="KG_NEO4J_BATCH_SIZE", ge=1)
    migrations_dir: Path | None = Field(default=None, alias="KG_MIGRATIONS_DIR")
    local_neo4j_dir: Path = Field(default=Path(".kg/neo4j"), alias="KG_LOCAL_NEO4J_DIR")
    neo4j_cache_dir: Path = Field(default=Path.home() / ".cache" / "kg", alias="KG_CACHE_DIR")

    spacy_model: str | None = Field(default=None, alias="KG_SPACY_MODEL")
    concept_model: str | None = Field(
        default=None, alias="KG_CONCEPT_MODEL", description="a ranker file instead of the shipped one"
    )
    concepts_per_paper: int = Field(default=15, alias="KG_CONCEPTS_PER_PAPER", ge=1)
    workers: int = Field(default=2, alias="KG_WORKERS", ge=1, description="processes for tagging large batches")
    ingest_chunk: int = Field(
        default=5000,
        alias="KG_INGEST_CHUNK",
        ge=1,
        description="records per committed write; longer inputs stream in chunks of this many",
    )
    related_per_paper: int = Field(default=15, alias="KG_RELATED_PER_PAPER", ge=1)
    related_ranking: Literal["citations", "similarity"] = Field(
        default="citations",
        alias="KG_RELATED_RANKING",
        description="rank related papers by the ranker learned from citation links, or by similarity alone",
    )
    related_model: Path | None = Field(
        default=None, alias="KG_RELATED_MODEL", description="a related-papers ranker file instead of the shipped one"
    )
    max_line_bytes: int = Field(
        default=64 * 1024 * 1024,
        alias="KG_MAX_LINE_BYTES",
        ge=1024,
        description="the longest line (decompressed), or file read whole, an ingest reads; longer ones are refused",
    )
    works_model: Path | None = Field(
        default=None,
        alias="KG_WORKS_MODEL",
        description="a folder with a paper-matching model (model.json, model.npz) instead of the shipped one",
    )
    max_coauthor_byline: int = Field(
        default=100,
        alias="KG_MAX_COAUTHOR_BYLINE",
        ge=2,
        description="longest byline that still adds co-author pairs (and who-is-who evidence)",
    )
    citation_fanout: int = Field(
        default=1000,
        alias="KG_CITATION_FANOUT",
        ge=1,
        description="most papers citing one work (or the paper itself) that `citationLinks` reads, the first by id",
    )

    spark_connector_jar: Path | None = Field(
        default=None, alias="KG_SPARK_CONNECTOR_JAR", description="the Neo4j Spark connector jar (default: fetched into ~/.m2)"
    )

    max_depth: int = Field(default=10, alias="KG_GRAPHQL_MAX_DEPTH", ge=2)
    max_network_depth: int = Field(default=3, alias="KG_MAX_NETWORK_DEPTH", ge=1)
    max_cost: int = Field(default=5_000_000, alias="KG_GRAPHQL_MAX_COST", ge=1, description="largest operation cost accepted")
    max_aliases: int = Field(default=30, alias="KG_GRAPHQL_MAX_ALIASES", ge=1)
    max_tokens: int = Field(default=5_000, alias="KG_GRAPHQL_MAX_TOKENS", ge=100)
    request_deadline: float = Field(default=10.0, alias="KG_REQUEST_DEADLINE", gt=0, description="seconds one operation may run")
    max_body_bytes: int = Field(default=100_000, alias="KG_MAX_BODY_BYTES", ge=1_000)
    max_answer_bytes: int = Field(
        default=16 * 1024 * 1024,
        alias="KG_MAX_ANSWER_BYTES",
        ge=10_000,
        description="the largest answer a GraphQL request gets (as JSON); one that grows past it is stopped with an error",
    )
    max_query_words: int = Field(default=32, alias="KG_MAX_QUERY_WORDS", ge=1, description="words in a search or text filter")
    openapi: bool = Field(
        default=False, alias="KG_OPENAPI", description="serve /docs, /redoc and /openapi.json (FastAPI's pages)"
    )
    client_concurrency: int = Field(
        default=64, alias="KG_CLIENT_CONCURRENCY", ge=1, description="GraphQL requests one client may have in flight"
    )
    client_heavy_seconds: float = Field(
        default=5.0,
        alias="KG_CLIENT_HEAVY_SECONDS",
        gt=0,
        description="CPU seconds of heavy work one client may use a minute (kg.api.fairness)",
    )
    client_reads: int = Field(
        default=2,
        alias="KG_CLIENT_READS",
        ge=1,
        description="read threads one client's requests may hold at once (of 8), however many it has in flight",
    )
    trusted_proxies: Annotated[list[str], NoDecode] = Field(
        default=[],
        alias="KG_TRUSTED_PROXIES",
        description="addresses of reverse proxies whose X-Forwarded-For kg believes (comma-separated); none by default",
    )
    light_request_seconds: float = Field(
        default=0.1, alias="KG_LIGHT_REQUEST_SECONDS", ge=0, description="CPU seconds of a request's store reads that are free"
    )
    api_keys: Annotated[list[str], NoDecode] = Field(
        default=[], alias="KG_API_KEYS", description="keys naming clients (X-API-Key)"
    )
    allowed_hosts: Annotated[list[str], NoDecode] = Field(default=["127.0.0.1", "localhost", "::1"], alias="KG_ALLOWED_HOSTS")

    @field_validator("allowed_hosts", "api_keys", "trusted_proxies", mode="before")
    @classmethod
    def _comma_separated(cls, value):
        """``KG_ALLOWED_HOSTS=kg.example.org,127.0.0.1``: the Host names the API answers (DNS-rebinding guard)."""
        return [h.strip() for h in value.split(",") if h.strip()] if isinstance(value, str) else value


def default_data_dir() -> Path:
    """The embedded store's default folder: the platform's per-user data folder for kg (``platformdirs``;
    on Linux ``$XDG_DATA_HOME/kg``, else ``~/.local/share/kg``), never the current directory."""
    from platformdirs import user_data_path

    return user_data_path("kg", appauthor=False)


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()
