import type { ServiceDeps } from "../../../deps.ts";
import type { Prisma } from "../../../generated/prisma/client.ts";
import { storableText } from "../../../storable-text.mjs";
import { type Chunk, type ChunkingOptions, chunkStream } from "./chunking.ts";
import { extractFile, extractPdf, type Section } from "./extract.ts";
import { IngestionFailure } from "./failure.ts";
import { detectFileType, type FileDocumentType } from "./file-types.ts";
import { type IngestionReporter, type ProgressReports, pageProgress } from "./progress-reports.ts";
import type { UploadStore } from "./upload-store.ts";
import { readWebsite } from "./website.ts";

/** What reading a document's source needs to know of it. */
export interface SourceDocument {
  id: number;
  type: string;
  url: string | null;
  links: Prisma.JsonValue;
  relativeLinksLimit: number | null;
  sizeBytes: number | null;
}

/**
 * Reading a document's source into passages: a website crawled, an upload (PDF, DOCX, text) extracted,
 * cut as it is read, with the document's stage and pages read reported on the way.
 */
export class DocumentPassages {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly uploads: UploadStore,
    private readonly documents: IngestionReporter,
  ) {}

  /**
   * The document's passages as they are cut. A PDF is cut in its extraction worker, page by page; other
   * sources here, as their sections are read. When the source is read to its end, the document enters the
   * "chunking" stage (what is left is cutting, embedding and storing).
   */
  async *read(
    document: SourceDocument,
    progress: ProgressReports,
    signal: AbortSignal,
    chunking: ChunkingOptions,
  ): AsyncGenerator<Chunk> {
    if (document.type !== "pdf") {
      yield* chunkStream(this.readSource(document, progress, signal), signal, chunking);
      return;
    }
    const content = await this.readUpload(document, "pdf");
    yield* extractPdf(content, pageProgress(progress), signal, { chunking });
    await this.enterChunking(document.id, signal);
  }

  /** The sections of a website, DOCX or text document as they are read, made storable. */
  private async *readSource(
    document: SourceDocument,
    progress: ProgressReports,
    signal: AbortSignal,
  ): AsyncGenerator<Section> {
    // One section is read ahead, so the stage changes as soon as the last one is read, not after it is
    // chunked: a text file is a single section.
    const sections = this.extractSource(document, progress, signal);
    try {
      let next = await sections.next();
      if (next.done) await this.enterChunking(document.id, signal);
      while (!next.done) {
        const section = next.value;
        next = await sections.next();
        if (next.done) await this.enterChunking(document.id, signal);
        yield { ...section, text: storableText(section.text) };
      }
    } finally {
      await sections.return(undefined);
    }
  }

  private async enterChunking(documentId: number, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    await this.documents.report(documentId, { stage: "chunking" });
  }

  private async *extractSource(
    document: SourceDocument,
    progress: ProgressReports,
    signal: AbortSignal,
  ): AsyncGenerator<Section> {
    if (document.type === "website") {
      const source = document.url
        ? { kind: "crawl" as const, url: document.url, relativeLinksLimit: document.relativeLinksLimit ?? 0 }
        : { kind: "links" as const, links: (document.links as string[] | null) ?? [] };
      const sections = await readWebsite(source, {
        allowList: this.deps.config.outboundAllowList,
        signal,
        onProgress: pageProgress(progress),
      });
      await this.documents.report(document.id, { stage: "parsing" });
      yield* sections;
      return;
    }
    const type = document.type === "docx" ? "docx" : "txt";
    yield* await extractFile(type, await this.readUpload(document, type), signal);
  }

  /** The uploaded file, checked to be of the document's type. */
  private async readUpload(document: SourceDocument, type: FileDocumentType): Promise<Uint8Array> {
    const content = await this.uploads.read(document.id, document.sizeBytes ?? 0);
    if (!content) throw new IngestionFailure("The uploaded file is no longer available; upload it again.");
    if (detectFileType(content) !== type)
      throw new IngestionFailure(`The file is not a valid ${document.type.toUpperCase()} file.`);
    return content;
  }
}
