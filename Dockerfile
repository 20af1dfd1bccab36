# One image for every Node part of Shiplog. By default a container runs the whole app in one process
# (`scripts/one-process.ts`: `docker run` with DATABASE_URL, NATS_URL, REDIS_URL and the secrets); the
# compose file's full layout and deploy/k8s/ha run each service in a container of its own by command.
# Services run their TypeScript directly with Node 24's type stripping: there is no server build step.
# `node bench/run.ts image` runs the production stage's install here and measures what the image holds.

# The dependencies, downloaded from the lockfile alone: this layer is rebuilt when a dependency
# changes, not when the code does.
FROM node:24-bookworm-slim AS pnpm
RUN npm install -g pnpm@11.28.11
ENV PNPM_STORE=/pnpm/store
WORKDIR /app
COPY pnpm-lock.yaml pnpm-workspace.yaml ./
RUN pnpm fetch --store-dir "$PNPM_STORE" && rm -rf node_modules

# The web app, built with every dependency.
FROM pnpm AS build
COPY . .
RUN pnpm install --offline --frozen-lockfile --store-dir "$PNPM_STORE" && pnpm --filter @shiplog/web build

# What runs: production dependencies only, and none of the benches, tests, web sources or tools.
FROM pnpm AS production
COPY . .
RUN pnpm install --offline --frozen-lockfile --prod --store-dir "$PNPM_STORE" \
      --filter '!@shiplog/system' --filter '!@shiplog/testing' --filter '!@shiplog/web' --filter '!@shiplog/cli' \
 && rm -rf actions bench cli deploy docs libs/testing system web \
 && find . -path ./node_modules -prune -o -name '*.test.ts' -type f -exec rm {} +

FROM node:24-bookworm-slim
ENV NODE_ENV=production
# As scripts/app-processes.ts's processEnv: types stripped and compiled once, here, into a cache the
# containers read, 1 MB young-generation semi-spaces (4 MB for the gateway and projects, 8 MB for the
# one process, on their command lines here, in docker-compose.yml and in deploy/k8s) and two malloc
# arenas (`pnpm bench memory`), and tracing's preload, which loads nothing unless
# OTEL_EXPORTER_OTLP_ENDPOINT is set.
ENV NODE_COMPILE_CACHE=/app/.cache/node-compile NODE_OPTIONS="--max-semi-space-size=1 --import=/app/libs/telemetry/src/register.ts" MALLOC_ARENA_MAX=2
WORKDIR /app
COPY --from=production /app /app
COPY --from=build /app/web/dist /app/web/dist
RUN node --input-type=module -e "await import('/app/scripts/projections-rebuild.ts'); await import('/app/scripts/one-process.ts')"
USER node
EXPOSE 3000
# Every service and the gateway in one process; a container of one service runs e.g.
# `node services/identity/src/main.ts`, the gateway `node gateway/src/main.ts`.
CMD ["node", "--max-semi-space-size=8", "scripts/one-process.ts"]
