import { z } from "zod";
import type { ServiceDeps } from "../../deps.ts";
import { NotFoundError, ValidationError } from "../../errors.ts";
import type { Prisma, TestScenario, TestSuite } from "../../generated/prisma/client.ts";
import { parseInput, requiredString } from "../../validation.ts";
import { variablesInput } from "../message-pipeline/index.ts";
import { CHANNELS, CheckSchema, type Customer, AGENT_TEST_LIMITS as LIMITS } from "./scenario-rules.ts";

const line = z.string().trim().min(1, "A line must not be empty.").max(LIMITS.lineChars);

const ScenarioFields = {
  name: requiredString("name", 200),
  channel: z.enum(CHANNELS).default("chat"),
  script: z.array(line).min(1, "A script has at least one line.").max(LIMITS.scriptLines).optional(),
  persona: z.string().trim().min(1).max(LIMITS.personaChars).optional(),
  goal: z.string().trim().max(LIMITS.personaChars).optional(),
  variables: variablesInput,
  turnLimit: z.number().int().min(1).max(LIMITS.maxTurns).optional(),
  criteria: z.array(z.string().trim().min(1).max(LIMITS.criterionChars)).max(LIMITS.criteria).optional(),
  checks: z.array(CheckSchema).max(LIMITS.checks).optional(),
  toolResults: z
    .record(z.string().max(64), z.unknown())
    .refine((value) => JSON.stringify(value).length <= LIMITS.toolResultsBytes, {
      message: `Tool results must not be larger than ${LIMITS.toolResultsBytes} bytes as JSON.`,
    })
    .optional(),
  useRealTools: z.boolean().optional(),
};

const CreateScenario = z
  .object({ assistantId: z.number().int(), ...ScenarioFields })
  .refine((input) => (input.script === undefined) !== (input.persona === undefined), {
    message: "Give the customer either a script or a persona.",
    path: ["script"],
  });

const UpdateScenario = z
  .object({ ...ScenarioFields, name: ScenarioFields.name.optional() })
  .refine((input) => input.script === undefined || input.persona === undefined, {
    message: "Give the customer either a script or a persona.",
    path: ["script"],
  });

const SuiteInput = z.object({
  name: requiredString("name", 200),
  scenarioIds: z
    .array(z.number().int())
    .min(1, "A suite has at least one scenario.")
    .max(LIMITS.suiteScenarios, `A suite has at most ${LIMITS.suiteScenarios} scenarios.`)
    .refine((ids) => new Set(ids).size === ids.length, "A scenario is listed twice."),
});

export interface ScenarioInput {
  assistantId?: unknown;
  name?: unknown;
  channel?: unknown;
  script?: unknown;
  persona?: unknown;
  goal?: unknown;
  variables?: unknown;
  turnLimit?: unknown;
  criteria?: unknown;
  checks?: unknown;
  toolResults?: unknown;
  useRealTools?: unknown;
}

export type SuiteWithScenarios = TestSuite & { scenarioIds: number[] };

/** A scenario as made from real traffic (replay.ts): its script and what the assistant said then. */
export interface RecordedScenario {
  assistantId: number;
  name: string;
  lines: string[];
  expectedReplies: string[];
  sourceCallId?: number;
  sourceConversationId?: string;
}

/** Scenarios and suites: the account's definitions of what must keep working. */
export class ScenariosService {
  constructor(private readonly deps: ServiceDeps) {}

  private get prisma() {
    return this.deps.db.prisma;
  }

  async scenario(accountId: number, id: number): Promise<TestScenario> {
    const scenario = await this.prisma.testScenario.findFirst({ where: { id, accountId } });
    if (!scenario) throw new NotFoundError("Test scenario");
    return scenario;
  }

  scenarios(accountId: number, assistantId?: number | null): Promise<TestScenario[]> {
    return this.prisma.testScenario.findMany({
      where: { accountId, ...(assistantId ? { assistantId } : {}) },
      orderBy: { id: "asc" },
      take: LIMITS.scenariosPerAccount,
    });
  }

