import { html, nothing } from "lit";
import { Screen } from "./screen.ts";

/**
 * A secret the server returns once (an API key's token, a webhook signing secret): shown with a
 * Copy button until the person says they are done, then gone from the page for good.
 */
export class VxShownOnce extends Screen {
  static override properties = {
    value: { attribute: false },
    heading: { attribute: false },
    detail: { attribute: false },
    copied: { state: true },
  };
  declare value: string | null;
  declare heading: string;
  declare detail: string | null;
  declare copied: boolean;

  constructor() {
    super();
    this.value = null;
    this.heading = "";
    this.detail = null;
    this.copied = false;
  }

  override willUpdate(changed: Map<string, unknown>): void {
    if (changed.has("value")) this.copied = false;
  }

  private async copy(): Promise<void> {
    if (!this.value) return;
    await navigator.clipboard.writeText(this.value);
    this.copied = true;
  }

  override render() {
    if (!this.value) return nothing;
    return html`<div class="card" role="status">
      <p><strong>${this.heading}</strong></p>
      ${this.detail ? html`<p class="hint">${this.detail}</p>` : nothing}
      <p class="row"><code data-testid="shown-once" style="overflow-wrap: anywhere">${this.value}</code>
        <button type="button" @click=${this.copy}>${this.copied ? "Copied" : "Copy"}</button>
        <button type="button" @click=${() => {
          this.value = null;
          this.dispatchEvent(new CustomEvent("vx-dismiss"));
        }}>Done</button></p>
    </div>`;
  }
}
