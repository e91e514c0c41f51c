import { html, nothing } from "lit";
import type { ConsoleKnowledgebaseQuery } from "../generated/graphql.ts";
import { href } from "../router.ts";
import {
  describedBy,
  emptyState,
  type FormErrors,
  fieldError,
  formErrors,
  formMessage,
  loading,
  noErrors,
  Screen,
} from "../screen.ts";
import { knowledgebaseStatus } from "../status-words.ts";
import {
  CreateDocumentMutation,
  DeleteDocumentMutation,
  KnowledgebaseQuery,
  KnowledgebaseStatusSubscription,
  ReprocessDocumentMutation,
} from "./knowledge.operations.ts";
import { knowledgeStyles } from "./knowledge.styles.ts";
import {
  ACCEPTED,
  type Doc,
  DocumentPassages,
  documentType,
  formatBytes,
  MAX_UPLOAD_BYTES,
  renderDoc,
} from "./knowledge-documents.ts";
import { KnowledgeSearch } from "./knowledge-search.ts";
import { KnowledgeSettings } from "./knowledge-settings.ts";

/**
 * One knowledge base: uploads, websites, live document progress, retries and a search. Each document's
 * passages are knowledge-documents.ts, the search knowledge-search.ts, the passage size, name and
 * deletion knowledge-settings.ts.
 */
