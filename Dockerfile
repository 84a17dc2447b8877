# Context Hub: a production image. Build: docker build -t context-hub .
# Run (embedded store on a volume):
#   docker run -p 8000:8000 -v context-hub-data:/data -e ALLOWED_HOST=hub.example.com context-hub
# See docs/operations.md ("The container") for PostgreSQL, replicas and the compose file.

# --- build: every dependency, then the TypeScript build and the embedded-store template ---------
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts ./scripts
# Without scripts: `prepare` would build before the sources are here; postinstall runs below.
RUN npm ci --ignore-scripts && node scripts/patch-dependencies.mjs
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY migrations ./migrations
COPY data-bundled ./data-bundled
# tsc, then .template/ (initdb + migrations + bundled rates: a first start skips initdb).
RUN npm run build

# --- runtime: production dependencies and the build output only -----------------------------------
FROM node:20-bookworm-slim AS runtime
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
COPY scripts ./scripts
# --ignore-scripts: `prepare` (npm run build) needs the dev dependencies; the build stage ran it.
# The dependency patches (postinstall) are applied explicitly; the service is correct without them.
RUN npm ci --omit=dev --ignore-scripts && node scripts/patch-dependencies.mjs && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY --from=build /app/.template ./.template
COPY migrations ./migrations
COPY data-bundled ./data-bundled
# The embedded store (and its generated secrets key) lives on a volume owned by the service user.
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
ENV HOST=0.0.0.0 \
    PORT=8000 \
    DATA_DIR=/data \
    HOST_HEADER_VALIDATION=strict
# ALLOWED_HOST (the host name clients use) must be given at run time: strict validation refuses to
# start without it. SECRETS_KEY is required with DATABASE_URL; SERVICE_AUTH_MODE etc. as documented.
EXPOSE 8000
# No curl in the slim image: Node's own fetch. /readyz is exempt from Host validation.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# The V8 flags of src/cli.ts's shebang (a node invoked directly does not read a shebang).
ENTRYPOINT ["node", "--max-semi-space-size=32", "--no-allocation-site-pretenuring", "dist/cli.js"]
CMD ["serve"]
