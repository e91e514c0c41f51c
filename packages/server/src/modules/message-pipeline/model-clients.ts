import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessage,
} from "openai/resources/chat/completions";
import type { ServiceDeps } from "../../deps.ts";
import { AppError, UpstreamFailedError } from "../../errors.ts";
import { REPLY_BOUNDS } from "../../limits.ts";
import { timed } from "../../logger.ts";
import { metrics } from "../../metrics.ts";
import { ProviderError } from "../common/provider-http.ts";
import { ChatCompletionsClient } from "./chat-client.ts";
import type { ChatModelCatalogue, ReplyAssistant } from "./reply-types.ts";

/** Clients made for accounts' own keys, kept while in use (least recently used dropped first). */
const MAX_ACCOUNT_CLIENTS = 200;

/**
 * The chat model a reply talks to: the deployment's client (none when no model is configured), a
 * client per account that set its own key, and the model each assistant selected.
 */
export class ModelClients {
  private readonly deployment: ChatCompletionsClient | null;
  /** By key: an account's key makes its own client on the deployment's chat endpoint. */
  private readonly accountClients = new Map<string, ChatCompletionsClient>();

  constructor(
    private readonly deps: ServiceDeps,
    private readonly chatModels: () => ChatModelCatalogue | null,
  ) {
    const { apiKey, baseUrl } = deps.config.openai;
    // OpenAI-compatible local servers often need no key; a placeholder keeps the header well-formed.
    this.deployment = apiKey || baseUrl ? this.clientWith(apiKey ?? "unused") : null;
  }

  get configured(): boolean {
    return this.deployment !== null;
  }

  private clientWith(apiKey: string): ChatCompletionsClient {
    const { baseUrl, timeoutSeconds } = this.deps.config.openai;
    return new ChatCompletionsClient({
      apiKey,
      baseUrl,
      timeoutMs: timeoutSeconds * 1000,
      maxRetries: REPLY_BOUNDS.modelAttempts - 1,
    });
  }

  /**
   * The chat client of an account's replies: with the account's own OpenAI key when it set one
   * (docs/voice.md#providers-and-models), else the deployment's. A key that cannot be read (the
   * catalogue unavailable) leaves the deployment's. Only called when a model is configured.
   */
  async clientFor(accountId: number): Promise<ChatCompletionsClient> {
    const deployment = this.deployment!;
    const key = await this.chatModels()
      ?.chatKeyFor(accountId)
      .catch((error: unknown) => {
        this.deps.logger.warn("an account's chat key could not be read; the deployment's is used", {
          accountId,
          error,
        });
        return null;
      });
    if (!key) return deployment;
    let client = this.accountClients.get(key);
    if (client) this.accountClients.delete(key);
    else {
      client = this.clientWith(key);
      if (this.accountClients.size >= MAX_ACCOUNT_CLIENTS) {
        this.accountClients.delete(this.accountClients.keys().next().value!);
      }
    }
    this.accountClients.set(key, client);
    return client;
  }

  /** The assistant's catalogue chat model (`llm_model_id`), else the deployment's (OPENAI_MODEL). */
  async modelFor(assistant: ReplyAssistant): Promise<string> {
    const catalogue = assistant.llmModelId ? this.chatModels() : null;
    const selected = catalogue ? await catalogue.chatModelName(assistant.llmModelId!) : null;
    return selected ?? this.deps.config.openai.model;
  }
}

/** One streamed chat completion; the text is forwarded as it arrives. */
export async function complete(
  client: ChatCompletionsClient,
  body: ChatCompletionCreateParamsNonStreaming,
  onDelta: ((text: string) => void) | undefined,
): Promise<ChatCompletionMessage> {
  const stopTimer = metrics.modelDuration.startTimer();
  try {
    const message = await timed("model", () => client.stream(body, onDelta));
    stopTimer({ status: "ok" });
    return message;
  } catch (error) {
    stopTimer({ status: "error" });
    throw upstreamError(error);
  }
}

/** Words the failure for the customer and the log alike, without credentials or internals. */
function upstreamError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof ProviderError) {
    if (error.reason === "timeout") return new UpstreamFailedError("the AI provider did not answer in time.");
    if (error.reason === "connection")
      return new UpstreamFailedError("the AI provider could not be reached.");
    return new UpstreamFailedError(error.described);
  }
  return new UpstreamFailedError(error instanceof Error ? error.message : "unknown error.");
}
