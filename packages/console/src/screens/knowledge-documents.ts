import { html, nothing, type ReactiveControllerHost } from "lit";
import type { ConsoleApi } from "../api/client.ts";
import type { ConsoleDocumentPassagesQuery, ConsoleKnowledgebaseQuery } from "../generated/graphql.ts";
import { documentStatus } from "../status-words.ts";
import { DocumentPassagesQuery } from "./knowledge.operations.ts";

export type Doc = ConsoleKnowledgebaseQuery["knowledgebase"]["documents"][number];
type Passages = ConsoleDocumentPassagesQuery["document"]["passages"];
type Shown = { items: Passages; total: number };

/** The server's upload limit (packages/server/src/limits.ts MAX_UPLOAD_BYTES), checked before sending. */
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;
export const ACCEPTED = ".pdf,.docx,.txt,.md";

/** Passages read per "Show more". */
const PASSAGES_PAGE = 20;

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** The API's document type from a file's extension; anything else is sent as text and checked by the server. */
export function documentType(name: string): string {
  const extension = name.toLowerCase().split(".").pop();
  return extension === "pdf" || extension === "docx" ? extension : "txt";
}

export function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

/**
 * The passages shown under documents, as an assistant is given them: read a page at a time, by
 * document. `failed` gets the message of a read that failed.
 */
export class DocumentPassages {
  #shown: ReadonlyMap<number, Shown> = new Map();

  constructor(
    private readonly host: ReactiveControllerHost & { readonly api: ConsoleApi },
    private readonly failed: (message: string) => void,
  ) {}

  of(doc: Doc): Shown | undefined {
    return this.#shown.get(doc.id);
  }

  /** Shows the document's first passages, or hides them when shown. */
  async toggle(doc: Doc): Promise<void> {
    const shown = new Map(this.#shown);
    if (shown.delete(doc.id)) {
      this.#set(shown);
      return;
    }
    await this.more(doc);
  }

  async more(doc: Doc): Promise<void> {
    const current = this.#shown.get(doc.id)?.items ?? [];
    try {
      const { document } = await this.host.api.request(DocumentPassagesQuery, {
        id: doc.id,
        offset: current.length,
        limit: PASSAGES_PAGE,
      });
      this.#set(
        new Map(this.#shown).set(doc.id, {
          items: [...current, ...document.passages],
          total: document.chunkCount,
        }),
      );
    } catch (error) {
      this.failed(`${doc.name}: ${(error as Error).message}`);
    }
  }

  #set(shown: ReadonlyMap<number, Shown>): void {
    this.#shown = shown;
    this.host.requestUpdate();
  }

  render(doc: Doc, shown: Shown) {
    return html`<section id="passages-${doc.id}" class="passages" aria-label="Passages of ${doc.name}">
      <p class="muted">Showing ${shown.items.length} of ${plural(shown.total, "passage", "passages")}, as an assistant is given them.</p>
      <ol>${shown.items.map(
        (passage) => html`<li>
          <p class="muted">Passage ${passage.ordinal + 1}${passage.source ? ` · ${passage.source}` : ""} · ${plural(passage.tokenCount, "token", "tokens")}</p>
          <pre>${passage.content}</pre></li>`,
      )}</ol>
      ${
        shown.items.length < shown.total
          ? html`<p><button type="button" @click=${() => this.more(doc)}>Show more passages</button></p>`
          : nothing
      }
    </section>`;
  }
}

/** One document: its status and progress, why it failed, its buttons, and its passages when shown. */
export function renderDoc(
  doc: Doc,
  passages: DocumentPassages,
  actions: { retry(doc: Doc): void; remove(doc: Doc): void },
) {
  const progress =
    doc.status === "PROCESSING"
      ? `${doc.stage?.toLowerCase() ?? "queued"}${doc.pagesTotal ? `, page ${doc.pagesDone} of ${doc.pagesTotal}` : ""}`
      : doc.status === "ACTIVE"
        ? plural(doc.chunkCount, "passage", "passages")
        : "";
  const shown = passages.of(doc);
  return html`<li class="doc" data-document=${doc.id}>
      <div class="row">
        <strong>${doc.name}</strong>
        <span class="badge status-${doc.status.toLowerCase()}">${documentStatus(doc.status)}</span>
        <span class="muted">${progress}</span>
        <span style="margin-left:auto" class="row">
          ${doc.status === "FAILED" ? html`<button type="button" @click=${() => actions.retry(doc)}>Retry</button>` : nothing}
          ${
            doc.status === "ACTIVE"
              ? html`<button type="button" aria-expanded=${shown ? "true" : "false"} aria-controls="passages-${doc.id}"
                  aria-label="${shown ? "Hide" : "Show"} passages of ${doc.name}"
                  @click=${() => passages.toggle(doc)}>${shown ? "Hide passages" : "Show passages"}</button>`
              : nothing
          }
          <button type="button" class="danger" aria-label="Delete ${doc.name}" @click=${() => actions.remove(doc)}>Delete</button>
        </span>
      </div>
      ${doc.status === "PROCESSING" && doc.pagesTotal ? html`<progress max=${doc.pagesTotal} value=${doc.pagesDone} aria-label="Progress of ${doc.name}"></progress>` : nothing}
      ${doc.failureReason ? html`<p class="error">${doc.failureReason}</p>` : nothing}
      ${shown ? passages.render(doc, shown) : nothing}
    </li>`;
}