  async create(accountId: number, input: ScenarioInput): Promise<TestScenario> {
    const data = parseInput(CreateScenario, input);
    await this.assertAssistant(accountId, data.assistantId);
    await this.assertRoom(accountId);
    const customer: Customer = data.script
      ? { kind: "scripted", lines: data.script }
      : { kind: "persona", prompt: data.persona!, goal: data.goal ?? "" };
    const scenario = await this.prisma.testScenario.create({
      data: {
        accountId,
        assistantId: data.assistantId,
        name: data.name,
        channel: data.channel,
        customer: customer as unknown as Prisma.InputJsonObject,
        variables: data.variables as Prisma.InputJsonObject,
        turnLimit: data.turnLimit ?? Math.max(LIMITS.defaultTurns, data.script?.length ?? 0),
        criteria: data.criteria ?? [],
        checks: (data.checks ?? []) as Prisma.InputJsonArray,
        toolResults: (data.toolResults ?? {}) as Prisma.InputJsonObject,
        useRealTools: data.useRealTools ?? false,
      },
    });
    this.deps.logger.info("test scenario created", { accountId, scenarioId: scenario.id });
    return scenario;
  }

  async update(accountId: number, id: number, input: ScenarioInput): Promise<TestScenario> {
    const data = parseInput(UpdateScenario, input);
    const current = await this.scenario(accountId, id);
    const previous = current.customer as unknown as Customer;
    let customer: Customer | undefined;
    if (data.script) customer = { kind: "scripted", lines: data.script };
    else if (data.persona !== undefined || (data.goal !== undefined && previous.kind === "persona"))
      customer = {
        kind: "persona",
        prompt: data.persona ?? (previous.kind === "persona" ? previous.prompt : ""),
        goal: data.goal ?? (previous.kind === "persona" ? previous.goal : ""),
      };
    if (customer?.kind === "persona" && customer.prompt === "")
      throw ValidationError.single("persona", "A persona customer needs a persona.");
    return this.prisma.testScenario.update({
      where: { id: current.id },
      data: {
        ...(data.name !== undefined ? { name: data.name } : {}),
        ...(input.channel !== undefined ? { channel: data.channel } : {}),
        ...(customer ? { customer: customer as unknown as Prisma.InputJsonObject } : {}),
        ...(input.variables !== undefined ? { variables: data.variables as Prisma.InputJsonObject } : {}),
        ...(data.turnLimit !== undefined ? { turnLimit: data.turnLimit } : {}),
        ...(data.criteria !== undefined ? { criteria: data.criteria } : {}),
        ...(data.checks !== undefined ? { checks: data.checks as Prisma.InputJsonArray } : {}),
        ...(data.toolResults !== undefined
          ? { toolResults: data.toolResults as Prisma.InputJsonObject }
          : {}),
        ...(data.useRealTools !== undefined ? { useRealTools: data.useRealTools } : {}),
      },
    });
  }

  async delete(accountId: number, id: number): Promise<boolean> {
    const { count } = await this.prisma.testScenario.deleteMany({ where: { id, accountId } });
    if (count === 0) throw new NotFoundError("Test scenario");
    return true;
  }

  /** A scripted scenario from a real call or conversation (its customer's lines, its assistant's answers). */
  async createRecorded(accountId: number, recorded: RecordedScenario): Promise<TestScenario> {
    await this.assertRoom(accountId);
    const lines = recorded.lines.slice(0, LIMITS.scriptLines).map((text) => text.slice(0, LIMITS.lineChars));
    return this.prisma.testScenario.create({
      data: {
        accountId,
        assistantId: recorded.assistantId,
        name: recorded.name,
        channel: "chat",
        customer: { kind: "scripted", lines },
        turnLimit: Math.max(1, lines.length),
        expectedReplies: recorded.expectedReplies.slice(0, lines.length),
        ...(recorded.sourceCallId !== undefined ? { sourceCallId: recorded.sourceCallId } : {}),
        ...(recorded.sourceConversationId !== undefined
          ? { sourceConversationId: recorded.sourceConversationId }
          : {}),
      },
    });
  }

