import { css } from "lit";

/** The inbox: the list beside the open conversation, its messages and notes, the filters. */
export const inboxStyles = css`
  .inbox {
    display: flex;
    flex-wrap: wrap;
    gap: 1rem;
  }
  /* min-width 0: a long preview or name is cut, rather than widening the list past the page. */
  .list {
    flex: 1 1 14rem;
    min-width: 0;
  }
  .list ul {
    list-style: none;
    padding: 0;
    margin: 0;
  }
  .list a {
    display: block;
    padding: 0.5rem;
    border-bottom: 1px solid var(--_border);
    text-decoration: none;
    color: var(--_text);
    overflow-wrap: anywhere;
  }
  .list a[aria-current="true"] {
    background: var(--_surface);
  }
  .thread {
    flex: 3 1 20rem;
    min-width: 0;
  }
  .messages {
    list-style: none;
    padding: 0;
    max-height: 60vh;
    overflow-y: auto;
  }
  .msg {
    margin: 0.5rem 0;
    padding: 0.5rem 0.75rem;
    border-radius: var(--_radius);
    background: var(--_surface);
    max-width: 85%;
  }
  .msg p {
    margin: 0;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
  .msg.user {
    margin-right: auto;
  }
  .msg.assistant,
  .msg.operator {
    margin-left: auto;
    background: var(--_accent);
    color: var(--_on-accent);
  }
  .dot {
    display: inline-block;
    width: 0.6rem;
    height: 0.6rem;
    border-radius: 50%;
    background: var(--_accent);
  }
  .preview,
  .when {
    display: block;
  }
  .preview {
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  .badge.waiting {
    font-weight: 700;
    border-color: var(--_link);
    color: var(--_link);
  }
  .waiting-note {
    font-weight: 700;
    color: var(--_link);
  }
  .badge.sms {
    font-weight: 700;
    border-color: var(--_link);
  }
  .who {
    font-size: 0.8rem;
    font-weight: 700;
  }
  .filters {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem 1rem;
    align-items: flex-end;
    margin-bottom: 1rem;
  }
  .filters .field {
    display: flex;
    flex-direction: column;
    font-size: 0.9rem;
    min-width: 0;
  }
  .msg.note {
    margin-left: auto;
    margin-right: auto;
    background: var(--_surface);
    border: 2px dashed var(--_link);
    color: var(--_text);
  }
  .at {
    display: block;
    font-size: 0.75rem;
    opacity: 0.9;
    overflow-wrap: anywhere;
  }
  .visitor {
    display: flex;
    flex-wrap: wrap;
    gap: 0.25rem 1.5rem;
    margin: 0.5rem 0;
    font-size: 0.9rem;
  }
  .visitor dt {
    font-weight: 700;
  }
  .visitor dd {
    margin: 0;
    overflow-wrap: anywhere;
  }
`;
