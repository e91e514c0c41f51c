import type { CodegenConfig } from "@graphql-codegen/cli";
import { typedDocumentsConfig } from "../server/scripts/typed-documents.codegen.ts";

/** Typed documents for the console's GraphQL operations. */
const config: CodegenConfig = typedDocumentsConfig({
  schema: "../server/schema.graphql",
  documents: ["src/**/*.ts", "!src/generated/**"],
});

export default config;
