# syntax=docker/dockerfile:1
# The portal. Build from the repository root:
#   docker build -f deploy/portal.Dockerfile -t portal:<version> .
# Runs `next start` on the .next build with production dependencies only. At run time the portal
# reads config/ (roles, the shipped catalog), lib/portal/db/migrations and runs git (config and
# source repositories), so those come along.
ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force

FROM ${NODE_IMAGE} AS build
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build:portal && rm -rf .next/cache

FROM ${NODE_IMAGE}
RUN apt-get update \
  && apt-get install -y --no-install-recommends git ca-certificates \
  && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    PORT=3000 \
    PORTAL_HOST=0.0.0.0 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/package.json /app/next.config.mjs ./
COPY --from=build /app/.next ./.next
COPY --from=build /app/config ./config
COPY --from=build /app/lib/portal/db/migrations ./lib/portal/db/migrations
# DATA_DIR: the portal's private working copy of the config repository and, on the embedded
# defaults, its databases and generated secrets.
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node_modules/.bin/next", "start", "--hostname", "0.0.0.0"]
