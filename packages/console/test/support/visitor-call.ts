import { inject } from "vitest";
import { graphql } from "./console.ts";

/** Tone speech as the fake speech-to-text server reads it back: each character a 50 ms tone of its own pitch. */
function toneSpeech(text: string, sampleRate: number): Int16Array {
  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789 .,?!'";
  const perChar = Math.round(sampleRate * 0.05);
  const out = new Int16Array(text.length * perChar);
  [...text].forEach((char, index) => {
    const frequency = 300 + alphabet.indexOf(char) * 60;
    for (let i = 0; i < perChar; i++) {
      out[index * perChar + i] = Math.round(8000 * Math.sin((2 * Math.PI * frequency * i) / sampleRate));
    }
  });
  return out;
}

/**
 * A visitor's web call from this page, by the widget's protocol: 20 ms PCM16 frames in real time
 * (silence, or the words queued by `say`), each mark acknowledged as played.
 */
export async function visitorCall(assistantUuid: string) {
  const { startWidgetWebCall: started } = await graphql<{
    startWidgetWebCall: { callId: number; token: string; socketPath: string; sampleRate: number };
  }>(
    `mutation { startWidgetWebCall(input: { assistantUuid: "${assistantUuid}" }) { callId token socketPath sampleRate } }`,
  );
  const socket = new WebSocket(
    `${inject("apiBase").replace(/^http/, "ws")}${started.socketPath}?token=${encodeURIComponent(started.token)}`,
  );
  socket.binaryType = "arraybuffer";
  socket.addEventListener("message", (event) => {
    if (typeof event.data !== "string") return;
    const message = JSON.parse(event.data) as { type: string; name?: string };
    if (message.type === "mark") socket.send(JSON.stringify({ type: "played", name: message.name }));
  });
  await new Promise((resolve) => socket.addEventListener("open", resolve, { once: true }));
  const frame = started.sampleRate / 50;
  let queued: Int16Array = new Int16Array(0);
  const timer = setInterval(() => {
    const out = new Int16Array(frame);
    out.set(queued.subarray(0, frame));
    queued = queued.subarray(Math.min(frame, queued.length));
    if (socket.readyState === WebSocket.OPEN) socket.send(out.buffer);
  }, 20);
  return {
    callId: started.callId,
    say: (text: string) => {
      queued = toneSpeech(text, started.sampleRate);
    },
    hangUp: () => {
      clearInterval(timer);
      socket.close(1000);
    },
  };
}
