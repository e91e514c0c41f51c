import { css } from "lit";

/** The calendars screen: connection cards, the connect forms, the business hours editor, the slot preview. */
export const calendarsStyles = css`
  .connections {
    list-style: none;
    padding: 0;
  }
  .connections h2 {
    margin-top: 0;
  }
  h3 {
    font-size: 1rem;
    margin: 1rem 0 0.5rem;
  }
  .card.broken {
    border-color: var(--_danger);
    border-width: 2px;
  }
  .badge.broken {
    color: var(--_danger);
    border-color: var(--_danger);
    font-weight: 700;
  }
  .problem {
    color: var(--_danger);
    border-left: 4px solid var(--_danger);
    padding: 0.25rem 0.75rem;
  }
  .problem p {
    margin: 0.25rem 0 0;
  }
  .url {
    overflow-wrap: anywhere;
  }
  .add {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(min(100%, 18rem), 1fr));
    gap: 1rem;
  }
  .day {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    align-items: center;
    padding: 0.35rem 0;
    border-bottom: 1px solid var(--_border);
  }
  .day-name {
    flex: 0 0 6.5rem;
    font-weight: 600;
  }
  .range {
    display: inline-flex;
    gap: 0.25rem;
    align-items: center;
  }
  .range input {
    width: 7.5rem;
  }
  .days {
    padding-left: 1.25rem;
  }
  .preview {
    border-top: 1px solid var(--_border);
    margin-top: 0.5rem;
  }
`;
