import type { Config } from "../../env.ts";
import type { AiModelKind, SpeechProviderKind } from "../../generated/prisma/client.ts";
import type { KeyProvider, SynthesizerName, TranscriberName } from "../voice/index.ts";

/** The providers an account can hold its own key for (`setProviderKey`). */
export const KEY_PROVIDERS = [
  "openai",
  "deepgram",
  "elevenlabs",
  "cartesia",
] as const satisfies KeyProvider[];

export const TRANSCRIBER_NAMES = [
  "openai",
  "deepgram",
  "openai-realtime",
] as const satisfies TranscriberName[];
export const SYNTHESIZER_NAMES = ["openai", "elevenlabs", "cartesia"] as const satisfies SynthesizerName[];

/** OpenAI's own API: a base URL elsewhere is a self-hosted server, which may need no key. */
const OPENAI_HOST = /^(https|wss):\/\/api\.openai\.com(\/|$)/;
const DEEPGRAM_HOST = /^wss:\/\/api\.deepgram\.com(\/|$)/;

/** The key a provider of the catalogue connects with: OpenAI's serves its transcription and models. */
export function keyProviderOf(row: { kind: SpeechProviderKind | AiModelKind; name: string }): KeyProvider {
  if (row.kind === "llm" || row.kind === "multimodal") return "openai";
  return row.name === "openai-realtime" ? "openai" : (row.name as KeyProvider);
}

/** Whether the deployment's environment configures a provider: a key, or a server of its own. */
export function deploymentConfigures(
  config: Pick<Config, "voice" | "openai">,
  row: { kind: SpeechProviderKind | AiModelKind; name: string },
): boolean {
  const { voice } = config;
  const keyOrOwnServer = (endpoint: { apiKey: string | undefined; baseUrl: string }) =>
    Boolean(endpoint.apiKey) || !OPENAI_HOST.test(endpoint.baseUrl);
  switch (row.kind) {
    case "llm":
      return Boolean(config.openai.apiKey || config.openai.baseUrl);
    case "multimodal":
      return keyOrOwnServer(voice.realtime);
    case "transcriber":
      if (row.name === "deepgram")
        return Boolean(voice.deepgram.apiKey) || !DEEPGRAM_HOST.test(voice.deepgram.url);
      return row.name === "openai-realtime" ? keyOrOwnServer(voice.realtime) : keyOrOwnServer(voice.stt);
    case "synthesizer":
      if (row.name === "elevenlabs") return voice.streamingTts.elevenlabs !== null;
      if (row.name === "cartesia") return voice.streamingTts.cartesia !== null;
      return keyOrOwnServer(voice.tts);
  }
}

/** Whether a row is what the deployment uses when an assistant selects nothing. */
export function deploymentDefault(
  config: Pick<Config, "voice" | "openai">,
  row: { kind: SpeechProviderKind | AiModelKind; name: string },
): boolean {
  switch (row.kind) {
    case "llm":
      return row.name === config.openai.model;
    case "multimodal":
      return row.name === config.voice.realtime.model;
    case "transcriber":
      return row.name === (config.voice.streamingStt ?? "openai");
    case "synthesizer":
      return row.name === config.voice.streamingTts.provider;
  }
}
