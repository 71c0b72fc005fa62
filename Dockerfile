# self_rag's MCP server, as docker-compose.yaml runs it. Build: docker compose build
FROM python:3.11-slim

# Nothing phones home: onnxruntime's telemetry and litellm's cost-map download stay off.
# DATA_DIR is a volume (see docker-compose.yaml).
ENV ORT_DISABLE_TELEMETRY=1 \
    LITELLM_LOCAL_MODEL_COST_MAP=True \
    DATA_DIR=/data \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# The package and its dependencies. The embedding models come inside PyPI packages,
# so the image needs no network once built.
WORKDIR /src
COPY settings.ini setup.py README.md ./
COPY self_rag ./self_rag
RUN pip install .

RUN useradd --create-home --uid 1000 self_rag && mkdir -p /data && chown self_rag /data
USER self_rag
WORKDIR /data
VOLUME /data

EXPOSE 8000
ENTRYPOINT ["self-rag"]
CMD ["serve", "--transport", "streamable-http", "--host", "0.0.0.0", "--port", "8000"]
