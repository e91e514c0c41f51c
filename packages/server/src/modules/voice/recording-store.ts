import { open, stat } from "node:fs/promises";
import { join } from "node:path";
import { FileDirectory, PartsTable } from "../../db/binary-parts.ts";
import type { Database } from "../../db/client.ts";

/** A stored recording, or the byte range of it asked for. */
export interface StoredRecording {
  size: number;
  /** The bytes from `start` to `end` inclusive, in pieces. */
  read(start: number, end: number): AsyncIterable<Buffer>;
}

/**
 * Where call recordings are kept, as uploads are (`db/binary-parts.ts`): in the database on
 * PostgreSQL, so any instance serves them and they go with their call (foreign key); as files beside
 * the embedded database's data otherwise (`<data dir>/recordings/<call id>.wav`).
 */
export interface RecordingStore {
  save(callId: number, parts: readonly Uint8Array[]): Promise<void>;
  open(callId: number): Promise<StoredRecording | null>;
  /** Deletes the call's recording (retention, erasure: docs/data-governance.md); one already gone is not an error. */
  remove(callId: number): Promise<void>;
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
  private readonly parts: PartsTable;

  constructor(db: Database) {
    this.parts = new PartsTable(db, "call_recording_parts", "callId", PART_BYTES);
  }

  save(callId: number, parts: readonly Uint8Array[]): Promise<void> {
    return this.parts.write(callId, parts);
  }

  async open(callId: number): Promise<StoredRecording | null> {
    const { bytes, parts } = await this.parts.size(callId);
    if (parts === 0) return null;
    const table = this.parts;
    return {
      size: bytes,
      async *read(start: number, end: number) {
        // Only the parts the range touches, one query each.
        for (let part = Math.floor(start / PART_BYTES); part <= Math.floor(end / PART_BYTES); part++) {
          const content = await table.part(callId, part);
          if (!content) return;
          const base = part * PART_BYTES;
          yield content.subarray(Math.max(0, start - base), end - base + 1);
        }
      },
    };
  }

  remove(callId: number): Promise<void> {
    return this.parts.delete(callId);
  }

  async removeOrphans(): Promise<void> {}

  async close(): Promise<void> {}
}

class DirectoryRecordingStore implements RecordingStore {
  private readonly files: FileDirectory;

  /** `configured` null: an in-memory database, whose recordings go to a temporary directory removed on close. */
  constructor(
    private readonly db: Database,
    configured: string | null,
  ) {
    this.files = new FileDirectory(configured, "voxgate-recordings-");
  }

  save(callId: number, parts: readonly Uint8Array[]): Promise<void> {
    return this.files.write(`${callId}.wav`, parts);
  }

  async open(callId: number): Promise<StoredRecording | null> {
    const path = await this.files.pathOf(`${callId}.wav`);
    if (!path) return null;
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

  remove(callId: number): Promise<void> {
    return this.files.remove(`${callId}.wav`);
  }

  async removeOrphans(): Promise<void> {
    const names = await this.files.names();
    const ids = names.flatMap((name) => {
      const match = /^(\d+)\.wav$/.exec(name);
      return match ? [Number(match[1])] : [];
    });
    const calls = await this.db.prisma.call.findMany({ where: { id: { in: ids } }, select: { id: true } });
    const kept = new Set(calls.map((call) => `${call.id}.wav`));
    for (const name of names) if (!kept.has(name)) await this.files.remove(name);
  }

  close(): Promise<void> {
    return this.files.close();
  }
}
