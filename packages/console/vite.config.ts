import { defineConfig } from "vite";

/**
 * The console is an application: one HTML page under /console/ whose scripts and styles carry
 * content hashes, so the server can let browsers keep them while index.html is revalidated.
 */
export default defineConfig({
  base: "/console/",
  build: {
    target: "es2022",
    outDir: "dist",
    sourcemap: true,
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 200,
  },
});
