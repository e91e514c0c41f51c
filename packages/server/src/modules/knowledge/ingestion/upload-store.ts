import { mkdir, mkdtemp, open, readdir, readFile, rename, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
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
 * (`<data dir>/uploads/`, or a temporary directory for an in-memory database).
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

/** A part is written once this many bytes are pending: parts stay small so neither side holds the file twice. */
const PART_BYTES = 1024 * 1024;

class DatabaseUploadStore implements UploadStore {
  constructor(private readonly db: Database) {}

  async save(documentId: number, file: UploadedFile): Promise<void> {
    let part = 0;
    let pending: Uint8Array[] = [];
    let pendingBytes = 0;
    const flush = async () => {
      // pg sends a Buffer parameter as binary bytea: no base64 or hex text on the way in.
      await this.query(
        `INSERT INTO "document_uploads" ("documentId", "part", "content") VALUES ($1, $2, $3)`,
        [documentId, part++, Buffer.concat(pending, pendingBytes)],
      );
      pending = [];
      pendingBytes = 0;
    };
    for await (const chunk of chunksOf(file)) {
      pending.push(chunk);
      pendingBytes += chunk.byteLength;
      if (pendingBytes >= PART_BYTES) await flush();
    }
    if (pendingBytes > 0 || part === 0) await flush();
  }

  async read(documentId: number, sizeBytes: number): Promise<Buffer | null> {
    const content = Buffer.alloc(sizeBytes);
    let offset = 0;
    // One part per query: the result of a query is held whole, so reading all parts at once would
    // hold the file twice.
    for (let part = 0; ; part++) {
      const [row] = await this.query<{ content: Buffer }>(
        `SELECT "content" FROM "document_uploads" WHERE "documentId" = $1 AND "part" = $2`,
        [documentId, part],
      );
      if (!row) break;
      if (offset + row.content.byteLength > sizeBytes) return null;
      row.content.copy(content, offset);
      offset += row.content.byteLength;
    }
    return offset === sizeBytes ? content : null;
  }

  async has(documentId: number, sizeBytes: number): Promise<boolean> {
    const [row] = await this.query<{ size: string }>(
      `SELECT COALESCE(SUM(octet_length("content")), 0)::text AS "size" FROM "document_uploads" WHERE "documentId" = $1`,
      [documentId],
    );
    return Number(row?.size ?? 0) === sizeBytes;
  }

  async delete(documentId: number): Promise<void> {
    await this.query(`DELETE FROM "document_uploads" WHERE "documentId" = $1`, [documentId]);
  }

  async storedDocumentIds(): Promise<number[]> {
    const rows = await this.query<{ documentId: number }>(
      `SELECT DISTINCT "documentId" FROM "document_uploads" ORDER BY "documentId"`,
    );
    return rows.map((row) => row.documentId);
  }

  async removeOrphans(): Promise<void> {
    // Deleted documents take their parts with them (foreign key cascade); active ones may not.
    await this.query(
      `DELETE FROM "document_uploads" AS upload USING "documents" AS document
        WHERE document."id" = upload."documentId" AND document."status" = 'active'`,
    );
  }

  async close(): Promise<void> {}

  private query<Row>(sql: string, params: unknown[] = []): Promise<Row[]> {
    return this.db.withConnection((connection) => connection.query<Row>(sql, params));
  }
}

class DirectoryUploadStore implements UploadStore {
  private directory: Promise<string> | null;

  /** `configured` null: an in-memory database, whose uploads go to a temporary directory removed on close. */
  constructor(
    private readonly db: Database,
    private readonly configured: string | null,
  ) {
    this.directory = configured ? Promise.resolve(configured) : null;
  }

  async save(documentId: number, file: UploadedFile): Promise<void> {
    const directory = await this.ensureDirectory();
    // Written under another name and renamed when complete, so a crash never leaves a truncated file
    // under the real name.
    const partial = join(directory, `${documentId}.partial`);
    const handle = await open(partial, "w");
    try {
      for await (const chunk of chunksOf(file)) await handle.write(chunk);
      await handle.close();
      await rename(partial, join(directory, String(documentId)));
    } catch (error) {
      await handle.close().catch(() => undefined);
      await rm(partial, { force: true });
      throw error;
    }
  }

  async read(documentId: number, sizeBytes: number): Promise<Buffer | null> {
    if (!this.directory) return null;
    try {
      const content = await readFile(join(await this.directory, String(documentId)));
      return content.byteLength === sizeBytes ? content : null;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    }
  }

  async has(documentId: number, sizeBytes: number): Promise<boolean> {
    if (!this.directory) return false;
    try {
      return (await stat(join(await this.directory, String(documentId)))).size === sizeBytes;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
      throw error;
    }
  }

  /** A `.partial` file is left alone: a failed save removes its own, and the sweep removes a crashed one. */
  async delete(documentId: number): Promise<void> {
    if (!this.directory) return;
    await rm(join(await this.directory, String(documentId)), { force: true });
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
    const directory = await this.directory!;
    for (const entry of entries) {
      if (!keep.has(entry.documentId)) await rm(join(directory, entry.name), { force: true });
    }
  }

  async close(): Promise<void> {
    if (this.configured || !this.directory) return;
    const directory = await this.directory;
    this.directory = null;
    await rm(directory, { recursive: true, force: true });
  }

  private ensureDirectory(): Promise<string> {
    this.directory ??= mkdtemp(join(tmpdir(), "voxgate-uploads-"));
    return this.directory.then(async (directory) => {
      await mkdir(directory, { recursive: true });
      return directory;
    });
  }

  private async entries(): Promise<{ name: string; documentId: number }[]> {
    if (!this.directory) return [];
    let names: string[];
    try {
      names = await readdir(await this.directory);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw error;
    }
    return names.flatMap((name) => {
      const match = /^(\d+)(\.partial)?$/.exec(name);
      return match ? [{ name, documentId: Number(match[1]) }] : [];
    });
  }
}
