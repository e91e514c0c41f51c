import type { CodegenConfig } from "@graphql-codegen/cli";

/** `pnpm codegen` types the documents in src/ from the server's printed schema into src/generated/. */
const config: CodegenConfig = {
  schema: "../../packages/server/schema.graphql",
  documents: ["src/main.ts"],
  emitLegacyCommonJSImports: false,
  importExtension: ".ts",
  generates: {
    "src/generated/": {
      preset: "client",
      presetConfig: { fragmentMasking: false },
      config: {
        documentMode: "string",
        enumsAsTypes: true,
        useTypeImports: true,
        skipTypename: true,
        strictScalars: true,
        scalars: { DateTime: "string", Decimal: "string", JSON: "unknown", File: "File" },
      },
    },
  },
};

export default config;
