from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from kg.api.app import create_app

from helpers import GraphQLClient


@pytest.fixture(scope="module")
def gql(seeded_embedded) -> GraphQLClient:
    with TestClient(create_app(seeded_embedded)) as client:
        yield GraphQLClient(client)