export class VxKnowledgebase extends Screen {
  static override properties = {
    knowledgebaseId: { attribute: false },
    kb: { state: true },
    dragging: { state: true },
    uploadErrors: { state: true },
    siteErrors: { state: true },
  };
  declare knowledgebaseId: number;
  declare kb: ConsoleKnowledgebaseQuery["knowledgebase"] | null;
  declare dragging: boolean;
  declare uploadErrors: string[];
  declare siteErrors: FormErrors;
  readonly #passages = new DocumentPassages(this, (message) => {
    this.uploadErrors = [message];
  });
  readonly #search = new KnowledgeSearch(this);
  readonly #settings = new KnowledgeSettings(this, (updated) => {
    if (this.kb) this.kb = { ...this.kb, ...updated };
  });

  constructor() {
    super();
    this.kb = null;
    this.dragging = false;
    this.uploadErrors = [];
    this.siteErrors = noErrors;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.run(this.load());
    this.track(
      this.api.subscribe(
        KnowledgebaseStatusSubscription,
        { id: this.knowledgebaseId },
        ({ knowledgebaseStatus }) => {
          const change = knowledgebaseStatus.document;
          if (!this.kb) return;
          if (!change) {
            this.kb = { ...this.kb, status: knowledgebaseStatus.status };
            return;
          }
          if (change.status === "DELETED") {
            this.kb = { ...this.kb, documents: this.kb.documents.filter((d) => d.id !== change.documentId) };
            return;
          }
          if (!this.kb.documents.some((d) => d.id === change.documentId)) {
            this.run(this.load());
            return;
          }
          this.kb = {
            ...this.kb,
            status: knowledgebaseStatus.status,
            documents: this.kb.documents.map((d) =>
              d.id === change.documentId
                ? {
                    ...d,
                    status: change.status as Doc["status"],
                    stage: change.stage ?? null,
                    pagesDone: change.pagesDone,
                    pagesTotal: change.pagesTotal ?? null,
                    chunkCount: change.chunkCount,
                    failureReason: change.failureReason ?? null,
                  }
                : d,
            ),
          };
        },
      ),
    );
  }

  private async load(): Promise<void> {
    this.kb = (await this.api.request(KnowledgebaseQuery, { id: this.knowledgebaseId })).knowledgebase;
  }

  private async upload(files: File[]): Promise<void> {
    const errors: string[] = [];
    for (const file of files) {
      if (file.size > MAX_UPLOAD_BYTES) {
        errors.push(`${file.name} is ${formatBytes(file.size)}: files may be at most 20 MB.`);
        continue;
      }
      try {
        await this.api.request(
          CreateDocumentMutation,
          {
            knowledgebaseId: this.knowledgebaseId,
            input: { name: file.name, type: documentType(file.name), file: null },
          },
          { "input.file": file },
        );
      } catch (error) {
        errors.push(`${file.name}: ${(error as Error).message}`);
      }
    }
    this.uploadErrors = errors;
    await this.load();
  }

  private async addSite(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const data = new FormData(form);
    const limit = String(data.get("limit") ?? "").trim();
    // The server's range (documents.service.ts); an empty field leaves its default.
    if (limit !== "" && !/^\d+$/.test(limit)) {
      this.siteErrors = {
        fields: { relativeLinksLimit: ["Linked pages to follow must be a whole number from 1 to 50."] },
        message: null,
      };
      return;
    }
    try {
      await this.api.request(CreateDocumentMutation, {
        knowledgebaseId: this.knowledgebaseId,
        input: {
          type: "website",
          // The server requires a name; the address names the document, as uploaded files are named.
          name: String(data.get("url") ?? "").trim() || null,
          url: String(data.get("url") ?? ""),
          relativeLinksLimit: limit === "" ? null : Number(limit),
        },
      });
      this.siteErrors = noErrors;
      form.reset();
      await this.load();
    } catch (error) {
      this.siteErrors = formErrors(error);
    }
  }

  /** Processes the failed document again from what the server kept (its file or its addresses). */
  private async retry(doc: Doc): Promise<void> {
    try {
      await this.api.request(ReprocessDocumentMutation, { id: doc.id });
      this.uploadErrors = [];
    } catch (error) {
      this.uploadErrors = [`${doc.name}: ${(error as Error).message}`];
    }
    await this.load();
  }

  private async deleteItem(doc: Doc): Promise<void> {
    if (!confirm(`Delete ${doc.name}? Assistants stop finding its passages at once.`)) return;
    await this.api.request(DeleteDocumentMutation, { id: doc.id });
    await this.load();
  }

  override render() {
    const kb = this.kb;
    if (!kb) return loading;
    return html`
      <p><a href=${href("knowledge")}>← Knowledge bases</a></p>
      <h1>${kb.name} <span class="badge" data-testid="kb-status">${knowledgebaseStatus(kb.status)}</span></h1>
      <div
        class="drop ${this.dragging ? "over" : ""}"
        @dragover=${(event: DragEvent) => {
          event.preventDefault();
          this.dragging = true;
        }}
        @dragleave=${() => {
          this.dragging = false;
        }}
        @drop=${(event: DragEvent) => {
          event.preventDefault();
          this.dragging = false;
          void this.upload([...(event.dataTransfer?.files ?? [])]);
        }}
      >
        <p><strong>Drop files here</strong> or
          <label class="inline-label" for="file"><span class="linkish">choose files</span></label>
          <input id="file" type="file" multiple accept=${ACCEPTED} class="sr-only" aria-label="Upload documents"
            @change=${(event: Event) => {
              const input = event.target as HTMLInputElement;
              void this.upload([...(input.files ?? [])]).then(() => {
                input.value = "";
              });
            }} /></p>
        <p class="hint">PDF, DOCX or text files, at most 20 MB each.</p>
      </div>
      ${this.uploadErrors.map((message) => html`<p class="error" role="alert">${message}</p>`)}
      <form class="row" @submit=${this.addSite} novalidate aria-label="Add a website">
        <label class="sr-only" for="site-url">Website URL</label>
        <input id="site-url" name="url" type="url" placeholder="https://example.com/help" style="flex: 3 1 14rem"
          aria-describedby=${describedBy(this.siteErrors, "url")} />
        <label class="inline" for="site-limit">Linked pages to follow (1 to 50)</label>
        <input id="site-limit" name="limit" type="number" min="1" max="50" step="1" value="10" style="flex: 0 1 6rem"
          aria-describedby=${describedBy(this.siteErrors, "relativeLinksLimit")} />
        <button type="submit">Add website</button>
      </form>
      ${fieldError(this.siteErrors, "url")}${fieldError(this.siteErrors, "relativeLinksLimit")}${this.siteErrors.fields.url || this.siteErrors.fields.relativeLinksLimit ? nothing : formMessage(this.siteErrors)}
      <h2>Documents</h2>
      ${
        kb.documents.length === 0
          ? emptyState("No documents yet.", "Drop files above, or add a website.")
          : html`<ul class="docs" aria-live="polite">${kb.documents.map((doc) =>
              renderDoc(doc, this.#passages, {
                retry: (failed) => void this.retry(failed),
                remove: (removed) => this.run(this.deleteItem(removed)),
              }),
            )}</ul>`
      }
      ${this.#search.render()}
      ${this.#settings.render(kb)}
    `;
  }

  static override styles = [...Screen.styles, knowledgeStyles];
}
