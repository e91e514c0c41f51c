import type { CodegenConfig } from "@graphql-codegen/cli";

/**
 * Types for the route table's GraphQL documents, from the printed server schema. `pnpm codegen`
 * rewrites src/generated/ (committed); `pnpm codegen:check`, part of `pnpm run check`, fails when it is stale.
 */
const config: CodegenConfig = {
  schema: "../server/schema.graphql",
  documents: ["src/routes/*.ts"],
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
        scalars: {
          DateTime: "string",
          Decimal: "string",
          JSON: "unknown",
          File: "File",
        },
      },
    },
  },
};

export default config;
