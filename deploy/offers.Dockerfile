# syntax=docker/dockerfile:1
# The offers service. Build from the repository root:
#   docker build -f deploy/offers.Dockerfile -t offers:<version> .
# Runs dist/offers/main.mjs (npm run build:offers bundles our code; npm packages stay external and
# come from a production-only node_modules). Migrations are read from lib/offers/db/migrations under
# the working directory at start.
ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build:offers

FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    OFFERS_HOST=0.0.0.0 \
    OFFERS_PORT=4000 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/dist/offers ./dist/offers
COPY --from=build /app/lib/offers/db/migrations ./lib/offers/db/migrations
# DATA_DIR holds only what the embedded defaults generate; with OFFERS_DATABASE_URL and the secrets
# set (as in deploy/k8s) nothing is written there.
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 4000
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.OFFERS_PORT||4000)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Exec form: node is PID 1 and gets SIGTERM itself (main.ts drains for at most 10 s).
# The preload starts tracing (when OTEL_EXPORTER_OTLP_ENDPOINT is set) before main's modules load.
CMD ["node", "--enable-source-maps", "--import", "./dist/offers/tracing.mjs", "dist/offers/main.mjs"]
