import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite/vector";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { defineConfig } from "prisma/config";

// The CLI is used only at development time (generate, migrate diff), so its PGlite adapter is a
// development dependency; the server reaches PGlite over the PostgreSQL protocol (src/db/client.ts).
// It talks to a throw-away in-memory PGlite, or to the one at VOXGATE_PRISMA_PGLITE_DIR when a
// script prepared it.
export default defineConfig({
  schema: "prisma/schema.prisma",
  experimental: { adapter: true },
  engine: "js",
  async adapter() {
    const pglite = new PGlite(process.env.VOXGATE_PRISMA_PGLITE_DIR, { extensions: { vector } });
    return new PrismaPGlite(pglite);
  },
});
