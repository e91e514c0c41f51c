import type { Document } from "../../../generated/prisma/client.ts";
import type { ExtractProgress } from "./extract.ts";

/**
 * Progress (pages read, passages stored) is stored and published at most this often, so a 500-page PDF
 * does not mean 500 writes.
 */
const PROGRESS_INTERVAL_MS = 250;

export type DocumentStage = "queued" | "fetching" | "parsing" | "chunking" | "embedding";

export interface ProgressReport {
  stage?: DocumentStage;
  pagesDone?: number;
  pagesTotal?: number;
  chunkCount?: number;
}

export type IngestionOutcome =
  | { status: "active"; chunkCount: number }
  | { status: "failed"; failureReason: string };

/**
 * How ingestion reports on a document to the owner of its state (the documents part), which alone
 * writes its status and progress, recounts its knowledge base and publishes the change. Every write
 * applies only while the document is still processing, so a deleted or finished document stays so.
 */
export interface IngestionReporter {
  /** Counts a start and clears the progress of an earlier run; null when deleted or no longer processing. */
  begin(documentId: number): Promise<Document | null>;
  report(documentId: number, progress: ProgressReport): Promise<void>;
  finish(documentId: number, outcome: IngestionOutcome): Promise<void>;
  exists(documentId: number): Promise<boolean>;
  /** Documents still processing with no word from their worker since `before`. */
  silentSince(before: Date): Promise<{ id: number; attempts: number }[]>;
}

/**
 * A document's progress, pages read and passages stored together: one write (an update, a read and a
 * publication, through Prisma on the thread that embeds) carries both, at most every
 * `PROGRESS_INTERVAL_MS`, rather than one write for each. Writes go one after another, each with the
 * newest figures, so a slower earlier write never overwrites a later one.
 */
export class ProgressReports {
  private pending: ProgressReport | null = null;
  private lastWrite = 0;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly documents: IngestionReporter,
    private readonly documentId: number,
  ) {}

  /** Keeps `progress`; writes what is kept if the interval has passed since the last write, or `now`. */
  async report(progress: ProgressReport, { now = false }: { now?: boolean } = {}): Promise<void> {
    this.pending = { ...this.pending, ...progress };
    if (!now && Date.now() - this.lastWrite < PROGRESS_INTERVAL_MS) return;
    this.lastWrite = Date.now();
    const write = this.writing.then(() => this.writePending());
    this.writing = write.catch(() => {});
    await write;
  }

  private async writePending(): Promise<void> {
    const progress = this.pending;
    this.pending = null;
    if (progress) await this.documents.report(this.documentId, progress);
  }
}

/** Pages read, through a document's progress; the last page is written at once. */
export function pageProgress(progress: ProgressReports): ExtractProgress {
  return (pagesDone, pagesTotal) =>
    progress.report({ pagesDone, pagesTotal }, { now: pagesDone >= pagesTotal });
}
