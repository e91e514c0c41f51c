import type {
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCall,
  ChatCompletionTool,
} from "openai/resources/chat/completions";
import type { ServiceDeps } from "../../deps.ts";
import { REPLY_BOUNDS } from "../../limits.ts";
import { metrics } from "../../metrics.ts";
import { storableText } from "../../storable-text.mjs";
import { LIVE_CALL_FUNCTIONS, liveCallFunctionSet, type RealtimeFunction } from "./function-sets.ts";
import { complete, ModelClients } from "./model-clients.ts";
import { buildSystemPrompt, type HistoryMessage, historyWindow, type Passage } from "./prompt.ts";
import { functionDefinitions, ReplyFunctions } from "./reply-functions.ts";
import { fallbackReply, KnowledgeRetrieval, knowledgeStrategy } from "./reply-knowledge.ts";
import type {
  ChatModelCatalogue,
  KnowledgeSearch,
  ReplyAssistant,
  ReplyRequest,
  ReplyResult,
} from "./reply-types.ts";
import { type FunctionCallRecord, toolMessageContent } from "./tools.ts";

/** Model calls per reply: the last one is offered no functions, so the loop always ends with text. */
export const MAX_MODEL_ROUNDS = REPLY_BOUNDS.modelRounds;

/**
 * Produces an assistant's reply: prompt with variables, time and knowledge, a bounded
 * function-calling loop through the SSRF guard, the answer streamed as it is generated. Without a
 * configured model it answers honestly from the knowledge base and the assistant's greeting.
 */
export class ReplyEngine {
  private readonly models: ModelClients;
  private readonly retrieval: KnowledgeRetrieval;
  private readonly functions: ReplyFunctions;

  constructor(
    private readonly deps: ServiceDeps,
    knowledge: () => KnowledgeSearch | null,
    chatModels: () => ChatModelCatalogue | null = () => null,
  ) {
    this.models = new ModelClients(deps, chatModels);
    this.retrieval = new KnowledgeRetrieval(deps.logger, knowledge);
    this.functions = new ReplyFunctions(this.retrieval, deps.config.outboundAllowList);
  }

  get modelConfigured(): boolean {
    return this.models.configured;
  }

  /**
   * The passages a reply to `question` puts in its prompt (or, without a model, in its fallback
   * answer); none when the model searches by itself. Separate from `generate` so that the caller
   * can retrieve them while it loads the conversation's history.
   */
  async knowledgeFor(accountId: number, assistant: ReplyAssistant, question: string): Promise<Passage[]> {
    const strategy = knowledgeStrategy(assistant.knowledgebaseMode);
    if (strategy.kind === "tool" && this.models.configured) return [];
    return this.retrieval.retrieve(
      accountId,
      assistant.knowledgebaseId,
      question,
      strategy.kind === "prompt" ? strategy.mode : "hybrid",
    );
  }

  async generate(request: ReplyRequest): Promise<ReplyResult> {
    const stopTimer = metrics.replyDuration.startTimer();
    try {
      return await this.generateTimed(request);
    } finally {
      stopTimer();
    }
  }

