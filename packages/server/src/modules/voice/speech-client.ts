import type { Config } from "../../env.ts";
import { UpstreamFailedError } from "../../errors.ts";
import type { SpeechFormat, Synthesizer, Transcriber } from "./speech.ts";

type VoiceConfig = Config["voice"];

/** `/v1/audio/speech` with response_format pcm: 16-bit little-endian mono at 24 kHz. */
const TTS_FORMAT: SpeechFormat = { encoding: "pcm16", sampleRate: 24_000 };

/**
 * Speech-to-text through an OpenAI-compatible `/audio/transcriptions` endpoint, with its own base
 * URL and key (a self-hosted speech server next to a hosted model, or the other way round).
 */
export class OpenAiTranscriber implements Transcriber {
  constructor(private readonly config: VoiceConfig) {}

  async transcribe(wav: Buffer, options: { language?: string | null; signal: AbortSignal }): Promise<string> {
    const form = new FormData();
    form.set("model", this.config.transcribeModel);
    form.set("response_format", "json");
    if (options.language) form.set("language", options.language);
    form.set("file", new Blob([new Uint8Array(wav)], { type: "audio/wav" }), "turn.wav");
    const { baseUrl, apiKey } = this.config.stt;
    const response = await post(this.config, `${baseUrl}/audio/transcriptions`, apiKey, form, options.signal);
    const body = (await response.json().catch(() => null)) as { text?: unknown } | null;
    if (typeof body?.text !== "string") throw new UpstreamFailedError("speech-to-text returned no text.");
    return body.text.trim();
  }
}

/** Text-to-speech through an OpenAI-compatible `/audio/speech` endpoint, with its own base URL and key. */
export class OpenAiSynthesizer implements Synthesizer {
  readonly outputFormat = TTS_FORMAT;

  constructor(private readonly config: VoiceConfig) {}

  /** The assistant's voice for `text`, as 24 kHz PCM chunks while the server produces them. */
  async synthesize(
    text: string,
    options: { voice: string; speed: number; signal: AbortSignal },
  ): Promise<AsyncIterable<Uint8Array>> {
    const { baseUrl, apiKey } = this.config.tts;
    const response = await post(
      this.config,
      `${baseUrl}/audio/speech`,
      apiKey,
      JSON.stringify({
        model: this.config.ttsModel,
        input: text,
        voice: options.voice,
        response_format: "pcm",
        speed: options.speed,
      }),
      options.signal,
      { "content-type": "application/json" },
    );
    if (!response.body) throw new UpstreamFailedError("text-to-speech returned no audio.");
    return response.body as unknown as AsyncIterable<Uint8Array>;
  }
}

async function post(
  config: VoiceConfig,
  url: string,
  apiKey: string | undefined,
  body: FormData | string,
  signal: AbortSignal,
  headers: Record<string, string> = {},
): Promise<Response> {
  const timeout = AbortSignal.timeout(config.timeoutSeconds * 1000);
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { ...headers, ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
      body,
      signal: AbortSignal.any([signal, timeout]),
    });
  } catch (error) {
    if (signal.aborted) throw error;
    throw new UpstreamFailedError(
      timeout.aborted
        ? "the speech service did not answer in time."
        : "the speech service could not be reached.",
    );
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new UpstreamFailedError(`the speech service answered HTTP ${response.status}.`);
  }
  return response;
}
