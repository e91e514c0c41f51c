import { html, nothing, type ReactiveControllerHost } from "lit";
import type { ConsoleApi } from "../api/client.ts";
import type { ConsoleKnowledgebaseQuery } from "../generated/graphql.ts";
import { navigate } from "../router.ts";
import { describedBy, type FormErrors, fieldError, formErrors, formMessage, noErrors } from "../screen.ts";
import { DeleteKnowledgebaseMutation, UpdateKnowledgebaseMutation } from "./knowledge.operations.ts";

type Knowledgebase = ConsoleKnowledgebaseQuery["knowledgebase"];
/** What an update of the knowledge base answers, merged into the one shown. */
type Updated = Partial<Knowledgebase>;

/**
 * The knowledge base's own settings: its passage size, its name and description, and its deletion.
 * `updated` gets what the server saved, for the screen to show.
 */
export class KnowledgeSettings {
  #settingsErrors: FormErrors = noErrors;
  #renamed = false;
  #chunkErrors: FormErrors = noErrors;
  #chunkSaved = false;

  constructor(
    private readonly host: ReactiveControllerHost & { readonly api: ConsoleApi; knowledgebaseId: number },
    private readonly updated: (kb: Updated) => void,
  ) {}

  private async rename(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const data = new FormData(event.target as HTMLFormElement);
    try {
      const { updateKnowledgebase } = await this.host.api.request(UpdateKnowledgebaseMutation, {
        id: this.host.knowledgebaseId,
        input: { name: String(data.get("name") ?? ""), description: String(data.get("description") ?? "") },
      });
      this.updated(updateKnowledgebase);
      this.#settingsErrors = noErrors;
      this.#renamed = true;
    } catch (error) {
      this.#settingsErrors = formErrors(error);
      this.#renamed = false;
    }
    this.host.requestUpdate();
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
      this.#chunkErrors = { fields, message: null };
      this.#chunkSaved = false;
      this.host.requestUpdate();
      return;
    }
    try {
      const { updateKnowledgebase } = await this.host.api.request(UpdateKnowledgebaseMutation, {
        id: this.host.knowledgebaseId,
        input: { chunkMaxTokens, chunkOverlapTokens },
      });
      this.updated(updateKnowledgebase);
      this.#chunkErrors = noErrors;
      this.#chunkSaved = true;
    } catch (error) {
      this.#chunkErrors = formErrors(error);
      this.#chunkSaved = false;
    }
    this.host.requestUpdate();
  }

  /** Asks first, naming what goes with it: every document and passage, and the assistants' use of it. */
  private async deleteKnowledgebase(kb: Knowledgebase): Promise<void> {
    const documents = `${kb.documents.length} ${kb.documents.length === 1 ? "document" : "documents"}`;
    const assistants =
      kb.assistantsCount === 0
        ? "No assistant uses it."
        : `${kb.assistantsCount} ${kb.assistantsCount === 1 ? "assistant stops" : "assistants stop"} using it.`;
    if (!confirm(`Delete ${kb.name} and its ${documents}? ${assistants}`)) return;
    try {
      await this.host.api.request(DeleteKnowledgebaseMutation, { id: kb.id });
      navigate("knowledge");
    } catch (error) {
      this.#settingsErrors = formErrors(error);
      this.host.requestUpdate();
    }
  }

  render(kb: Knowledgebase) {
    const chunkErrors = this.#chunkErrors;
    const settingsErrors = this.#settingsErrors;
    return html`<section class="card" aria-labelledby="kb-chunking">
        <h2 id="kb-chunking">Passage size</h2>
        <p class="hint">Documents are cut into passages of at most this many tokens (about ¾ of a word each);
          consecutive passages share the overlap, so an answer that spans a cut is still found whole. Shorter
          passages give more precise matches, longer ones more context. A change applies to documents added
          afterwards: documents already here keep their passages until you delete and add them again.</p>
        <form @submit=${(event: SubmitEvent) => this.saveChunking(event)} novalidate aria-label="Passage size">
          <div class="grid">
            <div><label for="kb-chunk-max">Passage length (tokens, 50 to 2000)</label>
              <input id="kb-chunk-max" name="chunkMaxTokens" type="number" min="50" max="2000" step="1"
                .value=${String(kb.chunkMaxTokens)} aria-describedby=${describedBy(chunkErrors, "chunkMaxTokens")} />
              ${fieldError(chunkErrors, "chunkMaxTokens")}</div>
            <div><label for="kb-chunk-overlap">Overlap (tokens, under half the length)</label>
              <input id="kb-chunk-overlap" name="chunkOverlapTokens" type="number" min="0" step="1"
                .value=${String(kb.chunkOverlapTokens)} aria-describedby=${describedBy(chunkErrors, "chunkOverlapTokens")} />
              ${fieldError(chunkErrors, "chunkOverlapTokens")}</div>
          </div>
          ${formMessage(chunkErrors)}
          ${this.#chunkSaved ? html`<p class="ok" role="status">Passage size saved: it applies to documents added from now on.</p>` : nothing}
          <p><button type="submit">Save passage size</button></p>
        </form>
      </section>
      <section class="card" aria-labelledby="kb-settings">
        <h2 id="kb-settings">Name and deletion</h2>
        <form @submit=${(event: SubmitEvent) => this.rename(event)} novalidate aria-label="Rename the knowledge base">
          <label for="kb-rename">Name</label>
          <input id="kb-rename" name="name" .value=${kb.name} aria-describedby=${describedBy(settingsErrors, "name")} />
          ${fieldError(settingsErrors, "name")}
          <label for="kb-redescribe">Description</label>
          <input id="kb-redescribe" name="description" .value=${kb.description ?? ""}
            aria-describedby=${describedBy(settingsErrors, "description")} />
          ${fieldError(settingsErrors, "description")}
          ${formMessage(settingsErrors)}
          ${this.#renamed ? html`<p class="ok" role="status">Saved.</p>` : nothing}
          <p class="row"><button type="submit">Save name</button>
            <button type="button" class="danger" @click=${() => this.deleteKnowledgebase(kb)}>Delete knowledge base</button></p>
        </form>
      </section>`;
  }
}
