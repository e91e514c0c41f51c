import { html } from "lit";
import { Screen } from "../screen.ts";

/** Platform administration; the server decides who may use it. */
export class VxAdmin extends Screen {
  override render() {
    return html`<h1>Administration</h1><p role="status">Loading…</p>`;
  }
}
