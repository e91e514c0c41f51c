import { performance } from "node:perf_hooks";
import WebSocket from "ws";

/**
 * Bare clients of the speech fakes for bench/voice: the same requests the production clients make,
 * with nothing of ours around them (no session, queue, sentence cutting, framing or our client
 * classes), so that what they measure is the fake's own time and the loopback hops: what any client
 * of the provider would pay. Each returns one duration per sample, in ms.
 */

const FRAME_BYTES = 160;

/**
 * Deepgram live (the fake) fed caller turns on one open socket, paced as `pace` says: from sending
 * the frame that completed the utterance (its index told by `completedAt`, read from the fake) to
 * the final result (`speech_final`) arriving.
 */
export async function bareDeepgramFinals(
  url: string,
  query: URLSearchParams,
  turns: number,
  pace: (send: (frame: Uint8Array) => void, answered: () => boolean) => Promise<void>,
  completedAt: () => number,
): Promise<number[]> {
  const socket = new WebSocket(`${url}/listen?${query}`, {
    headers: { authorization: "Token bench" },
    perMessageDeflate: false,
  });
  await new Promise((resolve, reject) => {
    socket.once("open", resolve);
    socket.once("error", reject);
  });
  const sentAt: number[] = [];
  let finalAt: number | null = null;
  socket.on("message", (data) => {
    const message = JSON.parse(String(data)) as { type?: string; speech_final?: boolean };
    if (message.type === "Results" && message.speech_final === true) finalAt = performance.now();
  });
  const times: number[] = [];
  for (let turn = 0; turn < turns; turn++) {
    finalAt = null;
    await pace(
      (frame) => {
        sentAt.push(performance.now());
        socket.send(frame);
      },
      () => finalAt !== null,
    );
    const frame = completedAt() / FRAME_BYTES - 1;
    times.push(finalAt! - sentAt[frame]!);
  }
  socket.close();
  return times;
}

async function timed(count: number, sample: () => Promise<void>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await sample();
    times.push(performance.now() - started);
  }
  return times;
}

/** Cartesia's TTS socket (the fake), open: a context's first input (`continue`) → its first audio chunk. */
export async function bareCartesiaFirstChunks(
  baseUrl: string,
  apiKey: string,
  text: string,
  count: number,
): Promise<number[]> {
  const socket = new WebSocket(`${baseUrl}/tts/websocket?api_key=${apiKey}&cartesia_version=bench`, {
    perMessageDeflate: false,
  });
  await new Promise((resolve) => socket.once("open", resolve));
  let context = 0;
  const times = await timed(count, async () => {
    const id = `bench-${++context}`;
    const chunk = new Promise<void>((resolve) => {
      const listen = (data: WebSocket.RawData) => {
        const message = JSON.parse(String(data)) as { type?: string; context_id?: string };
        if (message.type !== "chunk" || message.context_id !== id) return;
        socket.off("message", listen);
        resolve();
      };
      socket.on("message", listen);
    });
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
    );
    await chunk;
  });
  socket.close();
  return times;
}

/** ElevenLabs' input-streaming socket (the fake), open: a sentence and its flush → its audio message. */
export async function bareElevenLabsFirstAudio(
  baseUrl: string,
  apiKey: string,
  text: string,
  count: number,
): Promise<number[]> {
  const socket = new WebSocket(
    `${baseUrl}/v1/text-to-speech/bench/stream-input?model_id=bench&output_format=pcm_24000`,
    {
      headers: { "xi-api-key": apiKey },
      perMessageDeflate: false,
    },
  );
  await new Promise((resolve) => socket.once("open", resolve));
  socket.send(
    JSON.stringify({ text: " ", voice_settings: { stability: 0.5, similarity_boost: 0.8, speed: 1 } }),
  );
  const times = await timed(count, async () => {
    const audio = new Promise<void>((resolve) => {
      const listen = (data: WebSocket.RawData) => {
        const message = JSON.parse(String(data)) as { audio?: string };
        if (!message.audio) return;
        socket.off("message", listen);
        resolve();
      };
      socket.on("message", listen);
    });
    socket.send(JSON.stringify({ text, try_trigger_generation: true }));
    socket.send(JSON.stringify({ text: " ", flush: true }));
    await audio;
  });
  socket.close();
  return times;
}
