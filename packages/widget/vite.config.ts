import { defineConfig } from "vite";

/**
 * Two builds from one config: `vite build` makes the npm module (Lit stays an import, so an app that
 * already uses Lit ships it once); `vite build --mode embed` makes dist/voxgate-chat.js, one
 * self-contained, fully minified file that the server serves for `<script type="module">` embeds
 * (plus the voice chunk it imports when a visitor starts a web call).
 * The embed is an application build rather than a library build because Vite keeps whitespace in
 * ES libraries (for later bundlers), which this file never meets.
 */
export default defineConfig(({ mode }) =>
  mode === "embed"
    ? {
        build: {
          target: "es2022",
          outDir: "dist",
          emptyOutDir: false,
          sourcemap: true,
          modulePreload: false,
          rolldownOptions: {
            input: "src/embed.ts",
            preserveEntrySignatures: false,
            // The web call's code is a chunk beside the embed, fetched by the first call only.
            output: {
              format: "es",
              entryFileNames: "voxgate-chat.js",
              chunkFileNames: "voxgate-voice-[hash].js",
            },
          },
        },
      }
    : {
        build: {
          target: "es2022",
          outDir: "dist",
          sourcemap: true,
          minify: false,
          lib: { entry: "src/index.ts", formats: ["es"], fileName: () => "index.js" },
          rolldownOptions: { external: [/^lit($|\/)/] },
        },
      },
);
