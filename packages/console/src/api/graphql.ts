import type { graphql as typedByCodegen } from "../generated/gql.ts";
import type { TypedDocumentString } from "../generated/graphql.ts";

/**
 * A document as the console sends it: its own text, then each fragment definition it spreads, once.
 * It behaves as the generated `TypedDocumentString` does where the client uses it (`toString()`).
 */
class Document extends String {
  constructor(readonly definitions: readonly string[]) {
    super(definitions.join(""));
  }
}

const definitionsOf = (document: unknown): readonly string[] => (document as Document).definitions;

/**
 * Declares a GraphQL document where the module that sends it lives, so it travels in that module's chunk.
 * Codegen reads the text (every `graphql(` call under src/, codegen.ts) and types it: the call has the
 * generated function's type, whose overloads give each document text its result and variables. The
 * generated function itself looks the text up in a map of every document, which would put them all in any
 * chunk that calls it; this one keeps the text it is given.
 */
export const graphql = ((source: string) => new Document([source])) as unknown as typeof typedByCodegen;

/**
 * `document` with the fragments it spreads (and theirs), as the server needs them in one request. The
 * types stay `document`'s: codegen has already resolved the spreads.
 */
export function withFragments<R, V>(
  document: TypedDocumentString<R, V>,
  ...fragments: TypedDocumentString<unknown, unknown>[]
): TypedDocumentString<R, V> {
  const definitions = new Set([document, ...fragments].flatMap(definitionsOf));
  return new Document([...definitions]) as unknown as TypedDocumentString<R, V>;
}
