/**
 * Agent tests (docs/testing-assistants.md): scenarios and suites of what an assistant must keep
 * doing, runs of them through the production reply engine (free, stubbed tools), checks without a
 * model, an LLM judge, comparisons of runs and scenarios made from real calls and conversations.
 */
import type { ServiceDeps } from "../../deps.ts";
import type { CallTurn } from "../../generated/prisma/client.ts";
import { createJobQueue } from "../../jobs/index.ts";
import type { ReplySettingsCache } from "../assistants/index.ts";
import type { TestCalls } from "../calls/index.ts";
import type { ReplyEngine } from "../message-pipeline/index.ts";
import { Judge } from "./judge.ts";
import { PhoneConversation, TestCallParts } from "./phone.ts";
import { TrafficReplays } from "./replay.ts";
import { type RunnerParts, ScenarioRunner, type TestFunctions } from "./runner.ts";
import { TestRunsService } from "./runs.service.ts";
import { AGENT_TEST_LIMITS } from "./scenario-rules.ts";
import { ScenariosService } from "./scenarios.service.ts";

export type { TestFunctions } from "./runner.ts";
export { AGENT_TEST_LIMITS } from "./scenario-rules.ts";

export function createAgentTests(
  deps: ServiceDeps,
  parts: {
    engine: ReplyEngine;
    replySettings: ReplySettingsCache;
    functions: TestFunctions;
    evaluation: RunnerParts["evaluation"];
    /** Phone scenarios: test calls, their turns, and their hang-up when a run stops. */
    calls: Pick<TestCalls, "start">;
    turns(accountId: number, callId: number): Promise<CallTurn[]>;
    hangUp(callId: number, reason: string): Promise<void>;
  },
) {
  const testScenarios = new ScenariosService(deps);
  const runner = new ScenarioRunner(deps, {
    engine: parts.engine,
    settings: (accountId, assistantId) => parts.replySettings.get(accountId, assistantId),
    functions: parts.functions,
    judge: new Judge(deps),
    phone: new PhoneConversation(deps, {
      calls: parts.calls,
      turns: parts.turns,
      hangUp: parts.hangUp,
      modelConfigured: parts.engine.modelConfigured,
    }),
    evaluation: parts.evaluation,
  });
  return {
    testScenarios,
    testRuns: new TestRunsService(deps, {
      jobs: createJobQueue(deps, AGENT_TEST_LIMITS.runsPerInstance),
      scenarios: testScenarios,
      runner,
    }),
    trafficReplays: new TrafficReplays(deps, testScenarios),
    /** What test calls read of their scenarios: the simulated carrier's caller, the engine's functions. */
    testCallParts: new TestCallParts(deps),
  };
}
