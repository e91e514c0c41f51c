import { EnvelopArmorPlugin } from "@escape.tech/graphql-armor";
import type { GraphQLError, ValidationContext } from "graphql";
import { type ErrorCode, OperationLimitError } from "./errors.ts";

/**
 * Limits every operation passes, on HTTP, SSE, WebSocket and the REST layer alike. The largest
 * operation the REST table and the widget send has under 100 tokens, depth 4, cost 154 and no
 * aliases; GraphiQL's introspection query has under 200 tokens (introspection is exempt from depth
 * and cost). Tokens are counted while parsing, so a flood of aliases or a deeply nested document is
 * refused before the parser recurses into it or the validator compares its fields pairwise.
 */
export const OPERATION_LIMITS = {
  tokens: 2000,
  depth: 10,
  aliases: 20,
  cost: 5000,
  directives: 50,
} as const;

/**
 * Armor reports a rejection through its callbacks; ours turns it into a coded error. The validation
 * rules report it as one validation error (a 400), the token counter throws it out of the parser.
 */
function refuse(code: ErrorCode, message: string, limit: number) {
  return {
    exposeLimits: true,
    propagateOnRejection: false,
    onReject: [
      (context: ValidationContext | null, _error: GraphQLError) => {
        const error = new OperationLimitError(code, message, limit);
        if (!context) throw error;
        context.reportError(error);
      },
    ],
  };
}

export function operationLimitsPlugin() {
  return EnvelopArmorPlugin({
    // Suggestions stay: the schema is public and GraphiQL prints it anyway.
    blockFieldSuggestion: { enabled: false },
    maxTokens: {
      n: OPERATION_LIMITS.tokens,
      ...refuse(
        "QUERY_TOO_LARGE",
        `The operation has more than ${OPERATION_LIMITS.tokens} tokens.`,
        OPERATION_LIMITS.tokens,
      ),
    },
    maxDepth: {
      n: OPERATION_LIMITS.depth,
      ...refuse(
        "QUERY_TOO_DEEP",
        `The operation nests deeper than ${OPERATION_LIMITS.depth} levels.`,
        OPERATION_LIMITS.depth,
      ),
    },
    maxAliases: {
      n: OPERATION_LIMITS.aliases,
      ...refuse(
        "TOO_MANY_ALIASES",
        `The operation has more than ${OPERATION_LIMITS.aliases} aliases.`,
        OPERATION_LIMITS.aliases,
      ),
    },
    costLimit: {
      maxCost: OPERATION_LIMITS.cost,
      ...refuse(
        "QUERY_TOO_COMPLEX",
        `The operation costs more than ${OPERATION_LIMITS.cost}.`,
        OPERATION_LIMITS.cost,
      ),
    },
    maxDirectives: {
      n: OPERATION_LIMITS.directives,
      ...refuse(
        "TOO_MANY_DIRECTIVES",
        `The operation has more than ${OPERATION_LIMITS.directives} directives.`,
        OPERATION_LIMITS.directives,
      ),
    },
  });
}
