import { z } from "zod";
import { requiredString } from "../../validation.ts";

/**
 * What a scenario is made of, and the bounds of every part (docs/testing-assistants.md#limits).
 * Kept apart from the services so that the runner, the checks and the GraphQL layer read one truth.
 */
export const AGENT_TEST_LIMITS = {
  /** Scenarios in one suite: a run makes about turns × scenarios model requests. */
  suiteScenarios: 50,
  /** Scenarios of a run answered at once. */
  maxConcurrency: 4,
  defaultConcurrency: 2,
  /** Customer turns of one scenario. */
  maxTurns: 30,
  defaultTurns: 10,
  scriptLines: 30,
  lineChars: 2000,
  personaChars: 4000,
  criteria: 20,
  criterionChars: 500,
  checks: 30,
  /** Runs of an account queued or running at once. */
  activeRuns: 3,
  /** Runs one instance plays at once (their own job queue); others wait in the queue. */
  runsPerInstance: 2,
  /** A run still going this long after it started is stopped and marked timed_out. */
  runTimeoutSeconds: 600,
  /** Scenarios of an account (all suites together). */
  scenariosPerAccount: 1000,
  toolResultsBytes: 32 * 1024,
} as const;

/** chat: the reply engine turn by turn; phone: a test call through the voice engine (phone.ts). */
export const CHANNELS = ["chat", "phone"] as const;
export type Channel = (typeof CHANNELS)[number];

/**
 * How a scenario ended: the customer finished, the assistant handed the chat on, the turn limit;
 * on a phone call also the assistant hung up, or transferred the caller (a stubbed transfer).
 */
export const ENDINGS = ["customer", "handoff", "turn_limit", "assistant", "transferred"] as const;
export type Ending = (typeof ENDINGS)[number];

const phrase = requiredString("phrase", 500);
const speaker = z.enum(["assistant", "customer", "any"]).default("assistant");

/** Checks that need no model: each is decided from the run's record alone (checks.ts). */
export const CheckSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("function_called"),
    name: requiredString("name", 64),
    /** Every key given must be in the call's arguments with an equal value (deeply); others may be too. */
    arguments: z.record(z.string(), z.unknown()).optional(),
  }),
  z.object({ kind: z.literal("function_not_called"), name: requiredString("name", 64) }),
  z.object({ kind: z.literal("ended_by"), by: z.enum(ENDINGS) }),
  z.object({ kind: z.literal("booking_exists") }),
  z.object({ kind: z.literal("transcript_contains"), phrase, speaker }),
  z.object({ kind: z.literal("transcript_excludes"), phrase, speaker }),
  z.object({
    kind: z.literal("evaluation_equals"),
    field: requiredString("field", 64),
    value: z.union([z.string().max(500), z.number(), z.boolean()]),
  }),
  z.object({ kind: z.literal("latency_under"), ms: z.number().int().min(1).max(600_000) }),
]);
export type Check = z.output<typeof CheckSchema>;

/** Who the customer is: lines said in order (deterministic), or a persona the model plays. */
export type Customer =
  | { kind: "scripted"; lines: string[] }
  | { kind: "persona"; prompt: string; goal: string };

/** A line of a test conversation. Assistant lines carry the reply's latency and function calls. */
export interface TranscriptEntry {
  role: "customer" | "assistant";
  content: string;
  latencyMs?: number;
}

export interface CheckResult {
  kind: Check["kind"];
  description: string;
  passed: boolean;
  detail: string;
}

export interface CriterionVerdict {
  criterion: string;
  passed: boolean;
  reasoning: string;
}

export interface Divergence {
  /** The assistant's turn (from 1). */
  turn: number;
  expected: string;
  actual: string;
}

/** Settings that replace the assistant's for one run (a replay against a changed assistant). */
export const OverridesSchema = z
  .object({
    systemPrompt: z.string().max(20_000).optional(),
    llmModelId: z.number().int().positive().nullable().optional(),
    llmTemperature: z.number().min(0).max(2).optional(),
    knowledgebaseId: z.number().int().positive().nullable().optional(),
  })
  .strict();
export type Overrides = z.output<typeof OverridesSchema>;
