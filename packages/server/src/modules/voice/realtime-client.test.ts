import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type WebSocket, WebSocketServer } from "ws";
import { createLogger } from "../../logger.ts";
import { RealtimeClient, type RealtimeEvent, type RealtimeSessionOptions } from "./realtime-client.ts";

/**
 * The beta dialect (what many self-hosted Realtime servers speak) against a bare WebSocket server:
 * the GA dialect is exercised end to end by realtime.test.ts.
 */

let server: WebSocketServer;
let baseUrl: string;
const upgrades: { url: string; headers: Record<string, unknown>; socket: WebSocket; events: unknown[] }[] =
  [];

const options: RealtimeSessionOptions = {
  instructions: "Be brief.",
  tools: [],
  output: "text",
  voice: "verse",
  speed: 1,
  temperature: 0.2,
  audioFormat: "g711_ulaw",
  appendMs: 20,
  transcribeModel: "whisper-1",
  language: "fr",
  turnDetection: { type: "semantic_vad", eagerness: "high" },
  createResponse: true,
};

beforeAll(async () => {
  server = new WebSocketServer({ port: 0, host: "127.0.0.1" });
  await new Promise((resolve) => server.once("listening", resolve));
  server.on("connection", (socket, request) => {
    const entry = { url: request.url ?? "", headers: request.headers, socket, events: [] as unknown[] };
    upgrades.push(entry);
    socket.on("message", (data) => entry.events.push(JSON.parse(data.toString())));
  });
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("the realtime client's beta dialect", () => {
  it("dials ws with the model, key and beta header, sends beta session shapes, and reads beta event names", async () => {
    const client = new RealtimeClient(
      { baseUrl: baseUrl.replace(/^http/, "ws"), apiKey: "sk-local", model: "local model", dialect: "beta" },
      5,
      createLogger("silent"),
    );
    const connection = await client.connect(1);
    const received: RealtimeEvent[] = [];
    connection.onEvent((event) => received.push(event));
    connection.configure(options);
    connection.assistantMessage("Hello.");
    connection.appendAudio(Uint8Array.from([0xff, 0x7f]));
    const [upgrade] = upgrades;
    expect(upgrade?.url).toBe("/v1/realtime?model=local%20model");
    expect(upgrade?.headers).toMatchObject({
      authorization: "Bearer sk-local",
      "openai-beta": "realtime=v1",
    });
    upgrade!.socket.send(JSON.stringify({ type: "response.audio.delta", delta: "AA==" }));
    upgrade!.socket.send(JSON.stringify({ type: "response.text.delta", delta: "Hi" }));
    await new Promise<void>((resolve) => {
      const check = () =>
        received.length >= 2 && upgrade!.events.length >= 3 ? resolve() : setTimeout(check, 5);
      check();
    });
    expect(upgrade!.events).toEqual([
      {
        type: "session.update",
        session: {
          modalities: ["text"],
          instructions: "Be brief.",
          voice: "verse",
          speed: 1,
          temperature: 0.6,
          input_audio_format: "g711_ulaw",
          output_audio_format: "g711_ulaw",
          input_audio_transcription: { model: "whisper-1", language: "fr" },
          turn_detection: {
            type: "semantic_vad",
            eagerness: "high",
            create_response: true,
            interrupt_response: false,
          },
          tools: [],
          tool_choice: "auto",
        },
      },
      {
        type: "conversation.item.create",
        item: { type: "message", role: "assistant", content: [{ type: "text", text: "Hello." }] },
      },
      { type: "input_audio_buffer.append", audio: Buffer.from([0xff, 0x7f]).toString("base64") },
    ]);
    expect(received.map((event) => event.type)).toEqual([
      "response.output_audio.delta",
      "response.output_text.delta",
    ]);
    connection.close();
  });

  it("refuses a server that does not upgrade, as an upstream failure", async () => {
    const client = new RealtimeClient(
      { baseUrl: "ws://127.0.0.1:9/v1", apiKey: undefined, model: "m", dialect: "ga" },
      5,
      createLogger("silent"),
    );
    await expect(client.connect(2)).rejects.toMatchObject({ code: "UPSTREAM_FAILED" });
  });
});
