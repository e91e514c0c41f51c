import { z } from "zod";
import type { Lifecycle, ServiceDeps } from "../../deps.ts";
import { NotFoundError, TestRunsBusyError, ValidationError } from "../../errors.ts";
import { Prisma, type TestRun, type TestScenarioResult } from "../../generated/prisma/client.ts";
import type { JobQueue } from "../../jobs/index.ts";
import { parseInput } from "../../validation.ts";
import type { ScenarioOutcome, ScenarioRunner } from "./runner.ts";
import {
  type Customer,
  AGENT_TEST_LIMITS as LIMITS,
  type Overrides,
  OverridesSchema,
} from "./scenario-rules.ts";
import type { ScenariosService } from "./scenarios.service.ts";

const TASK = "agent-tests:run";

/** A run not finished this long after its deadline was lost (its job failed for good): it is closed as failed. */
const LOST_AFTER_MS = 60_000;

const StartInput = z.object({
  concurrency: z
    .number()
    .int()
    .min(1)
    .max(LIMITS.maxConcurrency, `At most ${LIMITS.maxConcurrency} scenarios run at once.`)
    .optional(),
  overrides: OverridesSchema.optional(),
});

export interface SuiteEstimate {
  scenarios: number;
  /** Assistant replies at most (scripted: their lines within the turn limit; personas: the turn limit). */
  replies: number;
  /** Model requests at most: replies, persona lines, judge and evaluation requests. */
  modelRequests: number;
  /** What the replies would cost at the reply price; never charged to the balance. */
  price: string;
}

export interface VerdictChange {
  scenarioId: number;
  scenarioName: string;
  before: TestScenarioResult | null;
  after: TestScenarioResult | null;
}

/**
 * Runs of suites: a run is recorded with one pending result per scenario and a durable job in the
 * same transaction, and answered at once; the job plays the scenarios, a bounded number at a time,
 * and publishes its progress. Restart-safe by resuming: a job interrupted by a stop goes back to the
 * queue, and its next run keeps the finished results and plays the others again from their start.
 */
