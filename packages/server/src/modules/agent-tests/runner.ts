import type { ServiceDeps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import { Prisma, type TestScenario } from "../../generated/prisma/client.ts";
import type { ReplySettings } from "../assistants/index.ts";
import { HANDOFF_TOOL_NAME, REQUEST_HUMAN_TOOL_NAME } from "../handoffs/index.ts";
import {
  type FunctionCallRecord,
  type FunctionSet,
  parseWebhookTools,
  primitiveVariables,
  type ReplyEngine,
  simulatedCustomer,
  type Variables,
} from "../message-pipeline/index.ts";
import { type RunRecord, runChecks } from "./checks.ts";
import { applyOverrides, stubbed } from "./function-stubs.ts";
import { type Judge, transcriptText } from "./judge.ts";
import type { PhoneConversation } from "./phone.ts";
import type {
  Check,
  CheckResult,
  CriterionVerdict,
  Customer,
  Divergence,
  Ending,
  Overrides,
  TranscriptEntry,
} from "./scenario-rules.ts";

/** The functions a test's assistant may be offered, built by the modules that own them (services.ts). */
export interface TestFunctions {
  /** Calendar booking of the assistant (real: it books in the real calendar). */
  booking(context: { accountId: number; assistantId: number; turnKey: string }): Promise<FunctionSet | null>;
  /** Chat hand-offs of the assistant: only their definitions are used, a hand-off is always stubbed. */
  handoffs(context: { accountId: number; assistantId: number }): Promise<FunctionSet | null>;
}

export interface RunnerParts {
  engine: ReplyEngine;
  settings(accountId: number, assistantId: number): Promise<ReplySettings | null>;
  functions: TestFunctions;
  judge: Judge;
  /** Phone scenarios' test calls. */
  phone: PhoneConversation;
  evaluation: {
    evaluateTranscript(postCallSchema: unknown, transcript: string): Promise<Prisma.InputJsonObject>;
  };
}

export interface ScenarioOutcome {
  status: "passed" | "failed" | "error";
  transcript: TranscriptEntry[];
  functionCalls: FunctionCallRecord[];
  checks: CheckResult[];
  judge: CriterionVerdict[];
  evaluation: Record<string, unknown> | null;
  divergences: Divergence[];
  endedBy: Ending | "";
  turnLatencies: number[];
  cost: Prisma.Decimal;
  error: string;
}

/** A persona ends the conversation by ending a message with this; it is not shown in the transcript. */
export const PERSONA_DONE = "[DONE]";

const PERSONA_RULES = [
  "You are a customer writing to a business's chat assistant. Stay in character and never say you are an AI or a test.",
  "Write one short message at a time, as a real customer would.",
  `When what you wanted is done, or you would give up, write your last message and end it with ${PERSONA_DONE}.`,
].join(" ");

/** The persona's cue before anyone wrote: the customer opens the chat. */
const OPENING = "(You opened the chat. Write your first message.)";

const HANDOFF_FUNCTIONS = new Set([HANDOFF_TOOL_NAME, REQUEST_HUMAN_TOOL_NAME]);
const BOOKING_FUNCTION = "book_appointment";

/**
 * Plays one scenario. On the chat channel: the customer (script or persona) and the assistant, which
 * answers through the production reply engine with its own settings (or a run's overrides), its
 * knowledge base and its functions. Nothing is charged, stored as a conversation or sent as a
 * webhook: the exchange lives only in the result. Functions are stubbed with the scenario's results
 * unless it sets useRealTools (then bookings and webhook tools are real; a hand-off never is).
 * On the phone channel: a test call through the real voice engine (phone.ts). Both are decided by
 * the same checks and judge.
 */
export class ScenarioRunner {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly parts: RunnerParts,
  ) {}

  async run(
    scenario: TestScenario,
    options: { resultId: number; overrides: Overrides; deadline: Date; signal?: AbortSignal },
  ): Promise<ScenarioOutcome> {
    const outcome: ScenarioOutcome = {
      status: "error",
      transcript: [],
      functionCalls: [],
      checks: [],
      judge: [],
      evaluation: null,
      divergences: [],
      endedBy: "",
      turnLatencies: [],
      cost: new Prisma.Decimal(0),
      error: "",
    };
    try {
      if (scenario.channel === "phone") {
        const played = await this.parts.phone.play(scenario, options);
        Object.assign(outcome, {
          transcript: played.transcript,
          functionCalls: played.functionCalls,
          turnLatencies: played.turnLatencies,
          endedBy: played.endedBy,
          cost: played.cost,
        });
      } else await this.converse(scenario, options, outcome);
      await this.decide(scenario, options.resultId, outcome);
    } catch (error) {
      outcome.status = "error";
      outcome.error =
        error instanceof AppError ? error.message : "The scenario failed with an internal error.";
      if (!(error instanceof AppError))
        this.deps.logger.error("agent test scenario failed", { scenarioId: scenario.id, error });
    }
    return outcome;
  }

  private async converse(
    scenario: TestScenario,
    options: { resultId: number; overrides: Overrides; deadline: Date; signal?: AbortSignal },
    outcome: ScenarioOutcome,
  ): Promise<void> {
    const found = await this.parts.settings(scenario.accountId, scenario.assistantId);
    if (!found) throw new AppError("NOT_FOUND", "The scenario's assistant no longer exists.");
    const assistant = applyOverrides(found, options.overrides);
    const customer = scenario.customer as unknown as Customer;
    const variables = {
      ...primitiveVariables(assistant.variables as Variables),
      ...primitiveVariables(scenario.variables as Variables),
    };
    const price = new Prisma.Decimal(this.deps.config.pricing.replyPrice);
    const history: { role: "user" | "assistant"; content: string }[] = [];
    for (let turn = 1; ; turn++) {
      if (turn > scenario.turnLimit) {
        outcome.endedBy = "turn_limit";
        return;
      }
      // A stopping server: the result is not stored, and the scenario runs again on the next start.
      if (options.signal?.aborted) throw new AppError("SERVICE_UNAVAILABLE", "The server is stopping.");
      if (Date.now() > options.deadline.getTime())
        throw new AppError("BAD_REQUEST", "The run's time limit was reached before the scenario ended.");
      const line = await this.customerLine(scenario.accountId, customer, outcome.transcript, turn);
      if (line === null) {
        outcome.endedBy = "customer";
        return;
      }
      outcome.transcript.push({ role: "customer", content: line.text });
      history.push({ role: "user", content: line.text });
      const turnKey = `agent-test:${options.resultId}:${turn}`;
      const [passages, functions] = await Promise.all([
        this.parts.engine.knowledgeFor(scenario.accountId, assistant, line.text),
        this.functionsFor(scenario, assistant, turnKey),
      ]);
      const started = performance.now();
      const result = await this.parts.engine.generate({
        accountId: scenario.accountId,
        assistant,
        history: [...history],
        passages,
        variables,
        functions,
      });
      const latencyMs = Math.round(performance.now() - started);
      outcome.transcript.push({ role: "assistant", content: result.reply, latencyMs });
      outcome.turnLatencies.push(latencyMs);
      outcome.functionCalls.push(...result.functionCalls);
      if (result.generatedBy === "model") outcome.cost = outcome.cost.plus(price);
      history.push({ role: "assistant", content: result.reply });
      if (result.functionCalls.some((call) => HANDOFF_FUNCTIONS.has(call.name) && !call.error)) {
        outcome.endedBy = "handoff";
        return;
      }
      if (line.last) {
        outcome.endedBy = "customer";
        return;
      }
    }
  }

  /** The customer's `turn`-th message (from 1), or null when it has nothing more to say. */
  private async customerLine(
    accountId: number,
    customer: Customer,
    transcript: readonly TranscriptEntry[],
    turn: number,
  ): Promise<{ text: string; last: boolean } | null> {
    if (customer.kind === "scripted") {
      const text = customer.lines[turn - 1];
      return text === undefined ? null : { text, last: turn === customer.lines.length };
    }
    // The persona sees the chat from the other side: the assistant's lines are what it reads.
    const history = transcript.map((entry) => ({
      role: entry.role === "assistant" ? ("user" as const) : ("assistant" as const),
      content: entry.content,
    }));
    if (history.length === 0) history.push({ role: "user", content: OPENING });
    const { reply } = await this.parts.engine.generate({
      accountId,
      assistant: simulatedCustomer(
        "Customer",
        `${customer.prompt}\n\nWhat you want: ${customer.goal}\n\n${PERSONA_RULES}`,
      ),
      history,
      passages: [],
      variables: {},
    });
    const done = reply.includes(PERSONA_DONE);
    const text = reply.replaceAll(PERSONA_DONE, "").trim();
    if (text === "") return null;
    return { text, last: done };
  }

  /**
   * The functions offered: the assistant's own (booking, hand-offs, webhook tools), stubbed unless
   * the scenario asks for real tools. A stub answers with the scenario's result for the function,
   * else `{ ok: true }`; the knowledge-base search always runs for real (it only reads).
   */
  private async functionsFor(
    scenario: TestScenario,
    assistant: ReplySettings,
    turnKey: string,
  ): Promise<FunctionSet[]> {
    const context = { accountId: scenario.accountId, assistantId: scenario.assistantId };
    const [booking, handoffs] = await Promise.all([
      this.parts.functions.booking({ ...context, turnKey }),
      this.parts.functions.handoffs(context),
    ]);
    const results = scenario.toolResults as Record<string, unknown>;
    const webhookNames = parseWebhookTools(assistant.tools).tools.map((tool) => tool.name);
    if (scenario.useRealTools) {
      return [booking, handoffs ? stubbed(handoffs.definitions(), [], results) : null].filter(
        (set): set is FunctionSet => set !== null,
      );
    }
    const definitions = [booking, handoffs].flatMap((set) => set?.definitions() ?? []);
    return [stubbed(definitions, webhookNames, results)];
  }

  /** Checks, then the evaluation and the judge when the scenario asks for them. */
  private async decide(scenario: TestScenario, resultId: number, outcome: ScenarioOutcome): Promise<void> {
    const checks = scenario.checks as unknown as Check[];
    const criteria = scenario.criteria as unknown as string[];
    const needsEvaluation = checks.some((check) => check.kind === "evaluation_equals");
    const [evaluation, verdicts, bookingExists] = await Promise.all([
      needsEvaluation ? this.evaluate(scenario, outcome.transcript) : null,
      this.parts.judge.judge(criteria, outcome.transcript),
      this.bookingExists(scenario, resultId, outcome.functionCalls),
    ]);
    outcome.evaluation = evaluation;
    outcome.judge = verdicts;
    const record: RunRecord = {
      transcript: outcome.transcript,
      functionCalls: outcome.functionCalls,
      endedBy: outcome.endedBy === "" ? "turn_limit" : outcome.endedBy,
      bookingExists,
      evaluation,
    };
    outcome.checks = runChecks(checks, record);
    outcome.divergences = divergences(scenario.expectedReplies as unknown as string[], outcome.transcript);
    const passed =
      outcome.checks.every((check) => check.passed) && verdicts.every((verdict) => verdict.passed);
    outcome.status = passed ? "passed" : "failed";
  }

  private async evaluate(scenario: TestScenario, transcript: TranscriptEntry[]) {
    const assistant = await this.deps.db.prisma.assistant.findFirst({
      where: { id: scenario.assistantId, accountId: scenario.accountId },
      select: { postCallSchema: true },
    });
    return (await this.parts.evaluation.evaluateTranscript(
      assistant?.postCallSchema ?? [],
      transcriptText(transcript),
    )) as Record<string, unknown>;
  }

  /** Real tools: a booking of this run is in the database (and so the calendar); stubs: a booking call succeeded. */
  private async bookingExists(
    scenario: TestScenario,
    resultId: number,
    calls: readonly FunctionCallRecord[],
  ): Promise<boolean> {
    const booked = calls.some((call) => call.name === BOOKING_FUNCTION && !call.error);
    if (!scenario.useRealTools || !booked) return booked;
    const count = await this.deps.db.prisma.appointment.count({
      where: {
        accountId: scenario.accountId,
        idempotencyKey: { startsWith: `agent-test:${resultId}:` },
        status: "booked",
      },
    });
    return count > 0;
  }
}

/** Where the assistant's answers differ from the recorded ones (case, spacing and punctuation aside). */
export function divergences(
  expected: readonly string[],
  transcript: readonly TranscriptEntry[],
): Divergence[] {
  if (expected.length === 0) return [];
  const actual = transcript.filter((entry) => entry.role === "assistant").map((entry) => entry.content);
  const found: Divergence[] = [];
  for (let index = 0; index < Math.max(expected.length, actual.length); index++) {
    const want = expected[index] ?? "";
    const got = actual[index] ?? "";
    if (normalised(want) !== normalised(got)) found.push({ turn: index + 1, expected: want, actual: got });
  }
  return found;
}

function normalised(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}
