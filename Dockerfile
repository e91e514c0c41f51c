# syntax=docker/dockerfile:1
# Voxgate: the compiled server (plain Node, no tsx) with the built widget. See docs/deploy.md.

FROM node:20-bookworm-slim AS build
WORKDIR /app
RUN corepack enable && corepack prepare pnpm@10.34.9 --activate
# Manifests first: the dependency layer is reused until the lockfile or a manifest changes.
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml ./
COPY packages/server/package.json packages/server/
COPY packages/rest-compat/package.json packages/rest-compat/
COPY packages/widget/package.json packages/widget/
COPY scripts scripts
# The install's postinstall steps (Prisma client, widget) need the sources: they run below instead.
RUN VOXGATE_PREPARE_LOCK_HELD=1 pnpm install --frozen-lockfile --ignore-scripts
COPY . .
RUN pnpm rebuild && node scripts/prepare.mjs prisma widget server

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production HOST=0.0.0.0 PORT=4000 VOXGATE_DATA_DIR=/data
WORKDIR /app
COPY --from=build --chown=node:node /app /app
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 4000
VOLUME ["/data"]
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||4000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# node itself is PID 1's child-free process: SIGTERM from `docker stop` reaches the server directly.
CMD ["node", "packages/server/dist/main.js"]
