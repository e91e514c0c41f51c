import type { CodegenConfig } from "@graphql-codegen/cli";

/**
 * Typed documents for the console's GraphQL operations, from the printed server schema. `pnpm codegen`
 * rewrites src/generated/ (committed); `pnpm codegen:check`, part of `pnpm run check`, fails when it is stale.
 * String documents rather than ASTs: the browser sends text anyway, and `graphql` stays out of the bundle.
 */
const config: CodegenConfig = {
  schema: "../server/schema.graphql",
  documents: ["src/api/operations.ts"],
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
