import type { CodegenConfig } from "@graphql-codegen/cli";
import { typedDocumentsConfig } from "../server/scripts/typed-documents.codegen.ts";

/** Types for the route table's GraphQL documents. */
const config: CodegenConfig = typedDocumentsConfig({
  schema: "../server/schema.graphql",
  documents: ["src/routes/*.ts"],
});

export default config;
