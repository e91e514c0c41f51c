import { html } from "lit";
import type { ConsoleKnowledgebasesQuery } from "../generated/graphql.ts";
import { href, navigate } from "../router.ts";
import { DataScreen, emptyState, fieldError, formMessage } from "../screen.ts";
import { knowledgebaseStatus } from "../status-words.ts";
import { CreateKnowledgebaseMutation, KnowledgebasesQuery } from "./knowledge.operations.ts";

/** The account's knowledge bases, and a form to create one (which then opens). */
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