export class TestRunsService implements Lifecycle {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly parts: { jobs: JobQueue; scenarios: ScenariosService; runner: ScenarioRunner },
  ) {
    parts.jobs.define(TASK, {
      run: (payload, { signal }) => this.play(Number(payload.runId), signal),
      maxAttempts: 3,
    });
  }

  /** Runs play on a queue of their own: a long run never holds up ingestion's or evaluations' workers. */
  async start(): Promise<void> {
    await this.parts.jobs.start();
  }

  async stop(): Promise<void> {
    await this.parts.jobs.stop();
  }

  private get prisma() {
    return this.deps.db.prisma;
  }

  async estimate(accountId: number, suiteId: number): Promise<SuiteEstimate> {
    const scenarios = await this.parts.scenarios.suiteScenarios(
      accountId,
      (await this.parts.scenarios.suite(accountId, suiteId)).id,
    );
    let replies = 0;
    let modelRequests = 0;
    for (const scenario of scenarios) {
      const customer = scenario.customer as unknown as Customer;
      const turns =
        customer.kind === "scripted"
          ? Math.min(customer.lines.length, scenario.turnLimit)
          : scenario.turnLimit;
      replies += turns;
      modelRequests += turns * (customer.kind === "persona" ? 2 : 1);
      if ((scenario.criteria as unknown[]).length > 0) modelRequests += 1;
      if ((scenario.checks as { kind: string }[]).some((check) => check.kind === "evaluation_equals"))
        modelRequests += 1;
    }
    const price = new Prisma.Decimal(this.deps.config.pricing.replyPrice).times(replies).toFixed(4);
    return { scenarios: scenarios.length, replies, modelRequests, price };
  }

  async runSuite(
    accountId: number,
    suiteId: number,
    input: { concurrency?: unknown; overrides?: unknown },
  ): Promise<TestRun> {
    const data = parseInput(StartInput, input);
    const suite = await this.parts.scenarios.suite(accountId, suiteId);
    const scenarios = await this.parts.scenarios.suiteScenarios(accountId, suite.id);
    if (scenarios.length === 0) throw ValidationError.single("suiteId", "The suite has no scenarios.");
    const overrides = data.overrides ?? {};
    await this.assertOverrides(accountId, overrides);
    const active = await this.prisma.testRun.count({
      where: { accountId, status: { in: ["queued", "running"] } },
    });
    if (active >= LIMITS.activeRuns) throw new TestRunsBusyError(LIMITS.activeRuns);
    const run = await this.prisma.$transaction(async (tx) => {
      const created = await tx.testRun.create({
        data: {
          accountId,
          suiteId: suite.id,
          concurrency: data.concurrency ?? LIMITS.defaultConcurrency,
          overrides: overrides as Prisma.InputJsonObject,
          total: scenarios.length,
          deadlineAt: new Date(Date.now() + LIMITS.runTimeoutSeconds * 1000),
          results: {
            create: scenarios.map((scenario, position) => ({
              scenarioId: scenario.id,
              scenarioName: scenario.name,
              position,
            })),
          },
        },
      });
      await this.parts.jobs.enqueue(TASK, { runId: created.id }, { key: `agent-tests:${created.id}`, tx });
      return created;
    });
    this.deps.logger.info("test run queued", { accountId, runId: run.id, scenarios: scenarios.length });
    this.publish(run.id);
    return run;
  }

  async get(accountId: number, id: number): Promise<TestRun> {
    const run = await this.prisma.testRun.findFirst({ where: { id, accountId } });
    if (!run) throw new NotFoundError("Test run");
    return this.closeIfLost(run);
  }

  async list(accountId: number, suiteId: number, limit = 50): Promise<TestRun[]> {
    await this.parts.scenarios.suite(accountId, suiteId);
    const runs = await this.prisma.testRun.findMany({
      where: { suiteId, accountId },
      orderBy: { id: "desc" },
      take: Math.min(Math.max(limit, 1), 200),
    });
    return Promise.all(runs.map((run) => this.closeIfLost(run)));
  }

  results(runId: number): Promise<TestScenarioResult[]> {
    return this.prisma.testScenarioResult.findMany({ where: { runId }, orderBy: { position: "asc" } });
  }

  /** Scenarios whose verdict differs between two runs, side by side (a scenario in one run only counts). */
  async compare(accountId: number, beforeId: number, afterId: number) {
    const [before, after] = await Promise.all([this.get(accountId, beforeId), this.get(accountId, afterId)]);
    const [beforeResults, afterResults] = await Promise.all([
      this.results(before.id),
      this.results(after.id),
    ]);
    const byScenario = new Map<number, VerdictChange>();
    for (const result of beforeResults)
      byScenario.set(result.scenarioId, {
        scenarioId: result.scenarioId,
        scenarioName: result.scenarioName,
        before: result,
        after: null,
      });
    for (const result of afterResults) {
      const entry = byScenario.get(result.scenarioId);
      if (entry) entry.after = result;
      else
        byScenario.set(result.scenarioId, {
          scenarioId: result.scenarioId,
          scenarioName: result.scenarioName,
          before: null,
          after: result,
        });
    }
    const entries = [...byScenario.values()];
    const changed = entries.filter((entry) => entry.before?.status !== entry.after?.status);
    return { before, after, changed, unchanged: entries.length - changed.length };
  }

  /** The job: plays the run's unfinished scenarios, `concurrency` at a time, until done or the deadline. */
  private async play(runId: number, signal: AbortSignal): Promise<void> {
    const run = await this.prisma.testRun.findUnique({ where: { id: runId } });
    if (!run || (run.status !== "queued" && run.status !== "running")) return;
    // Interrupted scenarios (a restart) are played again from their start.
    await this.prisma.testScenarioResult.updateMany({
      where: { runId, status: "running" },
      data: { status: "pending", startedAt: null },
    });
    await this.prisma.testRun.update({
      where: { id: runId },
      data: { status: "running", startedAt: run.startedAt ?? new Date() },
    });
    this.publish(runId);
    const pending = await this.prisma.testScenarioResult.findMany({
      where: { runId, status: "pending" },
      orderBy: { position: "asc" },
    });
    const overrides = run.overrides as Overrides;
    const queue = [...pending];
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        if (signal.aborted || Date.now() > run.deadlineAt.getTime()) return;
        await this.playOne(run, next, overrides, signal);
      }
    };
    await Promise.all(Array.from({ length: Math.min(run.concurrency, LIMITS.maxConcurrency) }, worker));
    if (signal.aborted) throw new Error("The server is stopping: the run resumes on the next start.");
    await this.finish(runId);
  }

  private async playOne(
    run: TestRun,
    result: TestScenarioResult,
    overrides: Overrides,
    signal: AbortSignal,
  ): Promise<void> {
    const scenario = await this.prisma.testScenario.findUnique({ where: { id: result.scenarioId } });
    const startedAt = new Date();
    await this.prisma.testScenarioResult.update({
      where: { id: result.id },
      data: { status: "running", startedAt },
    });
    this.publish(run.id);
    const outcome: ScenarioOutcome | null = scenario
      ? await this.parts.runner.run(scenario, {
          resultId: result.id,
          overrides,
          deadline: run.deadlineAt,
          signal,
        })
      : null;
    if (signal.aborted) return;
    const status = outcome?.status ?? "error";
    await this.prisma.$transaction([
      this.prisma.testScenarioResult.update({
        where: { id: result.id },
        data: outcome
          ? {
              status,
              transcript: outcome.transcript as unknown as Prisma.InputJsonArray,
              functionCalls: outcome.functionCalls as unknown as Prisma.InputJsonArray,
              checks: outcome.checks as unknown as Prisma.InputJsonArray,
              judge: outcome.judge as unknown as Prisma.InputJsonArray,
              evaluation: (outcome.evaluation ?? Prisma.DbNull) as Prisma.InputJsonObject,
              divergences: outcome.divergences as unknown as Prisma.InputJsonArray,
              endedBy: outcome.endedBy,
              turnLatencies: outcome.turnLatencies,
              cost: outcome.cost,
              error: outcome.error,
              finishedAt: new Date(),
            }
          : { status, error: "The scenario was deleted before it ran.", finishedAt: new Date() },
      }),
      this.prisma.testRun.update({
        where: { id: run.id },
        data: {
          ...(status === "passed" ? { passed: { increment: 1 } } : {}),
          ...(status === "failed" ? { failed: { increment: 1 } } : {}),
          ...(status === "error" ? { errored: { increment: 1 } } : {}),
          ...(outcome ? { cost: { increment: outcome.cost } } : {}),
        },
      }),
    ]);
    this.publish(run.id);
  }

  /** Scenarios left when the deadline passed are errors; the run passes only if every scenario passed. */
  private async finish(runId: number): Promise<void> {
    const leftover = await this.prisma.testScenarioResult.updateMany({
      where: { runId, status: { in: ["pending", "running"] } },
      data: { status: "error", error: "The run's time limit was reached first.", finishedAt: new Date() },
    });
    const run = await this.prisma.testRun.update({
      where: { id: runId },
      data: { errored: { increment: leftover.count }, finishedAt: new Date() },
    });
    const status = leftover.count > 0 ? "timed_out" : run.failed + run.errored === 0 ? "passed" : "failed";
    await this.prisma.testRun.update({ where: { id: runId }, data: { status } });
    this.deps.logger.info("test run finished", { runId, status, passed: run.passed, total: run.total });
    this.publish(runId);
  }

  /** A run whose job failed for good stays unfinished: once well past its deadline it is closed as failed. */
  private async closeIfLost(run: TestRun): Promise<TestRun> {
    if (run.status !== "queued" && run.status !== "running") return run;
    if (Date.now() < run.deadlineAt.getTime() + LOST_AFTER_MS) return run;
    const { count } = await this.prisma.testRun.updateMany({
      where: { id: run.id, status: { in: ["queued", "running"] } },
      data: { status: "failed", error: "The run stopped before it finished.", finishedAt: new Date() },
    });
    if (count > 0) this.publish(run.id);
    return (await this.prisma.testRun.findUnique({ where: { id: run.id } })) ?? run;
  }

  private async assertOverrides(accountId: number, overrides: Overrides): Promise<void> {
    if (overrides.knowledgebaseId) {
      const found = await this.prisma.knowledgebase.count({
        where: { id: overrides.knowledgebaseId, accountId },
      });
      if (found === 0) throw ValidationError.single("overrides.knowledgebaseId", "Knowledge base not found.");
    }
  }

  private publish(runId: number): void {
    this.deps.pubsub.publish("test-run:updated", runId, { runId });
  }
}
