import type { Config } from "../../env.ts";
import { createEmbedder } from "../embeddings/embedder.ts";

/** Where the self-hosting guide lives, named wherever a missing model is reported. */
export const SELF_HOSTED_MODELS_DOC = "docs/self-hosted-models.md";

/**
 * What the deployment answers with, for the start banner and `/readyz`: a chat model (a key, or an
 * OpenAI-compatible server of its own) or the fixed fallback, and which embedder knowledge uses. A
 * deployment without a model still serves: assistants answer with the fallback (free), and knowledge
 * is searched with the offline embedder.
 */
export interface ModelSetup {
  configured: boolean;
  /** The chat model's name when configured. */
  chat: string | null;
  /** The embedder's id, e.g. "openai:text-embedding-3-small:1536" or "local:hash:384". */
  embeddings: string;
  /** Without a model: what assistants do meanwhile and what to set. */
  notice: string | null;
}

/** Whether replies come from a chat model (a key, or a server of its own); else the fallback answers. */
export function chatModelConfigured(openai: Pick<Config["openai"], "apiKey" | "baseUrl">): boolean {
  return Boolean(openai.apiKey || openai.baseUrl);
}

export function modelSetup(config: Config): ModelSetup {
  const configured = chatModelConfigured(config.openai);
  return {
    configured,
    chat: configured ? config.openai.model : null,
    embeddings: createEmbedder(config).id,
    notice: configured
      ? null
      : "No chat model is configured: assistants answer with a fixed fallback (free of charge in chats and " +
        "simulated calls; calls on a real carrier and browser calls are still charged per minute) and " +
        "knowledge is searched with the offline embedder. Set OPENAI_API_KEY, or OPENAI_BASE_URL (and OPENAI_MODEL) " +
        `for an OpenAI-compatible server such as Ollama, vLLM or llama.cpp: see ${SELF_HOSTED_MODELS_DOC}.`,
  };
}
