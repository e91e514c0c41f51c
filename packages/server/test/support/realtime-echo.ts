/**
 * A realtime model that answers at once, for bench/voice: an OpenAI Realtime (GA) WebSocket server
 * whose response audio is the caller's own frames, sent back as `response.output_audio.delta` the
 * moment each `input_audio_buffer.append` arrives. Run as a child process (so that its work is not
 * counted in the measured event loop), it prints its port on stdout. `bareRoundTrip` is the
 * baseline: the same round trip from a plain WebSocket client.
 */
import { fileURLToPath } from "node:url";
import WebSocket, { WebSocketServer } from "ws";

/** A plain client of the echo server: one append, timed until its audio comes back, in ms each. */
export async function bareRoundTrips(port: number, frame: Uint8Array, count: number): Promise<number[]> {
  const socket = new WebSocket(`ws://127.0.0.1:${port}/v1/realtime?model=bench`);
  await new Promise((resolve) => socket.once("open", resolve));
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const answered = new Promise<void>((resolve) => {
      const listen = (data: WebSocket.RawData) => {
        if (!String(data).includes("output_audio.delta")) return;
        socket.off("message", listen);
        resolve();
      };
      socket.on("message", listen);
    });
    socket.send(
      JSON.stringify({ type: "input_audio_buffer.append", audio: Buffer.from(frame).toString("base64") }),
    );
    await answered;
    times.push(performance.now() - started);
  }
  socket.close();
  return times;
}

/** The server's file, to fork. */
export const REALTIME_ECHO_SCRIPT = fileURLToPath(import.meta.url);

function serve() {
  const server = new WebSocketServer({ port: 0, host: "127.0.0.1" });
  server.on("connection", (socket) => {
    let item = 0;
    socket.send(JSON.stringify({ type: "session.created", session: { type: "realtime" } }));
    socket.on("message", (data) => {
      const event = JSON.parse(data.toString()) as { type: string; audio?: string };
      if (event.type !== "input_audio_buffer.append") return;
      if (item === 0) {
        item = 1;
        socket.send(
          JSON.stringify({ type: "response.created", response: { id: "resp_1", status: "in_progress" } }),
        );
        socket.send(
          JSON.stringify({ type: "response.output_item.added", item: { id: "item_1", type: "message" } }),
        );
      }
      socket.send(
        JSON.stringify({
          type: "response.output_audio.delta",
          response_id: "resp_1",
          item_id: "item_1",
          delta: event.audio,
        }),
      );
    });
  });
  server.on("listening", () => {
    const address = server.address();
    process.stdout.write(`${typeof address === "object" && address ? address.port : 0}\n`);
  });
}

if (process.argv[1] === REALTIME_ECHO_SCRIPT) serve();
