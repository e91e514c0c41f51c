import { css, html, LitElement } from "lit";

/**
 * The smallest Lit element that shows a launcher bubble: what any Lit widget costs before it does
 * anything of its own. The bench builds and times it beside the real widget.
 */
class BaselineBubble extends LitElement {
  static override styles = css`
    button {
      position: fixed;
      right: 20px;
      bottom: 20px;
      width: 56px;
      height: 56px;
      border: none;
      border-radius: 50%;
      background: #4f46e5;
    }
  `;

  override render() {
    return html`<button part="launcher" aria-label="Open chat"></button>`;
  }
}

customElements.define("baseline-bubble", BaselineBubble);
