import type { FunctionCallRecord } from "../message-pipeline/index.ts";
import type { Check, CheckResult, Ending, TranscriptEntry } from "./scenario-rules.ts";

/** What a scenario's run left, as the checks read it. */
export interface RunRecord {
  transcript: TranscriptEntry[];
  functionCalls: FunctionCallRecord[];
  endedBy: Ending;
  /** Whether a booking the run made exists (in the calendar when tools were real, else a stubbed success). */
  bookingExists: boolean;
  /** The assistant's post-call evaluation of the transcript; null when no check asks for it. */
  evaluation: Record<string, unknown> | null;
}

/** Checks that need no model, decided from the record alone: the same record always gives the same verdicts. */
export function runChecks(checks: readonly Check[], record: RunRecord): CheckResult[] {
  return checks.map((check) => ({ kind: check.kind, ...decide(check, record) }));
}

function decide(check: Check, record: RunRecord): Omit<CheckResult, "kind"> {
  switch (check.kind) {
    case "function_called": {
      const named = record.functionCalls.filter((call) => call.name === check.name);
      const matching = named.filter((call) => !check.arguments || includes(call.arguments, check.arguments));
      const description = check.arguments
        ? `${check.name} called with ${JSON.stringify(check.arguments)}`
        : `${check.name} called`;
      if (matching.length > 0) return { description, passed: true, detail: `called ${named.length} time(s)` };
      return {
        description,
        passed: false,
        detail:
          named.length === 0
            ? `${check.name} was not called`
            : `called with ${named.map((call) => JSON.stringify(call.arguments)).join("; ")}`,
      };
    }
    case "function_not_called": {
      const count = record.functionCalls.filter((call) => call.name === check.name).length;
      return {
        description: `${check.name} not called`,
        passed: count === 0,
        detail: count === 0 ? "not called" : `called ${count} time(s)`,
      };
    }
    case "ended_by":
      return {
        description: `ended by ${check.by}`,
        passed: record.endedBy === check.by,
        detail: `ended by ${record.endedBy}`,
      };
    case "booking_exists":
      return {
        description: "a booking exists",
        passed: record.bookingExists,
        detail: record.bookingExists ? "booked" : "no booking was made",
      };
    case "transcript_contains":
    case "transcript_excludes": {
      const needle = check.phrase.toLowerCase();
      const hit = record.transcript.find(
        (entry) =>
          (check.speaker === "any" || entry.role === check.speaker) &&
          entry.content.toLowerCase().includes(needle),
      );
      const who = check.speaker === "any" ? "transcript" : `${check.speaker}'s lines`;
      if (check.kind === "transcript_contains")
        return {
          description: `${who} contain "${check.phrase}"`,
          passed: hit !== undefined,
          detail: hit ? `found in: ${hit.content}` : "not found",
        };
      return {
        description: `${who} never contain "${check.phrase}"`,
        passed: hit === undefined,
        detail: hit ? `found in: ${hit.content}` : "not found",
      };
    }
    case "evaluation_equals": {
      const actual = record.evaluation?.[check.field];
      return {
        description: `evaluation ${check.field} = ${JSON.stringify(check.value)}`,
        passed: actual === check.value,
        detail: record.evaluation ? `${check.field} = ${JSON.stringify(actual ?? null)}` : "no evaluation",
      };
    }
    case "latency_under": {
      const latencies = record.transcript.flatMap((entry) =>
        entry.latencyMs === undefined ? [] : [entry.latencyMs],
      );
      const slowest = latencies.length > 0 ? Math.max(...latencies) : 0;
      return {
        description: `every reply under ${check.ms} ms`,
        passed: slowest < check.ms,
        detail: `slowest reply ${slowest} ms`,
      };
    }
  }
}

/** Whether `actual` holds every key of `expected` with an equal value (objects compared the same way). */
export function includes(actual: unknown, expected: unknown): boolean {
  if (expected !== null && typeof expected === "object" && !Array.isArray(expected)) {
    if (actual === null || typeof actual !== "object" || Array.isArray(actual)) return false;
    return Object.entries(expected).every(([key, value]) =>
      includes((actual as Record<string, unknown>)[key], value),
    );
  }
  return JSON.stringify(actual) === JSON.stringify(expected);
}
