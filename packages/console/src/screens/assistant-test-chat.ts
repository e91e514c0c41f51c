import { html, nothing, type ReactiveControllerHost } from "lit";
import type { ConsoleApi } from "../api/client.ts";
import { SendTestMessageMutation, StartTestConversationMutation } from "./assistant-editor.operations.ts";

type Chat = {
  conversationId: string | null;
  lines: { role: string; content: string }[];
  error: string | null;
};

/** A free test conversation with the saved assistant, started on the first message. */
export class TestChat {
  #chat: Chat = { conversationId: null, lines: [], error: null };

  constructor(
    private readonly host: ReactiveControllerHost & { readonly api: ConsoleApi; assistantId: number | null },
  ) {}

  #set(chat: Chat): void {
    this.#chat = chat;
    this.host.requestUpdate();
  }

  private async send(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const message = String(new FormData(form).get("message") ?? "").trim();
    const assistantId = this.host.assistantId;
    if (!message || assistantId === null) return;
    form.reset();
    this.#set({
      ...this.#chat,
      lines: [...this.#chat.lines, { role: "user", content: message }],
      error: null,
    });
    try {
      let conversationId = this.#chat.conversationId;
      if (!conversationId) {
        conversationId = (await this.host.api.request(StartTestConversationMutation, { assistantId }))
          .startTestConversation.id;
      }
      const { sendTestMessage } = await this.host.api.request(SendTestMessageMutation, {
        conversationId,
        message,
      });
      this.#set({
        conversationId,
        lines: [...this.#chat.lines, { role: "assistant", content: sendTestMessage.reply }],
        error: null,
      });
    } catch (error) {
      this.#set({ ...this.#chat, error: (error as Error).message });
    }
  }

  render() {
    return html`<h2>Try it</h2>
      <p class="hint">Test conversations are free and are not charged.</p>
      <div class="chat" role="log" aria-live="polite" aria-label="Test conversation">
        ${this.#chat.lines.map((line) => html`<p class="line ${line.role}"><strong>${line.role === "user" ? "You" : "Assistant"}:</strong> ${line.content}</p>`)}
      </div>
      ${this.#chat.error ? html`<p class="error" role="alert">${this.#chat.error}</p>` : nothing}
      <form class="row" @submit=${(event: SubmitEvent) => this.send(event)}>
        <label class="sr-only" for="try">Test message</label>
        <input id="try" name="message" autocomplete="off" placeholder="Write as a customer" style="flex:1" />
        <button type="submit">Send</button>
      </form>`;
  }
}
