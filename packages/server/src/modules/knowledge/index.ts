import type { ServiceDeps } from "../../deps.ts";
import type { EventSink } from "../../events.ts";
import type { JobQueue } from "../../jobs/index.ts";
import { createEmbedder } from "../embeddings/embedder.ts";
import { DocumentStates } from "./documents/document-states.ts";
import { DocumentsService } from "./documents/documents.service.ts";
import { createUploadStore } from "./ingestion/upload-store.ts";
import { IngestionWorker } from "./ingestion/worker.ts";
import { KnowledgebasesService } from "./knowledgebases/knowledgebases.service.ts";
import { KnowledgeSearch } from "./knowledgebases/search.ts";

export type {
  DocumentProgress,
  KnowledgebaseProgress,
} from "./documents/document-states.ts";
export type { Passage, SearchMode } from "./knowledgebases/search.ts";

/**
 * The knowledge module's three parts, wired together: knowledge bases (and search in them), their
 * documents (with `DocumentStates`, the one writer of a document's state), and ingestion, the
 * background worker that reports to `DocumentStates`. Listed in the order they start.
 */
export function createKnowledge(deps: ServiceDeps, jobs: JobQueue, events: EventSink) {
  const embedder = createEmbedder(deps.config);
  const uploads = createUploadStore(deps.db);
  const states = new DocumentStates(deps, uploads, events);
  const knowledgebases = new KnowledgebasesService(deps, new KnowledgeSearch(deps.db, embedder), uploads);
  const ingestion = new IngestionWorker(deps, jobs, embedder, uploads, states);
  const documents = new DocumentsService(deps, knowledgebases, states, uploads, ingestion);
  return { knowledgebases, documents, ingestion };
}
