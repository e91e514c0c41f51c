import { inject } from "vitest";
import "../../src/voxgate-chat.ts";
import type { VoxgateChat } from "../../src/voxgate-chat.component.ts";
import type { AssistantSetup, CallRecord, CreatedAssistant, SpeechRecord } from "./control-server.ts";

export type { CreatedAssistant };

async function control<T>(path: string, body: object): Promise<T> {
  const response = await fetch(`${inject("controlUrl")}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`control ${path} failed: ${await response.text()}`);
  return (await response.json()) as T;
}

/** A fresh account and assistant on a real server, so tests never share conversations or balances. */
export function createAssistant(setup: AssistantSetup = {}): Promise<CreatedAssistant> {
  return control<CreatedAssistant>("/assistants", setup);
}

export function setBalance(assistant: CreatedAssistant, balance: string, server: "main" | "strict" = "main") {
  return control("/balance", { accountId: assistant.accountId, balance, server });
}

export function deleteConversation(id: string, server: "main" | "strict" = "main") {
  return control<{ deleted: number }>("/conversations/delete", { id, server });
}

export function readCall(id: number) {
  return control<CallRecord>("/calls/get", { id });
}

/** Limits the main server to `live` calls at once (null: its configured capacity). */
export function setCapacity(live: number | null) {
  return control("/capacity", { live });
}

/** Cuts (false) or restores (true) the connection behind `inject("flakyApiBase")`. */
export function setNetwork(up: boolean) {
  return control("/network", { up });
}

/** Puts `<voxgate-chat>` on the page with these attributes. */
export function mountWidget(attributes: Record<string, string>): VoxgateChat {
  const element = document.createElement("voxgate-chat");
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  document.body.append(element);
  return element;
}

export function part(element: VoxgateChat, name: string): HTMLElement | null {
  return element.shadowRoot!.querySelector<HTMLElement>(`[part~="${name}"]`);
}

export function parts(element: VoxgateChat, name: string): HTMLElement[] {
  return [...element.shadowRoot!.querySelectorAll<HTMLElement>(`[part~="${name}"]`)];
}

/** Resolves with the next event of that name on `target`. */
export function nextEvent<T extends Event>(target: EventTarget, name: string): Promise<T> {
  return new Promise((resolve) =>
    target.addEventListener(name, (event) => resolve(event as T), { once: true }),
  );
}

/** Collects every event of these names that reaches `document`. */
export function recordEvents(...names: string[]): CustomEvent[] {
  const seen: CustomEvent[] = [];
  for (const name of names) document.addEventListener(name, (event) => seen.push(event as CustomEvent));
  return seen;
}

export function storedConversationId(element: VoxgateChat): string | null {
  const key = `voxgate-chat:${element.getAttribute("api-base")}:${element.getAttribute("assistant")}`;
  const raw = localStorage.getItem(key);
  return raw ? (JSON.parse(raw) as { conversationId: string | null }).conversationId : null;
}

export function removeWidgets(): void {
  for (const element of document.querySelectorAll("voxgate-chat")) element.remove();
  localStorage.clear();
}

/** Scripts the streaming speech-to-text fake's next transcripts (it cannot read real speech). */
export function scriptTranscripts(...transcripts: string[]) {
  return control("/speech/script", { transcripts });
}

/** What the streaming speech fakes heard and said. */
export function readSpeech() {
  return control<SpeechRecord>("/speech/heard", {});
}
