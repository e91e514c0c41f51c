import { css } from "lit";

/**
 * Public knobs are `--voxgate-*` custom properties (set them on `voxgate-chat` or any ancestor);
 * `--_*` are private and resolve public value → assistant setting → theme default.
 */
export const voxgateChatStyles = css`
  :host {
    --_font: var(--voxgate-font-family, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif);
    --_radius: var(--voxgate-radius, 16px);
    --_offset: var(--voxgate-offset, 20px);
    --_panel-width: var(--voxgate-panel-width, 380px);
    --_panel-height: var(--voxgate-panel-height, 560px);
    --_danger: var(--voxgate-danger-color, #b91c1c);
    font-family: var(--_font);
    font-size: var(--voxgate-font-size, 15px);
    line-height: 1.45;
  }

  :host([hidden]) {
    display: none;
  }

  /* Declared where the assistant's colour is set (inline on .root), so that var() can see it. */
  .root {
    --_accent: var(--voxgate-accent-color, var(--_accent-setting, #4f46e5));
    --_on-accent: var(--voxgate-accent-text-color, var(--_on-accent-setting, #ffffff));
    --_background: var(--voxgate-background, #ffffff);
    --_surface: var(--voxgate-surface, #f3f4f6);
    --_text: var(--voxgate-text-color, #111827);
    --_muted: var(--voxgate-muted-color, #4b5563);
    --_border: var(--voxgate-border-color, #e5e7eb);
    position: fixed;
    bottom: var(--_offset);
    z-index: var(--voxgate-z-index, 2147483000);
    display: flex;
    flex-direction: column;
    gap: 12px;
    color: var(--_text);
  }

  .root.dark {
    --_background: var(--voxgate-background, #111827);
    --_surface: var(--voxgate-surface, #1f2937);
    --_text: var(--voxgate-text-color, #f9fafb);
    --_muted: var(--voxgate-muted-color, #d1d5db);
    --_border: var(--voxgate-border-color, #374151);
    --_danger: var(--voxgate-danger-color, #fca5a5);
  }

  @media (prefers-color-scheme: dark) {
    .root.auto {
      --_background: var(--voxgate-background, #111827);
      --_surface: var(--voxgate-surface, #1f2937);
      --_text: var(--voxgate-text-color, #f9fafb);
      --_muted: var(--voxgate-muted-color, #d1d5db);
      --_border: var(--voxgate-border-color, #374151);
      --_danger: var(--voxgate-danger-color, #fca5a5);
    }
  }

  .root.bottom-right {
    right: var(--_offset);
    align-items: flex-end;
  }

  .root.bottom-left {
    left: var(--_offset);
    align-items: flex-start;
  }

  button {
    font: inherit;
    cursor: pointer;
  }

  button:disabled {
    cursor: not-allowed;
    opacity: 0.6;
  }

  :focus-visible {
    outline: 3px solid var(--_accent);
    outline-offset: 2px;
  }

  .launcher {
    width: 56px;
    height: 56px;
    border: none;
    border-radius: 50%;
    background: var(--_accent);
    color: var(--_on-accent);
    box-shadow: 0 6px 20px rgb(0 0 0 / 0.25);
    display: grid;
    place-items: center;
    order: 2;
  }

  .launcher svg {
    width: 26px;
    height: 26px;
    fill: currentColor;
  }

  .panel {
    order: 1;
    width: min(var(--_panel-width), calc(100vw - 2 * var(--_offset)));
    height: min(var(--_panel-height), calc(100vh - 96px - 2 * var(--_offset)));
    display: flex;
    flex-direction: column;
    background: var(--_background);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    box-shadow: 0 12px 40px rgb(0 0 0 / 0.25);
    overflow: hidden;
  }

  .panel[hidden] {
    display: none;
  }

  .header {
    display: flex;
    align-items: center;
    justify-content: space-between;
    gap: 8px;
    padding: 12px 16px;
    background: var(--_accent);
    color: var(--_on-accent);
  }

  .title {
    margin: 0;
    font-size: 1.05em;
    font-weight: 600;
  }

  .close-button {
    border: none;
    background: transparent;
    color: inherit;
    padding: 4px 8px;
    border-radius: 8px;
    font-size: 1.3em;
    line-height: 1;
  }

  .call-button {
    margin-left: auto;
    display: inline-flex;
    align-items: center;
    justify-content: center;
    width: 34px;
    height: 34px;
    border: 1px solid currentColor;
    border-radius: 50%;
    background: transparent;
    color: inherit;
    padding: 0;
  }

  .call-button svg {
    width: 18px;
    height: 18px;
    fill: currentColor;
  }

  .call-button.active {
    background: var(--_danger);
    border-color: var(--_danger);
    color: #ffffff;
  }

  .call-button.active svg {
    transform: rotate(135deg);
  }

  .call-status {
    margin: 0;
    padding: 6px 16px;
    font-size: 0.9em;
    color: var(--_muted);
    border-bottom: 1px solid var(--_border);
  }

  .message.spoken {
    font-style: italic;
  }

  .messages {
    flex: 1;
    overflow-y: auto;
    padding: 16px;
    display: flex;
    flex-direction: column;
    gap: 10px;
    margin: 0;
    list-style: none;
  }

  .message {
    max-width: 85%;
    padding: 8px 12px;
    border-radius: 14px;
    background: var(--_surface);
    color: var(--_text);
    overflow-wrap: anywhere;
  }

  .message.user {
    align-self: flex-end;
    background: var(--_accent);
    color: var(--_on-accent);
  }

  .message.failed {
    outline: 2px dashed var(--_danger);
  }

  .message p,
  .message ul,
  .message ol,
  .message pre,
  .message blockquote {
    margin: 0 0 0.5em;
  }

  .message > :last-child,
  .message .content > :last-child {
    margin-bottom: 0;
  }

  .message ul,
  .message ol {
    padding-left: 1.3em;
  }

  .message a {
    color: inherit;
    text-decoration: underline;
  }

  .message code {
    font-family: ui-monospace, SFMono-Regular, Menlo, monospace;
    font-size: 0.9em;
  }

  .message pre {
    white-space: pre-wrap;
    padding: 8px;
    border-radius: 8px;
    background: rgb(0 0 0 / 0.08);
  }

  .message blockquote {
    padding-left: 8px;
    border-left: 3px solid var(--_border);
  }

  .user-text {
    white-space: pre-wrap;
  }

  .message-status {
    display: block;
    margin-top: 4px;
    font-size: 0.8em;
    font-weight: 600;
  }

  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }

  .typing {
    align-self: flex-start;
    display: inline-flex;
    gap: 4px;
    padding: 12px 14px;
    border-radius: 14px;
    background: var(--_surface);
  }

  .typing span {
    width: 7px;
    height: 7px;
    border-radius: 50%;
    background: var(--_muted);
    animation: bounce 1.2s infinite ease-in-out;
  }

  .typing span:nth-child(2) {
    animation-delay: 0.15s;
  }

  .typing span:nth-child(3) {
    animation-delay: 0.3s;
  }

  @keyframes bounce {
    0%,
    80%,
    100% {
      transform: translateY(0);
      opacity: 0.5;
    }
    40% {
      transform: translateY(-4px);
      opacity: 1;
    }
  }

  @media (prefers-reduced-motion: reduce) {
    .typing span {
      animation: none;
    }
  }

  .error {
    margin: 0 16px 8px;
    padding: 10px 12px;
    border-radius: 10px;
    border: 1px solid var(--_danger);
    color: var(--_danger);
    background: var(--_background);
    display: flex;
    flex-direction: column;
    gap: 8px;
  }

  .error p {
    margin: 0;
  }

  .retry-button {
    align-self: flex-start;
    border: 1px solid currentColor;
    border-radius: 8px;
    background: transparent;
    color: inherit;
    padding: 4px 10px;
  }

  .form {
    display: flex;
    flex-direction: column;
    gap: 4px;
    padding: 12px 16px 14px;
    border-top: 1px solid var(--_border);
  }

  .input-row {
    display: flex;
    gap: 8px;
    align-items: flex-end;
  }

  .input {
    flex: 1;
    resize: none;
    min-height: 40px;
    max-height: 120px;
    padding: 9px 12px;
    border: 1px solid var(--_border);
    border-radius: 12px;
    background: var(--_background);
    color: var(--_text);
    font: inherit;
  }

  .input[aria-invalid="true"] {
    border-color: var(--_danger);
  }

  .send-button {
    border: none;
    border-radius: 12px;
    padding: 9px 14px;
    background: var(--_accent);
    color: var(--_on-accent);
    font-weight: 600;
  }

  .counter {
    align-self: flex-end;
    font-size: 0.8em;
    color: var(--_muted);
  }

  .counter.over {
    color: var(--_danger);
    font-weight: 600;
  }

  /* Phones: the open panel takes the whole screen; its close button replaces the launcher. */
  @media (max-width: 480px) {
    .root.open {
      inset: 0;
    }

    .root.open .panel {
      width: 100%;
      height: 100%;
      border: none;
      border-radius: 0;
    }

    .root.open .launcher {
      display: none;
    }
  }
`;
