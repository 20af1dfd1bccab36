# One image for every Node part of Shiplog; each container runs one of them (see docker-compose.yml).
# Services run their TypeScript directly with Node 24's type stripping: there is no server build step.
FROM node:24-bookworm-slim AS build
WORKDIR /app
RUN npm install -g pnpm@11.28.11
COPY . .
RUN pnpm install --frozen-lockfile && pnpm --filter @shiplog/web build

FROM node:24-bookworm-slim
ENV NODE_ENV=production
# As scripts/app-processes.ts's processEnv: types stripped and compiled once, here, into a cache the
# containers read, 1 MB young-generation semi-spaces (4 MB for the gateway and projects, on their command
# lines in docker-compose.yml and deploy/k8s) and two malloc arenas (`pnpm bench memory`), and
# tracing's preload, which loads nothing unless OTEL_EXPORTER_OTLP_ENDPOINT is set.
ENV NODE_COMPILE_CACHE=/app/.cache/node-compile NODE_OPTIONS="--max-semi-space-size=1 --import=/app/libs/telemetry/src/register.ts" MALLOC_ARENA_MAX=2
WORKDIR /app
COPY --from=build /app /app
RUN node --input-type=module -e "await import('/app/scripts/projections-rebuild.ts'); await import('/app/gateway/src/server.ts')"
USER node
# Overridden per container, e.g. `node services/identity/src/main.ts`.
CMD ["node", "gateway/src/main.ts"]
