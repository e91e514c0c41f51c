import { storableText, storableValue } from "../../storable-text.mjs";
import {
  END_CALL_TOOL_NAME,
  type FunctionSet,
  knowledgeFunctionSet,
  type RealtimeFunction,
  refused,
} from "./function-sets.ts";
import type { KnowledgeRetrieval } from "./reply-knowledge.ts";
import type { ReplyRequest } from "./reply-types.ts";
import { callWebhook, type FunctionCallRecord, parseWebhookTools, type WebhookTool } from "./tools.ts";

/** Function calls the model may make in one round; any more are answered with an error. */
export const MAX_CALLS_PER_ROUND = 5;

/** The functions one reply offers: the built-in sets, in the order they are offered, and the owner's webhooks. */
export interface OfferedFunctions {
  sets: readonly FunctionSet[];
  webhookTools: WebhookTool[];
  /** The assistant's webhook functions that are not valid, and so not offered. */
  invalid: string[];
}

/** What a reply offers the model to call, and the running of what it called. */
export class ReplyFunctions {
  constructor(
    private readonly retrieval: KnowledgeRetrieval,
    private readonly outboundAllowList: readonly string[],
  ) {}

  offer(
    request: Pick<ReplyRequest, "accountId" | "assistant" | "functions">,
    knowledgeTool: boolean,
    live: FunctionSet | null,
  ): OfferedFunctions {
    const { accountId, assistant } = request;
    const { tools: webhookTools, invalid } = parseWebhookTools(assistant.tools);
    const sets: FunctionSet[] = [];
    if (knowledgeTool)
      sets.push(
        knowledgeFunctionSet((query) =>
          this.retrieval.retrieve(accountId, assistant.knowledgebaseId, query, "hybrid"),
        ),
      );
    if (live) sets.push(live);
    sets.push(...(request.functions ?? []));
    return { sets, webhookTools, invalid };
  }

  /** One round's calls, side by side; those past `MAX_CALLS_PER_ROUND` are refused. */
  runRound(
    request: ReplyRequest,
    offered: OfferedFunctions,
    calls: readonly { name: string; arguments: string }[],
  ): Promise<FunctionCallRecord[]> {
    return Promise.all(
      calls.map((call, index) =>
        index < MAX_CALLS_PER_ROUND
          ? this.run(request, offered, storableText(call.name), call.arguments)
          : Promise.resolve(refused(storableText(call.name), "Too many function calls in one step.")),
      ),
    );
  }

  async run(
    request: ReplyRequest,
    offered: OfferedFunctions,
    name: string,
    rawArguments: string,
  ): Promise<FunctionCallRecord> {
    let args: Record<string, unknown>;
    try {
      const parsed: unknown = rawArguments.trim() ? JSON.parse(rawArguments) : {};
      if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed))
        throw new Error("not an object");
      args = storableValue(parsed) as Record<string, unknown>;
    } catch {
      return refused(name, "The arguments were not a valid JSON object.");
    }
    // Hanging up is no wait the caller should hear a filler for.
    if (name !== END_CALL_TOOL_NAME) request.liveCall?.onFunctionCall?.(name);
    for (const set of offered.sets) {
      const record = await set.run(name, args);
      if (record) return record;
    }
    const tool = offered.webhookTools.find((candidate) => candidate.name === name);
    if (!tool) return refused(name, `There is no function named ${name}.`, args);
    return callWebhook(tool, args, this.outboundAllowList);
  }
}

/** The definitions of what is offered, as the model gets them. */
export function functionDefinitions({ webhookTools, sets }: OfferedFunctions): RealtimeFunction[] {
  const builtins = sets.flatMap((set) => set.definitions());
  // A built-in function takes its name: an owner's webhook function of that name is not offered beside it.
  const taken = new Set(builtins.map((definition) => definition.name));
  return [
    ...webhookTools
      .filter((tool) => !taken.has(tool.name))
      .map(
        (tool): RealtimeFunction => ({
          type: "function",
          name: tool.name,
          description: tool.description,
          parameters: tool.parameters,
        }),
      ),
    ...builtins,
  ];
}
