# One image for every Node part of Shiplog; each container runs one of them (see docker-compose.yml).
# Services run their TypeScript directly with Node 24's type stripping: there is no server build step.
FROM node:24-bookworm-slim AS build
WORKDIR /app
RUN npm install -g pnpm@11.28.11
COPY . .
RUN pnpm install --frozen-lockfile && pnpm --filter @shiplog/web build

FROM node:24-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app /app
USER node
# Overridden per container, e.g. `node services/identity/src/main.ts`.
CMD ["node", "gateway/src/main.ts"]
