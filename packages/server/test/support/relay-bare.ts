/**
 * The bare relay of bench/voice's relay jitter, as its own process (forked by bench/voice/run.ts in place
 * of `relay-engine.ts`): the same topology with nothing of ours, the baseline the engine is read
 * against. It accepts the carrier's Media Streams sockets, opens one WebSocket per call to the echoing
 * model, appends the caller's audio in appends of `appendMs` (decoded and re-encoded, as any relay
 * batching frames must) and sends each delta back as one `media` message, its base64 untouched. No
 * token check, no session, no voice detection, no marks: what the sockets, the JSON and base64 and the
 * two hops cost.
 *
 * IPC from run.ts: see `relay-probe.ts` (the tokens are placeholders).
 */
import WebSocket, { WebSocketServer } from "ws";
import { serveRelayProbe } from "./relay-probe.ts";

const [echoPort, appendMs] = process.argv.slice(2).map(Number);

const server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
server.on("connection", (carrier) => {
  let model: WebSocket | null = null;
  let prefix = "";
  const batch = Buffer.alloc((appendMs! / 20) * 160);
  let batched = 0;
  carrier.on("message", (data) => {
    const message = JSON.parse(data.toString()) as {
      event: string;
      streamSid?: string;
      media?: { payload: string };
    };
    if (message.event === "start") {
      prefix = `{"event":"media","streamSid":${JSON.stringify(message.streamSid)},"media":{"payload":"`;
      model = new WebSocket(`ws://127.0.0.1:${echoPort}/v1/realtime?model=bench`, {
        perMessageDeflate: false,
      });
      model.on("message", (reply) => {
        const event = JSON.parse(reply.toString()) as { type: string; delta?: string };
        if (event.type === "response.output_audio.delta") carrier.send(`${prefix}${event.delta}"}}`);
      });
      carrier.on("close", () => model?.close());
    } else if (message.event === "media" && model?.readyState === WebSocket.OPEN) {
      batched += batch.write(message.media!.payload, batched, "base64");
      if (batched < batch.length) return;
      batched = 0;
      model.send(`{"type":"input_audio_buffer.append","audio":"${batch.toString("base64")}"}`);
    }
  });
});

serveRelayProbe(server, async (call) => `bare-${call}`);
