import type OpenAI from "openai";
import type { ServiceDeps } from "../../deps.ts";
import { AppError, NotFoundError, UpstreamFailedError, ValidationError } from "../../errors.ts";
import type { Call, Prisma } from "../../generated/prisma/client.ts";
import type { InProcessBus } from "../../in-process-events.ts";
import type { JobQueue } from "../../jobs/index.ts";
import { EVALUATION_MAX_MESSAGES } from "../../limits.ts";
import { deploymentModelClient, openai } from "../../openai.ts";
import type { EvaluationOutcome } from "../calls/index.ts";
import type { RateLimitReporter, RateLimitsService } from "../rate-limits/rate-limits.service.ts";
import { fieldsOf, jsonSchemaOf, type PostCallField, validatorOf } from "./evaluation-schema.ts";

const TASK = "evaluation:call";

const INSTRUCTIONS =
  "You evaluate a finished conversation between a business's AI assistant and a customer. Answer only with the JSON object the schema describes, judging from the transcript alone.";

/** What the evaluation needs of the calls module: the call's evaluation has one writer, its annotations. */
export interface EvaluatedCalls {
  recordEvaluation(callId: number, outcome: EvaluationOutcome): Promise<void>;
}

/**
 * Post-call evaluation: when a call with a transcript ends and its assistant has
 * post_call_evaluation on, a durable job asks the model for the assistant's post_call_schema
 * fields (structured output with a JSON schema, checked again on return). Failures are retried
 * with doubling delays, then recorded on the call; a call never stays pending because of them.
 * The same evaluation runs on demand for chat conversations.
 */
