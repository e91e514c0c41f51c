import { html, nothing, type ReactiveControllerHost } from "lit";
import type { ConsoleApi } from "../api/client.ts";
import type { ConsoleSearchKnowledgebaseQuery } from "../generated/graphql.ts";
import { SearchKnowledgebaseQuery } from "./knowledge.operations.ts";

/**
 * A search result's relevance (the API's 0-to-1 `relevance`) in words. The console searches in hybrid
 * mode, where 1 is "first by meaning and by words" and a passage one ranking alone found reaches at most
 * one half: above three quarters both rankings put it near the top.
 */
export function relevanceWords(relevance: number): string {
  if (relevance >= 0.75) return "Strong match";
  if (relevance >= 0.4) return "Partial match";
  return "Weak match";
}

/** The knowledge base's search: the passages an assistant using it would get for a question. */
export class KnowledgeSearch {
  #results: ConsoleSearchKnowledgebaseQuery["searchKnowledgebase"] | null = null;
  #error: string | null = null;

  constructor(
    private readonly host: ReactiveControllerHost & { readonly api: ConsoleApi; knowledgebaseId: number },
  ) {}

  private async search(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const query = String(new FormData(event.target as HTMLFormElement).get("query") ?? "");
    try {
      this.#results = (
        await this.host.api.request(SearchKnowledgebaseQuery, { id: this.host.knowledgebaseId, query })
      ).searchKnowledgebase;
      this.#error = null;
    } catch (error) {
      this.#error = (error as Error).message;
    }
    this.host.requestUpdate();
  }

  render() {
    return html`<h2>Search</h2>
      <p class="hint">The passages an assistant using this knowledge base would get for a question.</p>
      <form class="row" role="search" @submit=${(event: SubmitEvent) => this.search(event)}>
        <label class="sr-only" for="kb-query">Question</label>
        <input id="kb-query" name="query" style="flex:1" placeholder="A customer's question" />
        <button type="submit">Search</button>
      </form>
      ${this.#error ? html`<p class="error" role="alert">${this.#error}</p>` : nothing}
      ${
        this.#results
          ? this.#results.length === 0
            ? html`<p class="muted">No passage matches.</p>`
            : html`<ol class="results" aria-label="Search results">${this.#results.map((r) => {
                const percent = Math.round(r.relevance * 100);
                return html`<li>
                  <p class="row relevance">
                    <meter min="0" max="100" low="40" high="75" optimum="100" value=${percent}
                      aria-label="Relevance ${percent}%: ${relevanceWords(r.relevance)}"></meter>
                    <strong>${relevanceWords(r.relevance)}</strong>
                    <span class="muted">${percent}% · ${r.documentName}${r.source ? ` · ${r.source}` : ""}</span>
                  </p>
                  <pre>${r.content}</pre></li>`;
              })}</ol>`
          : nothing
      }`;
  }
}
