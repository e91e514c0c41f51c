import { mkdir, mkdtemp, open, readdir, rename, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Database } from "./client.ts";

/**
 * Binary content kept beside the rows it belongs to (call recordings, uploaded files). PostgreSQL
 * keeps it in the database, so that any instance reads it and a foreign key takes it with its owner:
 * `PartsTable`. The embedded PGlite serves one process by design, so its content is plain files
 * beside its data: `FileDirectory`.
 */
export type Chunks = AsyncIterable<Uint8Array> | Iterable<Uint8Array>;

/**
 * A table `("<key column>", "part", "content")` holding each key's content in parts of `partBytes`
 * (the last one shorter): small enough that neither side holds a large file twice, and equal, so
 * that a byte range maps to the parts it touches.
 */
export class PartsTable {
  constructor(
    private readonly db: Database,
    private readonly table: string,
    private readonly keyColumn: string,
    readonly partBytes: number,
  ) {}

  /** Replaces the key's content; an empty content is one empty part (stored, not missing). */
  async write(key: number, chunks: Chunks): Promise<void> {
    await this.delete(key);
    let part = 0;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const flush = async (bytes: number) => {
      // A single pending piece is cut, not copied: a large chunk becomes many parts in linear time.
      const whole = pending.length === 1 ? pending[0]! : Buffer.concat(pending, pendingBytes);
      // pg sends a Buffer parameter as binary bytea: no base64 or hex text on the way in.
      await this.query(
        `INSERT INTO "${this.table}" ("${this.keyColumn}", "part", "content") VALUES ($1, $2, $3)`,
        [key, part++, whole.subarray(0, bytes)],
      );
      const rest = whole.subarray(bytes);
      pending = rest.byteLength > 0 ? [rest] : [];
      pendingBytes = rest.byteLength;
    };
    for await (const chunk of chunks) {
      pending.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      pendingBytes += chunk.byteLength;
      while (pendingBytes >= this.partBytes) await flush(this.partBytes);
    }
    if (pendingBytes > 0 || part === 0) await flush(pendingBytes);
  }

  /** The key's stored bytes and parts (0 and 0 when nothing is stored). */
  async size(key: number): Promise<{ bytes: number; parts: number }> {
    const [row] = await this.query<{ bytes: string; parts: string }>(
      `SELECT COALESCE(SUM(octet_length("content")), 0)::text AS "bytes", count(*)::text AS "parts"
       FROM "${this.table}" WHERE "${this.keyColumn}" = $1`,
      [key],
    );
    return { bytes: Number(row?.bytes ?? 0), parts: Number(row?.parts ?? 0) };
  }

  /**
   * One part, or null past the last. One query per part: a query's result is held whole, so reading
   * all parts at once would hold the content twice.
   */
  async part(key: number, part: number): Promise<Buffer | null> {
    const [row] = await this.query<{ content: Buffer }>(
      `SELECT "content" FROM "${this.table}" WHERE "${this.keyColumn}" = $1 AND "part" = $2`,
      [key, part],
    );
    return row?.content ?? null;
  }

  async delete(key: number): Promise<void> {
    await this.query(`DELETE FROM "${this.table}" WHERE "${this.keyColumn}" = $1`, [key]);
  }

  /** The keys that have content stored, in order. */
  async keys(): Promise<number[]> {
    const rows = await this.query<{ key: number }>(
      `SELECT DISTINCT "${this.keyColumn}" AS "key" FROM "${this.table}" ORDER BY "key"`,
    );
    return rows.map((row) => row.key);
  }

  query<Row>(sql: string, params: unknown[] = []): Promise<Row[]> {
    return this.db.withConnection((connection) => connection.query<Row>(sql, params));
  }
}

/**
 * A directory of files: `configured`, or for an in-memory database a temporary one (named after
 * `temporaryPrefix`, made at the first write) removed on close.
 */
export class FileDirectory {
  private directory: Promise<string> | null;

  constructor(
    private readonly configured: string | null,
    private readonly temporaryPrefix: string,
  ) {
    this.directory = configured ? Promise.resolve(configured) : null;
  }

  /**
   * Writes `name` from `chunks`. Written as `<name>.partial` and renamed once complete: a crash never
   * leaves a truncated file under the real name.
   */
  async write(name: string, chunks: Chunks): Promise<void> {
    const directory = await this.ensureDirectory();
    const partial = join(directory, `${name}.partial`);
    const handle = await open(partial, "w");
    try {
      for await (const chunk of chunks) await handle.write(chunk);
      await handle.close();
      await rename(partial, join(directory, name));
    } catch (error) {
      await handle.close().catch(() => undefined);
      await rm(partial, { force: true });
      throw error;
    }
  }

  /** Where `name` is (whether or not it exists); null when nothing was ever written. */
  async pathOf(name: string): Promise<string | null> {
    return this.directory ? join(await this.directory, name) : null;
  }

  /** The names of the files there (none when the directory does not exist). */
  async names(): Promise<string[]> {
    if (!this.directory) return [];
    try {
      return await readdir(await this.directory);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw error;
    }
  }

  async remove(name: string): Promise<void> {
    const path = await this.pathOf(name);
    if (path) await rm(path, { force: true });
  }

  async close(): Promise<void> {
    if (this.configured || !this.directory) return;
    const directory = await this.directory;
    this.directory = null;
    await rm(directory, { recursive: true, force: true });
  }

  private ensureDirectory(): Promise<string> {
    this.directory ??= mkdtemp(join(tmpdir(), this.temporaryPrefix));
    return this.directory.then(async (directory) => {
      await mkdir(directory, { recursive: true });
      return directory;
    });
  }
}
