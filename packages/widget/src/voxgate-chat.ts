import { VoxgateChat } from "./voxgate-chat.component.ts";

export { VoxgateChat };

// A page may load the widget twice (two embeds, or the npm build beside the script tag): the first
// definition wins and later ones are no-ops instead of throwing.
if (!customElements.get("voxgate-chat")) customElements.define("voxgate-chat", VoxgateChat);

declare global {
  interface HTMLElementTagNameMap {
    "voxgate-chat": VoxgateChat;
  }
}
