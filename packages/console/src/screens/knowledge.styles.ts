import { css } from "lit";

/** One knowledge base: the drop zone, the documents and their passages, the search results. */
export const knowledgeStyles = css`
  .drop {
    border: 2px dashed var(--_border);
    border-radius: var(--_radius);
    padding: 1rem;
    text-align: center;
    margin-bottom: 1rem;
  }
  .drop.over {
    border-color: var(--_link);
    background: var(--_surface);
  }
  .linkish {
    color: var(--_link);
    text-decoration: underline;
    cursor: pointer;
  }
  .inline-label {
    display: inline;
    font-weight: normal;
  }
  .drop:focus-within {
    outline: 3px solid var(--_link);
  }
  .docs {
    list-style: none;
    padding: 0;
  }
  .doc {
    border-bottom: 1px solid var(--_border);
    padding: 0.5rem 0;
  }
  progress {
    width: 100%;
  }
  .status-active {
    color: var(--_ok);
  }
  .status-failed {
    color: var(--_danger);
  }
  .passages ol,
  .results {
    padding-left: 1.25rem;
  }
  .passages pre,
  .results pre {
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
  .relevance meter {
    width: 6rem;
  }
`;
