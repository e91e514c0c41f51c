import { readFileSync } from "node:fs";
import { buildSchema, type GraphQLSchema, parse, validate } from "graphql";
import { describe, expect, it } from "vitest";
import { routes } from "./index.ts";

const schema = buildSchema(readFileSync(new URL("../../../server/schema.graphql", import.meta.url), "utf8"));

/** What GraphQL says about a document against the printed schema; empty when it is valid. */
function problems(document: string, against: GraphQLSchema = schema): string[] {
  return validate(against, parse(document)).map((error) => error.message);
}

describe("the route table's operations", () => {
  it.each(routes.map((route) => [`${route.method} ${route.path}`, route.operation] as const))(
    "%s runs an operation valid against schema.graphql",
    (_name, operation) => {
      // A document edited without `pnpm --filter @voxgate/rest-compat codegen` is missing from src/generated.
      expect(typeof operation, "run the rest-compat codegen").toBe("string");
      expect(problems(operation)).toEqual([]);
    },
  );

  it("would catch a route naming a field the schema lacks", () => {
    const voices = routes.find((route) => route.path === "/user/assistants/voices")!;
    expect(problems(voices.operation.replace("gender", "accent"))).toEqual([
      'Cannot query field "accent" on type "Voice".',
    ]);
  });
});
