# syntax=docker/dockerfile:1
# Voxgate: the compiled server (plain Node, no tsx) with the built widget. See docs/deploy.md.

FROM node:20-bookworm-slim AS build
WORKDIR /app
RUN corepack enable && corepack prepare pnpm@10.34.9 --activate
# The lockfile alone fills pnpm's store: that layer is reused until the lockfile changes.
COPY pnpm-lock.yaml pnpm-workspace.yaml ./
COPY patches ./patches
RUN pnpm fetch
COPY . .
# What `npm run build` does: install (from the store), Prisma client, widget, server compiled to JavaScript.
RUN node scripts/prepare.mjs

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production HOST=0.0.0.0 PORT=4000 VOXGATE_DATA_DIR=/data
# glibc's allocator and V8's young generation as `npm start` sets them (package.json; docs/architecture.md, "The
# embedded store's memory"): two arenas and large blocks mapped on their own, so what a finished document's worker
# threads freed goes back; 4 MB semi-spaces instead of up to 16 MB.
ENV MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=65536
WORKDIR /app
COPY --from=build --chown=node:node /app /app
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 4000
VOLUME ["/data"]
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||4000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# Node is PID 1 (no npm or shell in between): SIGTERM from `docker stop` reaches the server's handler.
CMD ["node", "--max-semi-space-size=4", "packages/server/dist/main.js"]
