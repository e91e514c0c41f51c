import { Prisma } from "../../generated/prisma/client.ts";
import { type FunctionSet, KNOWLEDGE_TOOL_NAME } from "../message-pipeline/index.ts";
import type { TestOverridable } from "../voice/index.ts";
import type { Overrides } from "./scenario-rules.ts";

/**
 * A function set that answers every offered function (`definitions`, and the assistant's webhook
 * tools named) with the scenario's result for it, else `{ ok: true }`, and runs nothing. Other
 * names are left to the sets after it and the engine (a real webhook tool, or its refusal).
 */
export function stubbed(
  definitions: ReturnType<FunctionSet["definitions"]>,
  webhookNames: readonly string[],
  results: Record<string, unknown>,
): FunctionSet {
  const names = new Set([...definitions.map((definition) => definition.name), ...webhookNames]);
  return {
    definitions: () => definitions,
    run: async (name, args) => {
      if (name === KNOWLEDGE_TOOL_NAME || !names.has(name)) return undefined;
      const result = Object.hasOwn(results, name) ? results[name] : { ok: true };
      return { name, arguments: args, result, error: null, duration_ms: 0 };
    },
  };
}

/** The assistant's settings with a run's overrides (a replay against a changed assistant). */
export function applyOverrides<T extends TestOverridable>(assistant: T, overrides: Overrides): T {
  return {
    ...assistant,
    ...(overrides.systemPrompt !== undefined ? { systemPrompt: overrides.systemPrompt } : {}),
    ...(overrides.llmModelId !== undefined ? { llmModelId: overrides.llmModelId } : {}),
    ...(overrides.llmTemperature !== undefined
      ? { llmTemperature: new Prisma.Decimal(overrides.llmTemperature) }
      : {}),
    ...(overrides.knowledgebaseId !== undefined ? { knowledgebaseId: overrides.knowledgebaseId } : {}),
  };
}
