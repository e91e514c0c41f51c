import { mkdir, mkdtemp, open, readdir, rename, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Database } from "../../db/client.ts";

/** A stored recording, or the byte range of it asked for. */
export interface StoredRecording {
  size: number;
  /** The bytes from `start` to `end` inclusive, in pieces. */
  read(start: number, end: number): AsyncIterable<Buffer>;
}

/**
 * Where call recordings are kept, as uploads are (`knowledge/ingestion/upload-store.ts`): in the
 * database on PostgreSQL, so any instance serves them and they go with their call (foreign key);
 * as files beside the embedded database's data otherwise (`<data dir>/recordings/<call id>.wav`).
 */
export interface RecordingStore {
  save(callId: number, parts: readonly Uint8Array[]): Promise<void>;
  open(callId: number): Promise<StoredRecording | null>;
  /**
   * Removes what a crash left half-written, and recordings whose call is gone (on PostgreSQL the
   * foreign key takes them with their call).
   */
  removeOrphans(): Promise<void>;
  close(): Promise<void>;
}

export function createRecordingStore(db: Database): RecordingStore {
  if (db.kind === "postgres") return new DatabaseRecordingStore(db);
  return new DirectoryRecordingStore(db, db.dataDir ? join(db.dataDir, "recordings") : null);
}

/** Bytes per stored part: small enough that neither side holds a long recording twice. */
const PART_BYTES = 256 * 1024;

class DatabaseRecordingStore implements RecordingStore {
  constructor(private readonly db: Database) {}

  async save(callId: number, parts: readonly Uint8Array[]): Promise<void> {
    const whole = Buffer.concat(parts);
    await this.query(`DELETE FROM "call_recording_parts" WHERE "callId" = $1`, [callId]);
    for (let part = 0, offset = 0; offset < whole.length || part === 0; part++, offset += PART_BYTES) {
      await this.query(
        `INSERT INTO "call_recording_parts" ("callId", "part", "content") VALUES ($1, $2, $3)`,
        [callId, part, whole.subarray(offset, offset + PART_BYTES)],
      );
    }
  }

  async open(callId: number): Promise<StoredRecording | null> {
    const [row] = await this.query<{ size: string | null; parts: string }>(
      `SELECT sum(octet_length("content")) AS "size", count(*) AS "parts"
       FROM "call_recording_parts" WHERE "callId" = $1`,
      [callId],
    );
    if (!row || Number(row.parts) === 0) return null;
    const query = this.query.bind(this);
    return {
      size: Number(row.size),
      async *read(start: number, end: number) {
        // Only the parts the range touches, one query each.
        for (let part = Math.floor(start / PART_BYTES); part <= Math.floor(end / PART_BYTES); part++) {
          const [piece] = await query<{ content: Buffer }>(
            `SELECT "content" FROM "call_recording_parts" WHERE "callId" = $1 AND "part" = $2`,
            [callId, part],
          );
          if (!piece) return;
          const base = part * PART_BYTES;
          yield piece.content.subarray(Math.max(0, start - base), end - base + 1);
        }
      },
    };
  }

  async delete(callId: number): Promise<void> {
    await this.query(`DELETE FROM "call_recording_parts" WHERE "callId" = $1`, [callId]);
  }

  async removeOrphans(): Promise<void> {}

  async close(): Promise<void> {}

  private query<Row>(sql: string, params: unknown[] = []): Promise<Row[]> {
    return this.db.withConnection((connection) => connection.query<Row>(sql, params));
  }
}

class DirectoryRecordingStore implements RecordingStore {
  private directory: Promise<string> | null;

  /** `configured` null: an in-memory database, whose recordings go to a temporary directory removed on close. */
  constructor(
    private readonly db: Database,
    private readonly configured: string | null,
  ) {
    this.directory = configured ? Promise.resolve(configured) : null;
  }

  async save(callId: number, parts: readonly Uint8Array[]): Promise<void> {
    const directory = await this.ensureDirectory();
    // Renamed once complete: a crash never leaves a truncated file under the served name.
    const partial = join(directory, `${callId}.wav.partial`);
    const handle = await open(partial, "w");
    try {
      for (const part of parts) await handle.write(part);
      await handle.close();
      await rename(partial, this.path(directory, callId));
    } catch (error) {
      await handle.close().catch(() => undefined);
      await rm(partial, { force: true });
      throw error;
    }
  }

  async open(callId: number): Promise<StoredRecording | null> {
    if (!this.directory) return null;
    const path = this.path(await this.directory, callId);
    const size = await stat(path).then(
      (stats) => stats.size,
      () => null,
    );
    if (size === null) return null;
    return {
      size,
      async *read(start: number, end: number) {
        const handle = await open(path, "r");
        try {
          for await (const chunk of handle.createReadStream({ start, end, autoClose: false }))
            yield chunk as Buffer;
        } finally {
          await handle.close();
        }
      },
    };
  }

  async delete(callId: number): Promise<void> {
    if (!this.directory) return;
    await rm(this.path(await this.directory, callId), { force: true });
  }

  async removeOrphans(): Promise<void> {
    if (!this.directory) return;
    const directory = await this.directory;
    const names = await readdir(directory).catch(() => [] as string[]);
    const ids = names.flatMap((name) => {
      const match = /^(\d+)\.wav$/.exec(name);
      return match ? [Number(match[1])] : [];
    });
    const calls = await this.db.prisma.call.findMany({ where: { id: { in: ids } }, select: { id: true } });
    const kept = new Set(calls.map((call) => `${call.id}.wav`));
    for (const name of names) if (!kept.has(name)) await rm(join(directory, name), { force: true });
  }

  async close(): Promise<void> {
    if (this.configured || !this.directory) return;
    const directory = await this.directory;
    this.directory = null;
    await rm(directory, { recursive: true, force: true });
  }

  private path(directory: string, callId: number) {
    return join(directory, `${callId}.wav`);
  }

  private ensureDirectory(): Promise<string> {
    this.directory ??= mkdtemp(join(tmpdir(), "voxgate-recordings-"));
    return this.directory.then(async (directory) => {
      await mkdir(directory, { recursive: true });
      return directory;
    });
  }
}