export class EvaluationService {
  private readonly client: OpenAI | null;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly collaborators: {
      jobs: JobQueue;
      calls: EvaluatedCalls;
      /** Tells it of each finished call (`call.finished`): one with a transcript is evaluated. */
      bus: Pick<InProcessBus, "on">;
      rateLimits: RateLimitsService;
    },
  ) {
    this.client = deploymentModelClient(deps.config, 0);
    collaborators.jobs.define(TASK, {
      run: (payload, { signal }) => this.runJob(Number(payload.callId), Number(payload.attempt ?? 1), signal),
      maxAttempts: 3,
    });
    collaborators.bus.on("call.finished", ({ call }) => this.callFinished(call));
  }

  private async callFinished(call: Call): Promise<void> {
    // A test call is judged by its run (which evaluates it when a check asks), not here.
    if (!call.assistantId || call.test || call.transcript.trim() === "") return;
    const assistant = await this.deps.db.prisma.assistant.findUnique({
      where: { id: call.assistantId },
      select: { postCallEvaluation: true },
    });
    if (!assistant?.postCallEvaluation) return;
    await this.collaborators.calls.recordEvaluation(call.id, { status: "pending" });
    await this.collaborators.jobs.enqueue(
      TASK,
      { callId: call.id, attempt: 1 },
      { key: `evaluation:${call.id}` },
    );
  }

  /** One try; a failure schedules the next (its own backoff) or, after the last, is recorded. */
  private async runJob(callId: number, attempt: number, signal: AbortSignal): Promise<void> {
    const call = await this.deps.db.prisma.call.findUnique({
      where: { id: callId },
      include: { assistant: { select: { postCallSchema: true } } },
    });
    if (call?.evaluationStatus !== "pending") return;
    const { maxAttempts, retryBaseMs } = this.deps.config.evaluation;
    try {
      const evaluation = await this.evaluate(
        fieldsOf(call.assistant?.postCallSchema),
        call.transcript,
        signal,
      );
      await this.collaborators.calls.recordEvaluation(callId, { status: "done", evaluation });
    } catch (error) {
      if (signal.aborted) throw error;
      const reason = error instanceof AppError ? error.message : String(error);
      if (this.client && attempt < maxAttempts) {
        this.deps.logger.warn("call evaluation failed, retrying", { callId, attempt, error: reason });
        const runAt = new Date(Date.now() + retryBaseMs * 2 ** (attempt - 1));
        await this.collaborators.jobs.enqueue(
          TASK,
          { callId, attempt: attempt + 1 },
          { key: `evaluation:${callId}`, runAt },
        );
        return;
      }
      this.deps.logger.error("call evaluation failed for good", { callId, attempt, error: reason });
      await this.collaborators.calls.recordEvaluation(callId, { status: "failed", error: reason });
    }
  }

  /** Evaluates a chat conversation now (nothing is stored): its latest messages, by the assistant's schema. */
  async evaluateConversation(accountId: number, conversationId: string, report: RateLimitReporter) {
    // Each evaluation is a model request the account is not charged for: bounded per account.
    const limit = this.deps.config.rateLimits.evaluationPerMinute;
    await this.collaborators.rateLimits.consume(
      "evaluation",
      String(accountId),
      report,
      `Too many evaluations: at most ${limit} per minute per account.`,
    );
    const prisma = this.deps.db.prisma;
    const conversation = /^[0-9a-f-]{36}$/i.test(conversationId)
      ? await prisma.conversation.findFirst({
          where: { id: conversationId, accountId },
          include: { assistant: { select: { postCallSchema: true } } },
        })
      : null;
    if (!conversation) throw new NotFoundError("Conversation");
    const messages = await prisma.message.findMany({
      where: { conversationId, role: { in: ["user", "assistant", "operator"] } },
      orderBy: { id: "desc" },
      take: EVALUATION_MAX_MESSAGES,
    });
    if (messages.length === 0)
      throw ValidationError.single("id", "The conversation has no messages to evaluate.");
    const transcript = messages
      .reverse()
      .map((message) => `${message.role === "user" ? "Customer" : "Assistant"}: ${message.content}`)
      .join("\n");
    const evaluation = await this.evaluate(fieldsOf(conversation.assistant.postCallSchema), transcript);
    return { conversationId, evaluation, evaluatedAt: new Date() };
  }

  /**
   * The evaluation of a transcript that is no call nor stored conversation (an agent test's), by an
   * assistant's post_call_schema, through the same structured output; nothing is stored.
   */
  evaluateTranscript(postCallSchema: unknown, transcript: string): Promise<Prisma.InputJsonObject> {
    return this.evaluate(fieldsOf(postCallSchema), transcript);
  }

  private async evaluate(
    fields: readonly PostCallField[],
    transcript: string,
    signal?: AbortSignal,
  ): Promise<Prisma.InputJsonObject> {
    if (!this.client) throw new UpstreamFailedError("no language model is configured on this server.");
    let content: string;
    try {
      const completion = await this.client.chat.completions.create(
        {
          model: this.deps.config.openai.model,
          temperature: 0,
          messages: [
            { role: "system", content: INSTRUCTIONS },
            { role: "user", content: `Transcript:\n${transcript}` },
          ],
          response_format: {
            type: "json_schema",
            json_schema: { name: "evaluation", strict: true, schema: jsonSchemaOf(fields) },
          },
        },
        { timeout: this.deps.config.evaluation.timeoutMs, ...(signal ? { signal } : {}) },
      );
      content = completion.choices[0]?.message.content ?? "";
    } catch (error) {
      if (signal?.aborted) throw error;
      const sdk = openai();
      if (error instanceof sdk.APIConnectionTimeoutError)
        throw new UpstreamFailedError("the AI provider did not answer in time.");
      if (error instanceof sdk.APIError)
        throw new UpstreamFailedError(`the AI provider answered HTTP ${error.status ?? "error"}.`);
      throw new UpstreamFailedError("the AI provider could not be reached.");
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(content);
    } catch {
      throw new UpstreamFailedError("the model's evaluation is not valid JSON.");
    }
    const checked = validatorOf(fields).safeParse(parsed);
    if (!checked.success) throw new UpstreamFailedError("the model's evaluation does not follow the schema.");
    return checked.data as Prisma.InputJsonObject;
  }
}
