import { connect } from "node:net";
import type { VoiceConfig } from "../../env.ts";
import type { AssistantMode } from "../../generated/prisma/client.ts";

/** How long a speech service may take to accept a connection before a call is refused for it. */
const CONNECT_TIMEOUT_MS = 3_000;

/**
 * The deployment's speech services a call of this mode hears and speaks through: a call that cannot
 * reach one of them could neither hear nor answer the caller.
 */
function speechServices(config: VoiceConfig, mode: AssistantMode): { name: string; url: string }[] {
  const realtime = { name: "the realtime speech model", url: config.realtime.baseUrl };
  const tts = config.streamingTts;
  const speaking = {
    name: "text-to-speech",
    url:
      tts.provider === "elevenlabs" && tts.elevenlabs
        ? tts.elevenlabs.baseUrl
        : tts.provider === "cartesia" && tts.cartesia
          ? tts.cartesia.baseUrl
          : config.tts.baseUrl,
  };
  if (mode === "multimodal") return [realtime];
  if (mode === "dualplex") return [realtime, speaking];
  const hearing = {
    name: "speech-to-text",
    url:
      config.streamingStt === "deepgram"
        ? config.deepgram.url
        : config.streamingStt === "openai-realtime"
          ? config.realtime.baseUrl
          : config.stt.baseUrl,
  };
  return [hearing, speaking];
}

/** Whether something accepts connections at the URL's host and port (any answer will do). */
function accepts(url: string): Promise<boolean> {
  const parsed = new URL(url);
  const secure = parsed.protocol === "https:" || parsed.protocol === "wss:";
  const port = Number(parsed.port) || (secure ? 443 : 80);
  return new Promise((resolve) => {
    const socket = connect({ host: parsed.hostname.replace(/^\[|\]$/g, ""), port });
    const done = (reachable: boolean) => {
      socket.destroy();
      resolve(reachable);
    };
    socket.setTimeout(CONNECT_TIMEOUT_MS, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}

/**
 * The first speech service of the call's path that cannot be reached now, or null when all can:
 * checked before a web call is recorded, so that a call that could not hear or speak is refused with
 * its reason and costs nothing, instead of going live and billing silence.
 */
export async function unreachableSpeech(config: VoiceConfig, mode: AssistantMode): Promise<string | null> {
  const services = speechServices(config, mode);
  const reachable = await Promise.all(services.map((service) => accepts(service.url)));
  return services.find((_service, index) => !reachable[index])?.name ?? null;
}
