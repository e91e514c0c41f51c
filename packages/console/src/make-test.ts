import { html, nothing } from "lit";
import {
  CreateTestScenarioFromCallMutation,
  CreateTestScenarioFromConversationMutation,
} from "./make-test.operations.ts";
import { navigate } from "./router.ts";
import { Screen } from "./screen.ts";

/**
 * "Make a test from this call/conversation": one button on a call's or a conversation's view that
 * turns its customer's lines into a scripted scenario of its assistant (docs/testing-assistants.md#from-real-traffic)
 * and opens the new scenario, to add checks or criteria.
 */
export class VxMakeTest extends Screen {
  static override properties = {
    callId: { attribute: false },
    conversationId: { attribute: false },
    busy: { state: true },
    error: { state: true },
  };
  declare callId: number | null;
  declare conversationId: string | null;
  declare busy: boolean;
  declare error: string | null;

  constructor() {
    super();
    this.callId = null;
    this.conversationId = null;
    this.busy = false;
    this.error = null;
  }

  private async make(): Promise<void> {
    this.busy = true;
    this.error = null;
    try {
      const scenario =
        this.callId !== null
          ? (await this.api.request(CreateTestScenarioFromCallMutation, { callId: this.callId }))
              .createTestScenarioFromCall
          : (
              await this.api.request(CreateTestScenarioFromConversationMutation, {
                conversationId: this.conversationId ?? "",
              })
            ).createTestScenarioFromConversation;
      navigate("tests", scenario.assistantId, "scenario", String(scenario.id));
    } catch (error) {
      this.error = error instanceof Error ? error.message : String(error);
    } finally {
      this.busy = false;
    }
  }

  override render() {
    return html`<button type="button" ?disabled=${this.busy} @click=${this.make}>
        Make a test from this ${this.callId !== null ? "call" : "conversation"}</button>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}`;
  }
}
