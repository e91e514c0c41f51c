import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readWav } from "../../src/modules/media/index.ts";

/**
 * A stand-in for OpenAI's speech endpoints, as documented: `POST /v1/audio/speech` (JSON with
 * model, input, voice, response_format pcm: 24 kHz 16-bit mono PCM, streamed in chunks) and
 * `POST /v1/audio/transcriptions` (multipart with model and file, answering {"text"}). What it
 * synthesises is "tone speech": each character a 50 ms tone of its own pitch, which survives
 * mu-law and resampling, so its transcription reads the text back from any WAV it is sent.
 */

const ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789 .,?!'";
const SEGMENT_SECONDS = 0.05;
const BASE_HZ = 300;
const STEP_HZ = 60;
const AMPLITUDE = 8000;

/** The text as tone speech can carry it. */
export function toneText(text: string): string {
  return [...text.toLowerCase()].filter((char) => ALPHABET.includes(char)).join("");
}

/** Tone speech of `text` at `sampleRate`. */
export function synthesizeTones(text: string, sampleRate: number): Int16Array {
  const chars = [...toneText(text)];
  const perChar = Math.round(sampleRate * SEGMENT_SECONDS);
  const out = new Int16Array(chars.length * perChar);
  chars.forEach((char, index) => {
    const frequency = BASE_HZ + ALPHABET.indexOf(char) * STEP_HZ;
    for (let i = 0; i < perChar; i++) {
      out[index * perChar + i] = Math.round(AMPLITUDE * Math.sin((2 * Math.PI * frequency * i) / sampleRate));
    }
  });
  return out;
}

/** Reads tone speech back: from the first loud sample, one character per 50 ms until silence. */
export function decodeTones(pcm: Int16Array, sampleRate: number): string {
  const perChar = Math.round(sampleRate * SEGMENT_SECONDS);
  let start = pcm.findIndex((sample) => Math.abs(sample) > AMPLITUDE / 4);
  if (start < 0) return "";
  // The onset is found a little after the tone starts (a sine begins at zero).
  start = Math.max(0, start - 2);
  let text = "";
  for (let offset = start; offset + perChar <= pcm.length; offset += perChar) {
    const from = offset + Math.floor(perChar * 0.15);
    const to = offset + Math.floor(perChar * 0.85);
    const crossings: number[] = [];
    let peak = 0;
    for (let i = from + 1; i < to; i++) {
      peak = Math.max(peak, Math.abs(pcm[i]!));
      if (pcm[i - 1]! < 0 !== pcm[i]! < 0) crossings.push(i);
    }
    if (peak < AMPLITUDE / 4 || crossings.length < 2) break;
    const seconds = (crossings.at(-1)! - crossings[0]!) / sampleRate;
    const frequency = (crossings.length - 1) / (2 * seconds);
    const index = Math.round((frequency - BASE_HZ) / STEP_HZ);
    text += ALPHABET[Math.min(ALPHABET.length - 1, Math.max(0, index))];
  }
  return text;
}

/** The loud stretches of a track (apart by at least 100 ms of silence), each read as tone speech. */
export function spokenParts(pcm: Int16Array, sampleRate = 8000): string[] {
  const parts: string[] = [];
  const gap = sampleRate / 10;
  let start = -1;
  let quiet = 0;
  for (let i = 0; i <= pcm.length; i++) {
    const loud = i < pcm.length && Math.abs(pcm[i]!) > 1000;
    if (loud) {
      if (start < 0) start = i;
      quiet = 0;
    } else if (start >= 0 && ++quiet > gap) {
      parts.push(decodeTones(pcm.subarray(start, i), sampleRate));
      start = -1;
    }
  }
  if (start >= 0) parts.push(decodeTones(pcm.subarray(start), sampleRate));
  return parts;
}

/**
 * The strongest tone above 4 kHz (the phone band's edge) in 20 ms windows of `pcm`, as a sample
 * amplitude: Goertzel filters every 100 Hz from 4.1 kHz to below Nyquist. 0 at 8 kHz, which cannot
 * carry anything above 4 kHz.
 */
export function loudestAbove4kHz(pcm: Int16Array, sampleRate: number): number {
  const window = sampleRate / 50;
  let loudest = 0;
  for (let hz = 4100; hz < sampleRate / 2 - 50; hz += 100) {
    const coefficient = 2 * Math.cos((2 * Math.PI * hz) / sampleRate);
    for (let start = 0; start + window <= pcm.length; start += window) {
      let previous = 0;
      let before = 0;
      for (let i = start; i < start + window; i++) {
        const current = pcm[i]! + coefficient * previous - before;
        before = previous;
        previous = current;
      }
      const power = previous * previous + before * before - coefficient * previous * before;
      loudest = Math.max(loudest, (2 * Math.sqrt(power)) / window);
    }
  }
  return loudest;
}

export interface FakeSpeech {
  /** Base URL to give as OPENAI_STT_BASE_URL / OPENAI_TTS_BASE_URL, ending in /v1. */
  baseUrl: string;
  /** What each transcription request was heard as, in order. */
  transcriptions: string[];
  /** The audio each transcription request carried: its WAV's rate and its loudest tone above 4 kHz. */
  transcribed: { sampleRate: number; loudestAbove4kHz: number }[];
  /** Each speech request's body, in order. */
  syntheses: { model: string; input: string; voice: string; response_format: string }[];
  /** Latency added before each answer, in ms (bench). */
  setLatency(ms: number): void;
  close(): Promise<void>;
}

export async function startFakeSpeech(): Promise<FakeSpeech> {
  const transcriptions: string[] = [];
  const transcribed: FakeSpeech["transcribed"] = [];
  const syntheses: FakeSpeech["syntheses"] = [];
  let latencyMs = 0;
  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500).end(String(error));
      else response.end();
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
    const path = (request.url ?? "").split("?")[0];
    if (request.method === "POST" && path === "/v1/audio/speech") {
      const input = JSON.parse(body.toString("utf8")) as FakeSpeech["syntheses"][number];
      syntheses.push(input);
      if (input.response_format !== "pcm") return void response.writeHead(400).end("pcm only");
      const pcm = synthesizeTones(input.input, 24_000);
      const bytes = Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength);
      response.writeHead(200, { "content-type": "audio/pcm" });
      // Chunks of odd sizes, as a streaming server cuts them.
      for (let offset = 0; offset < bytes.length; offset += 4801)
        response.write(bytes.subarray(offset, offset + 4801));
      response.end();
      return;
    }
    if (request.method === "POST" && path === "/v1/audio/transcriptions") {
      const form = await new Response(body, {
        headers: { "content-type": request.headers["content-type"] ?? "" },
      }).formData();
      const file = form.get("file");
      const wav = file instanceof Blob ? readWav(new Uint8Array(await file.arrayBuffer())) : null;
      if (!wav || !form.get("model"))
        return void response.writeHead(400).end("model and a WAV file are required");
      const text = decodeTones(wav.pcm, wav.sampleRate);
      transcriptions.push(text);
      transcribed.push({
        sampleRate: wav.sampleRate,
        loudestAbove4kHz: loudestAbove4kHz(wav.pcm, wav.sampleRate),
      });
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ text }));
      return;
    }
    response.writeHead(404).end();
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    transcriptions,
    transcribed,
    syntheses,
    setLatency: (ms) => {
      latencyMs = ms;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