  async suite(accountId: number, id: number): Promise<SuiteWithScenarios> {
    const suite = await this.prisma.testSuite.findFirst({
      where: { id, accountId },
      include: { scenarios: { orderBy: { position: "asc" }, select: { scenarioId: true } } },
    });
    if (!suite) throw new NotFoundError("Test suite");
    const { scenarios, ...rest } = suite;
    return { ...rest, scenarioIds: scenarios.map((link) => link.scenarioId) };
  }

  async suites(accountId: number): Promise<SuiteWithScenarios[]> {
    const suites = await this.prisma.testSuite.findMany({
      where: { accountId },
      include: { scenarios: { orderBy: { position: "asc" }, select: { scenarioId: true } } },
      orderBy: { id: "asc" },
      take: 500,
    });
    return suites.map(({ scenarios, ...rest }) => ({
      ...rest,
      scenarioIds: scenarios.map((link) => link.scenarioId),
    }));
  }

  /** The suite's scenarios in its order. */
  async suiteScenarios(accountId: number, suiteId: number): Promise<TestScenario[]> {
    const links = await this.prisma.testSuiteScenario.findMany({
      where: { suiteId, suite: { accountId } },
      orderBy: { position: "asc" },
      include: { scenario: true },
    });
    return links.map((link) => link.scenario);
  }

  async createSuite(accountId: number, input: { name?: unknown; scenarioIds?: unknown }) {
    const data = parseInput(SuiteInput, input);
    await this.assertScenarios(accountId, data.scenarioIds);
    const suite = await this.prisma.testSuite.create({
      data: {
        accountId,
        name: data.name,
        scenarios: { create: data.scenarioIds.map((scenarioId, position) => ({ scenarioId, position })) },
      },
    });
    return this.suite(accountId, suite.id);
  }

  async updateSuite(accountId: number, id: number, input: { name?: unknown; scenarioIds?: unknown }) {
    const current = await this.suite(accountId, id);
    const data = parseInput(SuiteInput, {
      name: input.name ?? current.name,
      scenarioIds: input.scenarioIds ?? current.scenarioIds,
    });
    await this.assertScenarios(accountId, data.scenarioIds);
    await this.prisma.$transaction([
      this.prisma.testSuiteScenario.deleteMany({ where: { suiteId: id } }),
      this.prisma.testSuite.update({
        where: { id },
        data: {
          name: data.name,
          scenarios: { create: data.scenarioIds.map((scenarioId, position) => ({ scenarioId, position })) },
        },
      }),
    ]);
    return this.suite(accountId, id);
  }

  async deleteSuite(accountId: number, id: number): Promise<boolean> {
    const { count } = await this.prisma.testSuite.deleteMany({ where: { id, accountId } });
    if (count === 0) throw new NotFoundError("Test suite");
    return true;
  }

  private async assertAssistant(accountId: number, assistantId: number): Promise<void> {
    const found = await this.prisma.assistant.count({
      where: { id: assistantId, accountId, deletedAt: null },
    });
    if (found === 0) throw new NotFoundError("Assistant", "ASSISTANT_NOT_FOUND");
  }

  private async assertRoom(accountId: number): Promise<void> {
    const count = await this.prisma.testScenario.count({ where: { accountId } });
    if (count >= LIMITS.scenariosPerAccount)
      throw ValidationError.single(
        "assistantId",
        `An account has at most ${LIMITS.scenariosPerAccount} test scenarios.`,
      );
  }

  private async assertScenarios(accountId: number, ids: number[]): Promise<void> {
    const found = await this.prisma.testScenario.count({ where: { id: { in: ids }, accountId } });
    if (found !== ids.length)
      throw ValidationError.single("scenarioIds", "Every scenario must be one of yours.");
  }
}