  private async generateTimed(request: ReplyRequest): Promise<ReplyResult> {
    const { assistant, passages } = request;
    const strategy = knowledgeStrategy(assistant.knowledgebaseMode);
    if (!this.models.configured) return fallbackReply(assistant, passages);

    const knowledgeTool = strategy.kind === "tool" && assistant.knowledgebaseId !== null;
    const live = request.liveCall ? liveCallFunctionSet(request.liveCall) : null;
    const offered = this.functions.offer(request, knowledgeTool, live);
    const { invalid } = offered;
    if (invalid.length > 0)
      this.deps.logger.warn("assistant has invalid tools; they are not offered", { invalid });
    const tools = functionDefinitions(offered).map(
      ({ type, ...definition }): ChatCompletionTool => ({ type, function: definition }),
    );

    const messages: ChatCompletionMessageParam[] = [
      {
        role: "system",
        content: buildSystemPrompt({
          systemPrompt: assistant.systemPrompt,
          variables: request.variables,
          timezone: assistant.timezone,
          now: new Date(),
          passages,
          knowledgeTool,
          medium: request.medium,
        }),
      },
      ...historyWindow(request.history).map(toModelMessage),
    ];
    const functionCalls: FunctionCallRecord[] = [];
    const [model, client] = await Promise.all([
      this.models.modelFor(assistant),
      this.models.clientFor(request.accountId),
    ]);
    for (let round = 1; round <= MAX_MODEL_ROUNDS; round++) {
      const offerTools = tools.length > 0;
      const lastRound = round === MAX_MODEL_ROUNDS;
      const completion = await complete(
        client,
        {
          model,
          temperature: Number(assistant.llmTemperature.toString()),
          messages,
          ...(offerTools ? { tools, tool_choice: lastRound ? ("none" as const) : ("auto" as const) } : {}),
        },
        request.onDelta,
      );
      const toolCalls = (completion.tool_calls ?? []).filter(
        (call): call is ChatCompletionMessageToolCall & { type: "function" } => call.type === "function",
      );
      if (toolCalls.length === 0 || lastRound) {
        return {
          reply: storableText((completion.content ?? "").trim()),
          functionCalls,
          generatedBy: "model",
        };
      }
      messages.push({ role: "assistant", content: completion.content ?? null, tool_calls: toolCalls });
      const records = await this.functions.runRound(
        request,
        offered,
        toolCalls.map((call) => call.function),
      );
      for (const [index, record] of records.entries()) {
        functionCalls.push(record);
        messages.push({
          role: "tool",
          tool_call_id: toolCalls[index]!.id,
          content: toolMessageContent(record),
        });
      }
    }
    throw new Error("unreachable: the last round always returns");
  }

  /**
   * The prompt and functions of a live call whose model runs elsewhere (an OpenAI Realtime session):
   * the knowledge base is always a search function there, since the model answers before a
   * transcript could bring passages into its prompt.
   */
  liveCallSetup(request: Pick<ReplyRequest, "accountId" | "assistant" | "variables" | "functions">): {
    instructions: string;
    tools: RealtimeFunction[];
  } {
    const { assistant } = request;
    const knowledgeTool = this.liveKnowledgeTool(assistant);
    return {
      instructions: buildSystemPrompt({
        systemPrompt: assistant.systemPrompt,
        variables: request.variables,
        timezone: assistant.timezone,
        now: new Date(),
        passages: [],
        knowledgeTool,
      }),
      // The live call's own functions are only offered here: the session runs them (runLiveFunction).
      tools: functionDefinitions(
        this.functions.offer(request, knowledgeTool, {
          definitions: () => [...LIVE_CALL_FUNCTIONS],
          run: async () => undefined,
        }),
      ),
    };
  }

  /** Runs one function a live call's realtime model asked for, as `generate` runs the chat model's. */
  runLiveFunction(request: ReplyRequest, name: string, rawArguments: string): Promise<FunctionCallRecord> {
    const live = request.liveCall ? liveCallFunctionSet(request.liveCall) : null;
    const offered = this.functions.offer(request, this.liveKnowledgeTool(request.assistant), live);
    return this.functions.run(request, offered, storableText(name), rawArguments);
  }

  /** On a realtime call the knowledge base is always a function (see `liveCallSetup`). */
  private liveKnowledgeTool(assistant: ReplyAssistant): boolean {
    return assistant.knowledgebaseId !== null && this.retrieval.available;
  }
}

/** Operator messages are the business speaking: the model sees them as its own side of the conversation. */
function toModelMessage(message: HistoryMessage): ChatCompletionMessageParam {
  if (message.role === "user") return { role: "user", content: message.content };
  return {
    role: "assistant",
    content: message.role === "operator" ? `[A human colleague wrote:] ${message.content}` : message.content,
  };
}
