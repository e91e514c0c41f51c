import { css, html, nothing } from "lit";
import {
  CreateDocumentMutation,
  CreateKnowledgebaseMutation,
  DeleteDocumentMutation,
  DeleteKnowledgebaseMutation,
  DocumentPassagesQuery,
  KnowledgebaseQuery,
  KnowledgebaseStatusSubscription,
  KnowledgebasesQuery,
  ReprocessDocumentMutation,
  SearchKnowledgebaseQuery,
  UpdateKnowledgebaseMutation,
} from "../api/operations.ts";
import type {
  ConsoleDocumentPassagesQuery,
  ConsoleKnowledgebaseQuery,
  ConsoleKnowledgebasesQuery,
  ConsoleSearchKnowledgebaseQuery,
} from "../generated/graphql.ts";
import { href, navigate } from "../router.ts";
import {
  DataScreen,
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
import { documentStatus, knowledgebaseStatus } from "../status-words.ts";

/** The server's upload limit (packages/server/src/limits.ts MAX_UPLOAD_BYTES), checked before sending. */
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;
const ACCEPTED = ".pdf,.docx,.txt,.md";

export class VxKnowledgebases extends DataScreen<ConsoleKnowledgebasesQuery["knowledgebases"]> {
  protected override async fetch() {
    return (await this.api.request(KnowledgebasesQuery)).knowledgebases;
  }

  private create(event: SubmitEvent): Promise<void> {
    return this.submit(event, async (form) => {
      const { createKnowledgebase } = await this.api.request(CreateKnowledgebaseMutation, {
        input: { name: String(form.get("name") ?? ""), description: String(form.get("description") ?? "") },
      });
      navigate("knowledge", createKnowledgebase.id);
    });
  }

  override render() {
    return html`
      <h1>Knowledge bases</h1>
      ${this.loaded((items) =>
        items.length === 0
          ? emptyState(
              "No knowledge bases yet.",
              html`Create one below, add files or websites to it, then choose it in an <a href=${href("assistants")}>assistant</a>'s <em>Knowledge and tools</em> so that it answers from them.`,
            )
          : html`<div class="table-wrap"><table>
              <thead><tr><th>Name</th><th>Status</th><th>Documents</th><th>Assistants</th></tr></thead>
              <tbody>${items.map(
                (kb) => html`<tr><td><a href=${href("knowledge", kb.id)}>${kb.name}</a></td>
                  <td><span class="badge">${knowledgebaseStatus(kb.status)}</span></td><td>${kb.documentsCount}</td><td>${kb.assistantsCount}</td></tr>`,
              )}</tbody></table></div>`,
      )}
      <form class="card" @submit=${this.create} novalidate>
        <h2>New knowledge base</h2>
        <label for="kb-name">Name</label><input id="kb-name" name="name" />${fieldError(this.errors, "name")}
        <label for="kb-description">Description</label><input id="kb-description" name="description" />
        ${formMessage(this.errors)}
        <p><button class="primary" type="submit">Create knowledge base</button></p>
      </form>
    `;
  }
}

/** The API's document type from a file's extension; anything else is sent as text and checked by the server. */
function documentType(name: string): string {
  const extension = name.toLowerCase().split(".").pop();
  return extension === "pdf" || extension === "docx" ? extension : "txt";
}

type Doc = ConsoleKnowledgebaseQuery["knowledgebase"]["documents"][number];

type Passages = ConsoleDocumentPassagesQuery["document"]["passages"];

/** Passages read per "Show more". */
const PASSAGES_PAGE = 20;

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

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

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

/** One knowledge base: uploads, websites, live document progress, retries and a search. */
export class VxKnowledgebase extends Screen {
  static override properties = {
    knowledgebaseId: { attribute: false },
    kb: { state: true },
    dragging: { state: true },
    uploadErrors: { state: true },
    siteErrors: { state: true },
    results: { state: true },
    searchError: { state: true },
    settingsErrors: { state: true },
    renamed: { state: true },
    chunkErrors: { state: true },
    chunkSaved: { state: true },
    passages: { state: true },
  };
  declare knowledgebaseId: number;
  declare kb: ConsoleKnowledgebaseQuery["knowledgebase"] | null;
  declare dragging: boolean;
  declare uploadErrors: string[];
  declare siteErrors: FormErrors;
  declare results: ConsoleSearchKnowledgebaseQuery["searchKnowledgebase"] | null;
  declare searchError: string | null;
  declare settingsErrors: FormErrors;
  declare renamed: boolean;
  declare chunkErrors: FormErrors;
  declare chunkSaved: boolean;
  /** The passages shown, by document: those read so far and how many the document has. */
  declare passages: ReadonlyMap<number, { items: Passages; total: number }>;

  constructor() {
    super();
    this.kb = null;
    this.dragging = false;
    this.uploadErrors = [];
    this.siteErrors = noErrors;
    this.results = null;
    this.searchError = null;
    this.settingsErrors = noErrors;
    this.renamed = false;
    this.chunkErrors = noErrors;
    this.chunkSaved = false;
    this.passages = new Map();
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

  private async rename(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const data = new FormData(event.target as HTMLFormElement);
    try {
      const { updateKnowledgebase } = await this.api.request(UpdateKnowledgebaseMutation, {
        id: this.knowledgebaseId,
        input: { name: String(data.get("name") ?? ""), description: String(data.get("description") ?? "") },
      });
      if (this.kb) this.kb = { ...this.kb, ...updateKnowledgebase };
      this.settingsErrors = noErrors;
      this.renamed = true;
    } catch (error) {
      this.settingsErrors = formErrors(error);
      this.renamed = false;
    }
  }

  /** Passage sizes apply to documents added afterwards; stored documents keep their passages. */
  private async saveChunking(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const data = new FormData(event.target as HTMLFormElement);
    const fields: Record<string, string[]> = {};
    const whole = (name: string, label: string) => {
      const value = String(data.get(name) ?? "").trim();
      if (/^\d+$/.test(value)) return Number(value);
      fields[name] = [`${label} must be a whole number.`];
      return null;
    };
    const chunkMaxTokens = whole("chunkMaxTokens", "Passage length");
    const chunkOverlapTokens = whole("chunkOverlapTokens", "Overlap");
    if (Object.keys(fields).length > 0) {
      this.chunkErrors = { fields, message: null };
      this.chunkSaved = false;
      return;
    }
    try {
      const { updateKnowledgebase } = await this.api.request(UpdateKnowledgebaseMutation, {
        id: this.knowledgebaseId,
        input: { chunkMaxTokens, chunkOverlapTokens },
      });
      if (this.kb) this.kb = { ...this.kb, ...updateKnowledgebase };
      this.chunkErrors = noErrors;
      this.chunkSaved = true;
    } catch (error) {
      this.chunkErrors = formErrors(error);
      this.chunkSaved = false;
    }
  }

  /** Shows the document's first passages, or hides them when shown. */
  private async togglePassages(doc: Doc): Promise<void> {
    const shown = new Map(this.passages);
    if (shown.delete(doc.id)) {
      this.passages = shown;
      return;
    }
    await this.morePassages(doc);
  }

  private async morePassages(doc: Doc): Promise<void> {
    const current = this.passages.get(doc.id)?.items ?? [];
    try {
      const { document } = await this.api.request(DocumentPassagesQuery, {
        id: doc.id,
        offset: current.length,
        limit: PASSAGES_PAGE,
      });
      this.passages = new Map(this.passages).set(doc.id, {
        items: [...current, ...document.passages],
        total: document.chunkCount,
      });
    } catch (error) {
      this.uploadErrors = [`${doc.name}: ${(error as Error).message}`];
    }
  }

  /** Asks first, naming what goes with it: every document and passage, and the assistants' use of it. */
  private async deleteKnowledgebase(): Promise<void> {
    const kb = this.kb;
    if (!kb) return;
    const documents = `${kb.documents.length} ${kb.documents.length === 1 ? "document" : "documents"}`;
    const assistants =
      kb.assistantsCount === 0
        ? "No assistant uses it."
        : `${kb.assistantsCount} ${kb.assistantsCount === 1 ? "assistant stops" : "assistants stop"} using it.`;
    if (!confirm(`Delete ${kb.name} and its ${documents}? ${assistants}`)) return;
    try {
      await this.api.request(DeleteKnowledgebaseMutation, { id: kb.id });
      navigate("knowledge");
    } catch (error) {
      this.settingsErrors = formErrors(error);
    }
  }

  private async search(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const query = String(new FormData(event.target as HTMLFormElement).get("query") ?? "");
    try {
      this.results = (
        await this.api.request(SearchKnowledgebaseQuery, { id: this.knowledgebaseId, query })
      ).searchKnowledgebase;
      this.searchError = null;
    } catch (error) {
      this.searchError = (error as Error).message;
    }
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
          : html`<ul class="docs" aria-live="polite">${kb.documents.map((doc) => this.renderDoc(doc))}</ul>`
      }
      <h2>Search</h2>
      <p class="hint">The passages an assistant using this knowledge base would get for a question.</p>
      <form class="row" role="search" @submit=${this.search}>
        <label class="sr-only" for="kb-query">Question</label>
        <input id="kb-query" name="query" style="flex:1" placeholder="A customer's question" />
        <button type="submit">Search</button>
      </form>
      ${this.searchError ? html`<p class="error" role="alert">${this.searchError}</p>` : nothing}
      ${
        this.results
          ? this.results.length === 0
            ? html`<p class="muted">No passage matches.</p>`
            : html`<ol class="results" aria-label="Search results">${this.results.map((r) => {
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
      }
      <section class="card" aria-labelledby="kb-chunking">
        <h2 id="kb-chunking">Passage size</h2>
        <p class="hint">Documents are cut into passages of at most this many tokens (about ¾ of a word each);
          consecutive passages share the overlap, so an answer that spans a cut is still found whole. Shorter
          passages give more precise matches, longer ones more context. A change applies to documents added
          afterwards: documents already here keep their passages until you delete and add them again.</p>
        <form @submit=${this.saveChunking} novalidate aria-label="Passage size">
          <div class="grid">
            <div><label for="kb-chunk-max">Passage length (tokens, 50 to 2000)</label>
              <input id="kb-chunk-max" name="chunkMaxTokens" type="number" min="50" max="2000" step="1"
                .value=${String(kb.chunkMaxTokens)} aria-describedby=${describedBy(this.chunkErrors, "chunkMaxTokens")} />
              ${fieldError(this.chunkErrors, "chunkMaxTokens")}</div>
            <div><label for="kb-chunk-overlap">Overlap (tokens, under half the length)</label>
              <input id="kb-chunk-overlap" name="chunkOverlapTokens" type="number" min="0" step="1"
                .value=${String(kb.chunkOverlapTokens)} aria-describedby=${describedBy(this.chunkErrors, "chunkOverlapTokens")} />
              ${fieldError(this.chunkErrors, "chunkOverlapTokens")}</div>
          </div>
          ${formMessage(this.chunkErrors)}
          ${this.chunkSaved ? html`<p class="ok" role="status">Passage size saved: it applies to documents added from now on.</p>` : nothing}
          <p><button type="submit">Save passage size</button></p>
        </form>
      </section>
      <section class="card" aria-labelledby="kb-settings">
        <h2 id="kb-settings">Name and deletion</h2>
        <form @submit=${this.rename} novalidate aria-label="Rename the knowledge base">
          <label for="kb-rename">Name</label>
          <input id="kb-rename" name="name" .value=${kb.name} aria-describedby=${describedBy(this.settingsErrors, "name")} />
          ${fieldError(this.settingsErrors, "name")}
          <label for="kb-redescribe">Description</label>
          <input id="kb-redescribe" name="description" .value=${kb.description ?? ""}
            aria-describedby=${describedBy(this.settingsErrors, "description")} />
          ${fieldError(this.settingsErrors, "description")}
          ${formMessage(this.settingsErrors)}
          ${this.renamed ? html`<p class="ok" role="status">Saved.</p>` : nothing}
          <p class="row"><button type="submit">Save name</button>
            <button type="button" class="danger" @click=${this.deleteKnowledgebase}>Delete knowledge base</button></p>
        </form>
      </section>
    `;
  }

  private renderDoc(doc: Doc) {
    const progress =
      doc.status === "PROCESSING"
        ? `${doc.stage?.toLowerCase() ?? "queued"}${doc.pagesTotal ? `, page ${doc.pagesDone} of ${doc.pagesTotal}` : ""}`
        : doc.status === "ACTIVE"
          ? plural(doc.chunkCount, "passage", "passages")
          : "";
    const shown = this.passages.get(doc.id);
    return html`<li class="doc" data-document=${doc.id}>
      <div class="row">
        <strong>${doc.name}</strong>
        <span class="badge status-${doc.status.toLowerCase()}">${documentStatus(doc.status)}</span>
        <span class="muted">${progress}</span>
        <span style="margin-left:auto" class="row">
          ${doc.status === "FAILED" ? html`<button type="button" @click=${() => this.retry(doc)}>Retry</button>` : nothing}
          ${
            doc.status === "ACTIVE"
              ? html`<button type="button" aria-expanded=${shown ? "true" : "false"} aria-controls="passages-${doc.id}"
                  aria-label="${shown ? "Hide" : "Show"} passages of ${doc.name}"
                  @click=${() => this.togglePassages(doc)}>${shown ? "Hide passages" : "Show passages"}</button>`
              : nothing
          }
          <button type="button" class="danger" aria-label="Delete ${doc.name}" @click=${() => this.run(this.deleteItem(doc))}>Delete</button>
        </span>
      </div>
      ${doc.status === "PROCESSING" && doc.pagesTotal ? html`<progress max=${doc.pagesTotal} value=${doc.pagesDone} aria-label="Progress of ${doc.name}"></progress>` : nothing}
      ${doc.failureReason ? html`<p class="error">${doc.failureReason}</p>` : nothing}
      ${shown ? this.renderPassages(doc, shown) : nothing}
    </li>`;
  }

  private renderPassages(doc: Doc, shown: { items: Passages; total: number }) {
    return html`<section id="passages-${doc.id}" class="passages" aria-label="Passages of ${doc.name}">
      <p class="muted">Showing ${shown.items.length} of ${plural(shown.total, "passage", "passages")}, as an assistant is given them.</p>
      <ol>${shown.items.map(
        (passage) => html`<li>
          <p class="muted">Passage ${passage.ordinal + 1}${passage.source ? ` · ${passage.source}` : ""} · ${plural(passage.tokenCount, "token", "tokens")}</p>
          <pre>${passage.content}</pre></li>`,
      )}</ol>
      ${
        shown.items.length < shown.total
          ? html`<p><button type="button" @click=${() => this.morePassages(doc)}>Show more passages</button></p>`
          : nothing
      }
    </section>`;
  }

  static override styles = [
    ...Screen.styles,
    css`
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
    `,
  ];
}
