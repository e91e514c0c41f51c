import type { ServiceDeps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import { type Call, type CallTurn, Prisma, type TestScenario } from "../../generated/prisma/client.ts";
import { type ApiCallStatus, isFinal, minutesStarted, type TestCalls, toApiStatus } from "../calls/index.ts";
import { HANDOFF_TOOL_NAME, TRANSFER_CALL_TOOL_NAME } from "../handoffs/index.ts";
import {
  type FunctionCallRecord,
  type FunctionSet,
  parseWebhookTools,
  type Variables,
} from "../message-pipeline/index.ts";
import type { TestCaller } from "../telephony/index.ts";
import { SEND_SMS_TOOL_NAME } from "../texts/index.ts";
import type { TestCallSetup, TestOverridable } from "../voice/index.ts";
import { applyOverrides, stubbed } from "./function-stubs.ts";
import type { Customer, Ending, Overrides, TranscriptEntry } from "./scenario-rules.ts";

/** Functions a test call never runs for real, even with useRealTools: they text, dial or hand over. */
const ALWAYS_STUBBED = new Set([SEND_SMS_TOOL_NAME, TRANSFER_CALL_TOOL_NAME, HANDOFF_TOOL_NAME]);

/** How often the runner looks whether its test call ended (the call runs on the simulated carrier). */
const POLL_MS = 200;

/** What a phone scenario's run leaves, before its checks. */
export interface PhoneRecord {
  callId: number;
  transcript: TranscriptEntry[];
  functionCalls: FunctionCallRecord[];
  turnLatencies: number[];
  endedBy: Ending;
  /** What the call would have cost at the per-minute price; never charged. */
  cost: Prisma.Decimal;
}

/**
 * The agent tests' side of a test call, read by the simulated carrier (its caller) and the voice
 * engine (its functions, the run's overrides) from the scenario result the call is linked to, so
 * that whichever instance carries the call finds them in the database.
 */
export class TestCallParts implements TestCallSetup {
  constructor(private readonly deps: ServiceDeps) {}

  private async linked(callId: number) {
    const result = await this.deps.db.prisma.testScenarioResult.findFirst({
      where: { callId },
      include: { run: { select: { overrides: true } } },
    });
    if (!result) return null;
    const scenario = await this.deps.db.prisma.testScenario.findUnique({ where: { id: result.scenarioId } });
    return scenario ? { result, scenario, overrides: result.run.overrides as Overrides } : null;
  }

  /** The scenario's caller: its script within the turn limit, or its persona for at most the turn limit. */
  async caller(callId: number): Promise<TestCaller | null> {
    const found = await this.linked(callId);
    if (!found) return null;
    const customer = found.scenario.customer as unknown as Customer;
    const turns = found.scenario.turnLimit;
    return customer.kind === "scripted"
      ? { kind: "scripted", lines: customer.lines.slice(0, turns) }
      : { kind: "persona", prompt: customer.prompt, goal: customer.goal, turns };
  }

  async settingsFor<T extends TestOverridable>(callId: number, assistant: T): Promise<T> {
    const found = await this.linked(callId);
    return found ? applyOverrides(assistant, found.overrides) : assistant;
  }

  /**
   * Stubs (the scenario's result, else `{ ok: true }`) for every function of the call, or with
   * useRealTools the real booking and webhook tools; texting, transfers and hand-offs are always
   * stubbed. Each call of a function is appended to the result as it happens.
   */
  async functionsFor(callId: number, real: FunctionSet[]): Promise<FunctionSet[]> {
    const found = await this.linked(callId);
    if (!found) return [];
    const { scenario } = found;
    const results = scenario.toolResults as Record<string, unknown>;
    const definitions = (sets: FunctionSet[]) => sets.flatMap((set) => set.definitions());
    let sets: FunctionSet[];
    if (scenario.useRealTools) {
      const risky = (set: FunctionSet) =>
        set.definitions().some((definition) => ALWAYS_STUBBED.has(definition.name));
      sets = [...real.filter((set) => !risky(set)), stubbed(definitions(real.filter(risky)), [], results)];
    } else {
      const assistant = await this.deps.db.prisma.assistant.findUnique({
        where: { id: scenario.assistantId },
        select: { tools: true },
      });
      const webhookNames = parseWebhookTools(assistant?.tools ?? []).tools.map((tool) => tool.name);
      sets = [stubbed(definitions(real), webhookNames, results)];
    }
    return sets.map((set) => this.recorded(callId, set));
  }

  private recorded(callId: number, set: FunctionSet): FunctionSet {
    return {
      definitions: () => set.definitions(),
      run: async (name, args) => {
        const record = await set.run(name, args);
        if (record)
          await this.deps.db.prisma.$executeRaw`
            UPDATE "test_scenario_results"
            SET "functionCalls" = "functionCalls" || ${JSON.stringify([record])}::jsonb
            WHERE "callId" = ${callId}::integer`;
        return record;
      },
    };
  }
}

/**
 * Plays a phone scenario: a test call to the assistant on the simulated carrier, answered by the
 * real voice engine on text turns, with the scenario's caller on the other end. The runner waits
 * for the call's end and reads its record: turns (with their stage timestamps), the functions the
 * call ran, how it ended.
 */
export class PhoneConversation {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly parts: {
      calls: Pick<TestCalls, "start">;
      turns(accountId: number, callId: number): Promise<CallTurn[]>;
      /** Ends a test call still running when its run must stop. */
      hangUp(callId: number, reason: string): Promise<void>;
      modelConfigured: boolean;
    },
  ) {}

  async play(
    scenario: TestScenario,
    options: { resultId: number; deadline: Date; signal?: AbortSignal },
  ): Promise<PhoneRecord> {
    const customer = scenario.customer as unknown as Customer;
    if (customer.kind === "persona" && !this.parts.modelConfigured)
      throw new AppError("BAD_REQUEST", "A persona caller needs a chat model: none is configured.");
    const prisma = this.deps.db.prisma;
    const assistant = await prisma.assistant.findFirst({
      where: { id: scenario.assistantId, accountId: scenario.accountId, deletedAt: null },
      select: { variables: true },
    });
    if (!assistant) throw new AppError("NOT_FOUND", "The scenario's assistant no longer exists.");
    const call = await this.parts.calls.start({
      accountId: scenario.accountId,
      assistantId: scenario.assistantId,
      variables: {
        ...(assistant.variables as Variables),
        ...(scenario.variables as Variables),
      } as Prisma.InputJsonObject,
      // Linked before the caller connects: the carrier finds its lines through the result.
      beforeConnect: async (callId) => {
        await prisma.testScenarioResult.update({
          where: { id: options.resultId },
          data: { callId, functionCalls: [] },
        });
      },
    });
    const ended = await this.ended(call.id, options);
    const status = toApiStatus(ended.status);
    if (status === "failed")
      throw new AppError("BAD_REQUEST", `The test call failed: ${ended.endReason || "no reason given"}.`);
    const [turns, linked] = await Promise.all([
      this.parts.turns(scenario.accountId, call.id),
      prisma.testScenarioResult.findUniqueOrThrow({
        where: { id: options.resultId },
        select: { functionCalls: true },
      }),
    ]);
    const functionCalls = linked.functionCalls as unknown as FunctionCallRecord[];
    const transcript = transcriptOf(turns);
    const customerTurns = transcript.filter((entry) => entry.role === "customer").length;
    const turnLatencies = transcript.flatMap((entry) =>
      entry.latencyMs === undefined ? [] : [entry.latencyMs],
    );
    const price = new Prisma.Decimal(this.deps.config.telephony.pricePerMinute);
    return {
      callId: call.id,
      transcript,
      functionCalls,
      turnLatencies,
      endedBy: endingOf(status, functionCalls, customer, customerTurns, scenario.turnLimit),
      cost: ended.startedAt ? price.times(minutesStarted(ended.duration)) : new Prisma.Decimal(0),
    };
  }

  /** The call once final; a run that must stop (its deadline, a stopping server) hangs it up first. */
  private async ended(callId: number, options: { deadline: Date; signal?: AbortSignal }): Promise<Call> {
    const prisma = this.deps.db.prisma;
    for (;;) {
      const call = await prisma.call.findUniqueOrThrow({ where: { id: callId } });
      if (isFinal(toApiStatus(call.status))) return call;
      if (options.signal?.aborted) {
        await this.parts.hangUp(callId, "The test run stopped.");
        throw new AppError("SERVICE_UNAVAILABLE", "The server is stopping.");
      }
      if (Date.now() > options.deadline.getTime()) {
        await this.parts.hangUp(callId, "The test run's time limit was reached.");
        throw new AppError("BAD_REQUEST", "The run's time limit was reached before the test call ended.");
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
}

/**
 * The call's turns as a test transcript: what each side said (markers left out); an assistant turn
 * that answers the caller carries its latency, from the end of the caller's turn to the first of
 * the answer's audio sent (its first token when no audio was sent).
 */
function transcriptOf(turns: readonly CallTurn[]): TranscriptEntry[] {
  return turns
    .filter((turn) => turn.speaker !== "system" && turn.text.trim() !== "")
    .map((turn) => {
      const role = turn.speaker === "assistant" ? ("assistant" as const) : ("customer" as const);
      const answered = turn.firstAudioAt ?? turn.firstTokenAt;
      const since = turn.speechEndedAt ?? turn.transcriptAt;
      return role === "assistant" && answered && since
        ? { role, content: turn.text, latencyMs: Math.max(0, answered.getTime() - since.getTime()) }
        : { role, content: turn.text };
    });
}

function endingOf(
  status: ApiCallStatus,
  calls: readonly FunctionCallRecord[],
  customer: Customer,
  customerTurns: number,
  turnLimit: number,
): Ending {
  const succeeded = (name: string) => calls.some((call) => call.name === name && !call.error);
  if (succeeded(TRANSFER_CALL_TOOL_NAME)) return "transferred";
  if (status === "ended_by_assistant") return "assistant";
  if (succeeded(HANDOFF_TOOL_NAME)) return "handoff";
  const cut = customer.kind === "scripted" ? customer.lines.length > turnLimit : true;
  return cut && customerTurns >= turnLimit ? "turn_limit" : "customer";
}
