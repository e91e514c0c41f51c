import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { FileDirectory, PartsTable } from "../../../db/binary-parts.ts";
import type { Database } from "../../../db/client.ts";
import type { UploadedFile } from "./file-types.ts";

/**
 * Where an uploaded file waits until its document is processed. Saving streams the file in, so the
 * upload is never copied whole a second time; reading returns it in one buffer for the extractors.
 */
export interface UploadStore {
  save(documentId: number, file: UploadedFile): Promise<void>;
  /** The file, or null when it is missing or incomplete (the server stopped while it was saved). */
  read(documentId: number, sizeBytes: number): Promise<Buffer | null>;
  /** Whether the whole file is stored (what `read` would return), without reading it. */
  has(documentId: number, sizeBytes: number): Promise<boolean>;
  delete(documentId: number): Promise<void>;
  /** Documents that have an upload stored, in id order. */
  storedDocumentIds(): Promise<number[]>;
  /**
   * Removes uploads whose document is gone or active: deleted with its knowledge base or account, or
   * a stop between finishing a document and deleting its upload. A failed document keeps its upload,
   * so that it can be processed again without uploading it again.
   */
  removeOrphans(): Promise<void>;
  close(): Promise<void>;
}

/**
 * PostgreSQL keeps uploads in the database, so whichever instance takes the job can read them; the
 * embedded PGlite serves one process by design, so its uploads are plain files beside its data
 * (`<data dir>/uploads/`, or a temporary directory for an in-memory database): `db/binary-parts.ts`.
 */
export function createUploadStore(db: Database): UploadStore {
  if (db.kind === "postgres") return new DatabaseUploadStore(db);
  return new DirectoryUploadStore(db, db.dataDir ? join(db.dataDir, "uploads") : null);
}

/** Reads a web stream chunk by chunk (works for native streams and the server's fetch ponyfill alike). */
async function* chunksOf(file: UploadedFile): AsyncGenerator<Uint8Array> {
  const reader = file.stream().getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      if (value.byteLength > 0) yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

/** Bytes per stored part: small so that neither side holds the file twice. */
const PART_BYTES = 1024 * 1024;

class DatabaseUploadStore implements UploadStore {
  private readonly parts: PartsTable;

  constructor(db: Database) {
    this.parts = new PartsTable(db, "document_uploads", "documentId", PART_BYTES);
  }

  save(documentId: number, file: UploadedFile): Promise<void> {
    return this.parts.write(documentId, chunksOf(file));
  }

  async read(documentId: number, sizeBytes: number): Promise<Buffer | null> {
    const content = Buffer.alloc(sizeBytes);
    let offset = 0;
    for (let part = 0; ; part++) {
      const piece = await this.parts.part(documentId, part);
      if (!piece) break;
      if (offset + piece.byteLength > sizeBytes) return null;
      piece.copy(content, offset);
      offset += piece.byteLength;
    }
    return offset === sizeBytes ? content : null;
  }

  async has(documentId: number, sizeBytes: number): Promise<boolean> {
    return (await this.parts.size(documentId)).bytes === sizeBytes;
  }

  delete(documentId: number): Promise<void> {
    return this.parts.delete(documentId);
  }

  storedDocumentIds(): Promise<number[]> {
    return this.parts.keys();
  }

  async removeOrphans(): Promise<void> {
    // Deleted documents take their parts with them (foreign key cascade); active ones may not.
    await this.parts.query(
      `DELETE FROM "document_uploads" AS upload USING "documents" AS document
        WHERE document."id" = upload."documentId" AND document."status" = 'active'`,
    );
  }

  async close(): Promise<void> {}
}

class DirectoryUploadStore implements UploadStore {
  private readonly files: FileDirectory;

  /** `configured` null: an in-memory database, whose uploads go to a temporary directory removed on close. */
  constructor(
    private readonly db: Database,
    configured: string | null,
  ) {
    this.files = new FileDirectory(configured, "voxgate-uploads-");
  }

  save(documentId: number, file: UploadedFile): Promise<void> {
    return this.files.write(String(documentId), chunksOf(file));
  }

  async read(documentId: number, sizeBytes: number): Promise<Buffer | null> {
    const path = await this.files.pathOf(String(documentId));
    if (!path) return null;
    try {
      const content = await readFile(path);
      return content.byteLength === sizeBytes ? content : null;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    }
  }

  async has(documentId: number, sizeBytes: number): Promise<boolean> {
    const path = await this.files.pathOf(String(documentId));
    if (!path) return false;
    try {
      return (await stat(path)).size === sizeBytes;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
      throw error;
    }
  }

  /** A `.partial` file is left alone: a failed save removes its own, and the sweep removes a crashed one. */
  delete(documentId: number): Promise<void> {
    return this.files.remove(String(documentId));
  }

  async storedDocumentIds(): Promise<number[]> {
    return [...new Set((await this.entries()).map((entry) => entry.documentId))].sort((a, b) => a - b);
  }

  async removeOrphans(): Promise<void> {
    const entries = await this.entries();
    if (entries.length === 0) return;
    const unfinished = await this.db.prisma.document.findMany({
      where: { id: { in: entries.map((entry) => entry.documentId) }, status: { not: "active" } },
      select: { id: true },
    });
    const keep = new Set(unfinished.map((document) => document.id));
    for (const entry of entries) if (!keep.has(entry.documentId)) await this.files.remove(entry.name);
  }

  close(): Promise<void> {
    return this.files.close();
  }

  private async entries(): Promise<{ name: string; documentId: number }[]> {
    return (await this.files.names()).flatMap((name) => {
      const match = /^(\d+)(\.partial)?$/.exec(name);
      return match ? [{ name, documentId: Number(match[1]) }] : [];
    });
  }
}
