import { EnvelopArmorPlugin } from "@escape.tech/graphql-armor";
import type { GraphQLError, ValidationContext } from "graphql";
import type { Plugin } from "graphql-yoga";
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
  /**
   * Brackets, braces and parentheses open at once in a document, and arrays and objects open at once
   * in its variables. GraphiQL's introspection query opens 13, the REST table's operations 9.
   */
  nesting: 64,
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

/**
 * Refuses a document that nests deeper than OPERATION_LIMITS.nesting before graphql-js parses it, and
 * variables that do before they are coerced or stored. The parser recurses once per level of a list
 * or object literal, and overflows the stack (a 500) near a few thousand levels, well within the
 * token limit, which is only counted as it recurses; a deep JSON variable overflows JSON.stringify
 * and structuredClone alike. As a plugin on envelop's parse, execute and subscribe it covers HTTP,
 * SSE, graphql-ws and the REST layer. Refused with 400, whatever the Accept header: the request is
 * malformed before it is a GraphQL operation.
 */
export function nestingLimitPlugin(): Plugin {
  const limit = OPERATION_LIMITS.nesting;
  return {
    onParse: ({ params }) => {
      const text = typeof params.source === "string" ? params.source : params.source.body;
      if (documentNestsDeeperThan(text, limit)) throw tooNested("operation");
    },
    onExecute: ({ args, setResultAndStopExecution }) => {
      if (valueNestsDeeperThan(args.variableValues, limit))
        setResultAndStopExecution({ errors: [tooNested("variables")] });
    },
    onSubscribe: ({ args, setResultAndStopExecution }) => {
      if (valueNestsDeeperThan(args.variableValues, limit))
        setResultAndStopExecution({ errors: [tooNested("variables")] });
    },
  };
}

function tooNested(what: "operation" | "variables"): OperationLimitError {
  const limit = OPERATION_LIMITS.nesting;
  const error = new OperationLimitError(
    "QUERY_TOO_NESTED",
    what === "operation"
      ? `The operation nests brackets deeper than ${limit} levels.`
      : `The input nests lists and objects deeper than ${limit} levels.`,
    limit,
  );
  // Read (and removed from the answer) by graphql-yoga; graphql-ws has no status.
  error.extensions.http = { status: 400 };
  return error;
}

/**
 * Whether `(`, `[` and `{` open deeper than `limit` anywhere in a GraphQL document; brackets inside
 * strings, block strings and comments do not count. Unbalanced text is left to the parser to refuse.
 */
export function documentNestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  for (let at = 0; at < text.length; at++) {
    const char = text[at];
    if (char === "(" || char === "[" || char === "{") {
      if (++depth > limit) return true;
    } else if (char === ")" || char === "]" || char === "}") {
      depth--;
    } else if (char === "#") {
      while (at < text.length && text[at] !== "\n" && text[at] !== "\r") at++;
    } else if (char === '"') {
      if (text.startsWith('"""', at)) {
        // A block string ends at the next unescaped `"""`.
        at += 3;
        while (at < text.length && !text.startsWith('"""', at)) at += text.startsWith('\\"""', at) ? 4 : 1;
        at += 2;
      } else {
        at++;
        while (at < text.length && text[at] !== '"' && text[at] !== "\n") at += text[at] === "\\" ? 2 : 1;
      }
    }
  }
  return false;
}

/** Whether arrays and objects nest deeper than `limit` in a JSON value; walked without recursion. */
export function valueNestsDeeperThan(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [item, depth] = next;
    if (item === null || typeof item !== "object") continue;
    if (depth + 1 > limit) return true;
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return false;
}
