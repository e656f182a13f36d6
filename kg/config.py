"""Settings: the only module that reads the environment."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

__all__ = ["Settings", "get_settings"]


class Settings(BaseSettings):
    """Every setting of the service, read once from the environment."""

    model_config = SettingsConfigDict(env_prefix="", extra="ignore", populate_by_name=True)

    data_dir: Path = Field(default=Path("kg-data"), alias="KG_DATA_DIR")

    neo4j_uri: str | None = Field(default=None, alias="NEO4J_URI")
    neo4j_username: str = Field(default="neo4j", alias="NEO4J_USERNAME")
    neo4j_password: str = Field(default="neo4j", alias="NEO4J_PASSWORD")
    neo4j_database: str = Field(default="neo4j", alias="NEO4J_DATABASE")
    neo4j_batch_size: int = Field(default=1000, alias="KG_NEO4J_BATCH_SIZE", ge=1)
    migrations_dir: Path | None = Field(default=None, alias="KG_MIGRATIONS_DIR")
    local_neo4j_dir: Path = Field(default=Path(".kg/neo4j"), alias="KG_LOCAL_NEO4J_DIR")
    neo4j_cache_dir: Path = Field(default=Path.home() / ".cache" / "kg", alias="KG_CACHE_DIR")

    spacy_model: str | None = Field(default=None, alias="KG_SPACY_MODEL")
    concept_model: str | None = Field(default=None, alias="KG_CONCEPT_MODEL", description="a ranker file instead of the shipped one")
    concepts_per_paper: int = Field(default=10, alias="KG_CONCEPTS_PER_PAPER", ge=1)
    workers: int = Field(default=2, alias="KG_WORKERS", ge=1, description="processes for tagging large batches")
    related_per_paper: int = Field(default=15, alias="KG_RELATED_PER_PAPER", ge=1)

    max_depth: int = Field(default=10, alias="KG_GRAPHQL_MAX_DEPTH", ge=2)
    max_network_depth: int = Field(default=3, alias="KG_MAX_NETWORK_DEPTH", ge=1)

    @property
    def store_kind(self) -> str:
        return "neo4j" if self.neo4j_uri else "embedded"


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()
