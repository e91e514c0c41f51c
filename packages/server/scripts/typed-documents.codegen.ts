/**
 * The one GraphQL Code Generator setup of every typed client of this schema (the REST route table, the
 * console, the typed-client example): string documents (clients send text anyway, and `graphql` stays out
 * of browser bundles), enums as string unions, and this schema's scalars as they travel in JSON.
 * `pnpm codegen` in each package rewrites its src/generated/ (committed); `pnpm codegen:check`, part of
 * `pnpm run check`, fails when it is stale.
 */
export function typedDocumentsConfig(paths: { schema: string; documents: string[] }) {
  return {
    schema: paths.schema,
    documents: paths.documents,
    emitLegacyCommonJSImports: false,
    importExtension: ".ts" as const,
    generates: {
      "src/generated/": {
        preset: "client" as const,
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
}
