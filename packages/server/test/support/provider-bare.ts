import { performance } from "node:perf_hooks";
import WebSocket from "ws";

/**
 * Bare clients of the speech fakes for bench/voice: the same requests the production clients make,
 * with nothing of ours around them (no session, queue, sentence cutting, framing or our client
 * classes), so that what they measure is the fake's own time and the loopback hops: what any client
 * of the provider would pay. Each `sample` gives one duration in ms; the bench takes one after each
 * of the engine's turns, so that both see the machine's load of the same moment.
 */

const FRAME_BYTES = 160;

async function open(url: string, headers: Record<string, string> = {}): Promise<WebSocket> {
  const socket = new WebSocket(url, { headers, perMessageDeflate: false });
  await new Promise((resolve, reject) => {
    socket.once("open", resolve);
    socket.once("error", reject);
  });
  return socket;
}

/** The first message that `matches`, after `send` ran. */
function answer(socket: WebSocket, matches: (message: Record<string, unknown>) => boolean, send: () => void) {
  return new Promise<number>((resolve) => {
    const listen = (data: WebSocket.RawData) => {
      if (!matches(JSON.parse(String(data)) as Record<string, unknown>)) return;
      socket.off("message", listen);
      resolve(performance.now());
    };
    socket.on("message", listen);
    send();
  });
}

export interface BareClient<Sample> {
  sample: Sample;
  close(): void;
}

/**
 * Deepgram live (the fake), one open socket: a caller turn sent as `pace` says, timed from sending
 * the frame that completed the utterance (`completedAt()`: the bytes the fake had when it ended it)
 * to the final result (`speech_final`) arriving.
 */
export async function bareDeepgram(
  url: string,
  query: URLSearchParams,
): Promise<
  BareClient<
    (
      pace: (send: (frame: Uint8Array) => void, answered: () => boolean) => Promise<void>,
      completedAt: () => number,
    ) => Promise<number>
  >
> {
  const socket = await open(`${url}/listen?${query}`, { authorization: "Token bench" });
  const sentAt: number[] = [];
  let finalAt: number | null = null;
  socket.on("message", (data) => {
    const message = JSON.parse(String(data)) as { type?: string; speech_final?: boolean };
    if (message.type === "Results" && message.speech_final === true) finalAt = performance.now();
  });
  return {
    sample: async (pace, completedAt) => {
      finalAt = null;
      await pace(
        (frame) => {
          sentAt.push(performance.now());
          socket.send(frame);
        },
        () => finalAt !== null,
      );
      return finalAt! - sentAt[completedAt() / FRAME_BYTES - 1]!;
    },
    close: () => socket.close(),
  };
}

/** Cartesia's TTS socket (the fake), open: a context's first input (`continue`) → its first audio chunk. */
export async function bareCartesia(
  baseUrl: string,
  apiKey: string,
  text: string,
): Promise<BareClient<() => Promise<number>>> {
  const socket = await open(`${baseUrl}/tts/websocket?api_key=${apiKey}&cartesia_version=bench`);
  let context = 0;
  return {
    sample: async () => {
      const id = `bench-${++context}`;
      const started = performance.now();
      const at = await answer(
        socket,
        (message) => message.type === "chunk" && message.context_id === id,
        () =>
          socket.send(
            JSON.stringify({
              model_id: "bench",
              transcript: text,
              voice: { mode: "id", id: "bench" },
              output_format: { container: "raw", encoding: "pcm_s16le", sample_rate: 24_000 },
              context_id: id,
              continue: true,
              add_timestamps: true,
            }),
          ),
      );
      return at - started;
    },
    close: () => socket.close(),
  };
}

/**
 * ElevenLabs' multi-context socket (the fake), open: a context opened with its sentence and flush → its
 * audio message.
 */
export async function bareElevenLabs(
  baseUrl: string,
  apiKey: string,
  text: string,
): Promise<BareClient<() => Promise<number>>> {
  const socket = await open(
    `${baseUrl}/v1/text-to-speech/bench/multi-stream-input?model_id=bench&output_format=pcm_24000`,
    { "xi-api-key": apiKey },
  );
  let context = 0;
  return {
    sample: async () => {
      const id = `bench-${++context}`;
      const started = performance.now();
      const at = await answer(
        socket,
        (message) => typeof message.audio === "string" && message.contextId === id,
        () => {
          socket.send(
            JSON.stringify({
              text: " ",
              context_id: id,
              voice_settings: { stability: 0.5, similarity_boost: 0.8, speed: 1 },
            }),
          );
          socket.send(JSON.stringify({ text, context_id: id }));
          socket.send(JSON.stringify({ text: "", context_id: id, flush: true }));
        },
      );
      socket.send(JSON.stringify({ context_id: id, close_context: true }));
      return at - started;
    },
    close: () => socket.close(),
  };
}
