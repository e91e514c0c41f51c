import { css } from "lit";

/**
 * The widget's design tokens (packages/widget/src/voxgate-chat.styles.ts) under the same public
 * `--voxgate-*` names, so one stylesheet can theme both the console and the preview inside it.
 * Sizes are in rem so that 200% zoom scales everything; layouts wrap below 700 px.
 */
export const tokens = css`
  :host {
    --_font: var(--voxgate-font-family, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif);
    --_accent: var(--voxgate-accent-color, #4f46e5);
    /* Text in the accent's hue (links, marks): the accent itself on light, a lighter indigo on dark,
       where #4f46e5 on #111827 reads at 2.82:1 (WCAG AA asks 4.5:1). */
    --_link: var(--voxgate-link-color, var(--voxgate-accent-color, #4f46e5));
    --_on-accent: var(--voxgate-accent-text-color, #ffffff);
    --_background: var(--voxgate-background, #ffffff);
    --_surface: var(--voxgate-surface, #f3f4f6);
    --_text: var(--voxgate-text-color, #111827);
    --_muted: var(--voxgate-muted-color, #4b5563);
    --_border: var(--voxgate-border-color, #e5e7eb);
    --_danger: var(--voxgate-danger-color, #b91c1c);
    --_ok: #15803d;
    --_radius: var(--voxgate-radius, 12px);
    font-family: var(--_font);
    color: var(--_text);
    line-height: 1.45;
  }
  @media (prefers-color-scheme: dark) {
    :host {
      --_background: var(--voxgate-background, #111827);
      --_surface: var(--voxgate-surface, #1f2937);
      --_text: var(--voxgate-text-color, #f9fafb);
      --_muted: var(--voxgate-muted-color, #d1d5db);
      --_border: var(--voxgate-border-color, #374151);
      --_danger: var(--voxgate-danger-color, #fca5a5);
      --_ok: #86efac;
      --_link: var(--voxgate-link-color, #a5b4fc);
    }
  }
`;

/** Controls, tables and layout shared by every screen. */
export const shared = css`
  :host {
    display: block;
  }
  *,
  *::before,
  *::after {
    box-sizing: border-box;
  }
  h1 {
    font-size: 1.5rem;
    margin: 0 0 1rem;
  }
  h2 {
    font-size: 1.15rem;
    margin: 1.25rem 0 0.5rem;
  }
  button,
  input,
  select,
  textarea {
    font: inherit;
    color: inherit;
  }
  button {
    cursor: pointer;
    border: 1px solid var(--_border);
    background: var(--_surface);
    border-radius: 8px;
    padding: 0.45rem 0.9rem;
    min-height: 2.5rem;
  }
  button.primary {
    background: var(--_accent);
    color: var(--_on-accent);
    border-color: var(--_accent);
  }
  button.danger {
    color: var(--_danger);
  }
  button:disabled {
    opacity: 0.6;
    cursor: not-allowed;
  }
  :focus-visible {
    outline: 3px solid var(--_link);
    outline-offset: 2px;
  }
  input,
  select,
  textarea {
    width: 100%;
    padding: 0.45rem 0.6rem;
    border: 1px solid var(--_border);
    border-radius: 8px;
    background: var(--_background);
    min-height: 2.5rem;
  }
  input[type="checkbox"],
  input[type="radio"] {
    width: auto;
    min-height: 0;
  }
  textarea {
    min-height: 6rem;
    resize: vertical;
  }
  label {
    display: block;
    font-weight: 600;
    margin: 0.75rem 0 0.25rem;
  }
  label.inline {
    display: flex;
    gap: 0.5rem;
    align-items: center;
    font-weight: normal;
  }
  .field-error,
  .error {
    color: var(--_danger);
    margin: 0.25rem 0 0;
  }
  .hint,
  .muted {
    color: var(--_muted);
    font-size: 0.9rem;
  }
  .ok {
    color: var(--_ok);
  }
  .row {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    align-items: center;
  }
  .grid {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(min(100%, 16rem), 1fr));
    gap: 0 1rem;
  }
  .card {
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    padding: 1rem;
    background: var(--_background);
    margin-bottom: 1rem;
  }
  fieldset {
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    padding: 0.5rem 1rem 1rem;
    margin: 0 0 1rem;
    min-width: 0;
  }
  legend {
    font-weight: 700;
    padding: 0 0.25rem;
  }
  /* Positioned, so that the absolutely positioned .sr-only labels inside a wide table are clipped by
     this box instead of widening the page from where the table would run off it. */
  .table-wrap {
    position: relative;
    overflow-x: auto;
  }
  table {
    border-collapse: collapse;
    width: 100%;
  }
  th,
  td {
    text-align: left;
    padding: 0.5rem;
    border-bottom: 1px solid var(--_border);
    vertical-align: top;
  }
  td.num,
  th.num {
    text-align: right;
    font-variant-numeric: tabular-nums;
    white-space: nowrap;
  }
  td.debit {
    color: var(--_danger);
  }
  a {
    color: var(--_link);
  }
  .badge {
    display: inline-block;
    padding: 0.05rem 0.5rem;
    border-radius: 999px;
    background: var(--_surface);
    border: 1px solid var(--_border);
    font-size: 0.85rem;
  }
  pre {
    white-space: pre-wrap;
    word-break: break-word;
    background: var(--_surface);
    padding: 0.75rem;
    border-radius: 8px;
  }
  .sr-only {
    position: absolute;
    width: 1px;
    height: 1px;
    margin: -1px;
    padding: 0;
    border: 0;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
`;
