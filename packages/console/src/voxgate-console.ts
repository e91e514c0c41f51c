import { VxUnreadBadge } from "./unread-badge.ts";
import { VoxgateConsole } from "./voxgate-console.component.ts";

// Registration apart from the components: a page that already defined a name keeps its own. The
// screens define theirs as their chunks arrive (screen-chunks.ts).
const elements: [string, CustomElementConstructor][] = [
  ["voxgate-console", VoxgateConsole],
  ["vx-unread-badge", VxUnreadBadge],
];
for (const [name, element] of elements) if (!customElements.get(name)) customElements.define(name, element);

export { VoxgateConsole };

declare global {
  interface HTMLElementTagNameMap {
    "voxgate-console": VoxgateConsole;
  }
}
