import type { CodegenConfig } from "@graphql-codegen/cli";
import { typedDocumentsConfig } from "../../packages/server/scripts/typed-documents.codegen.ts";

/** `pnpm codegen` types the documents in src/ from the server's printed schema into src/generated/. */
const config: CodegenConfig = typedDocumentsConfig({
  schema: "../../packages/server/schema.graphql",
  documents: ["src/main.ts"],
});

export default config;
