import { createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

export type Encoding = "br" | "gzip" | "identity";

/** One encoding of a file's bytes, with the strong ETag that names exactly these bytes. */
export interface Representation {
  encoding: Encoding;
  body: Uint8Array<ArrayBuffer>;
  etag: string;
}

/** A file as read once: its content hash and, lazily, each encoding of it. */
export interface FileVersion {
  /** Hex sha256 of the file's bytes. */
  sha256: string;
  representation(encoding: Encoding): Promise<Representation>;
}

/**
 * Reads, hashes and compresses each file once per version (mtime and size), in memory, so a
 * rebuilt widget is picked up without a restart while unchanged files cost one stat per request.
 * Compression runs on zlib's thread pool, at the highest levels: it happens once, and the bytes
 * go to every visitor of every site that embeds the widget.
 */
export class FileRepresentations {
  readonly #versions = new Map<string, { key: string; version: Promise<FileVersion> }>();

  /** The file's current version, or null when it is missing or not a regular file. */
  async get(path: string, compressible: boolean): Promise<FileVersion | null> {
    const info = await stat(path).catch(() => null);
    if (!info?.isFile()) return null;
    const key = `${info.mtimeMs}:${info.size}`;
    let cached = this.#versions.get(path);
    if (cached?.key !== key) {
      cached = { key, version: readVersion(path, compressible) };
      this.#versions.set(path, cached);
    }
    try {
      return await cached.version;
    } catch {
      // Removed between stat and read: forget it, so that a later build is read afresh.
      if (this.#versions.get(path) === cached) this.#versions.delete(path);
      return null;
    }
  }
}

async function readVersion(path: string, compressible: boolean): Promise<FileVersion> {
  const bytes = new Uint8Array(await readFile(path));
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const tag = sha256.slice(0, 32);
  const identity: Representation = { encoding: "identity", body: bytes, etag: `"${tag}"` };
  const encoded = new Map<Encoding, Promise<Representation>>();
  return {
    sha256,
    representation(encoding) {
      if (encoding === "identity" || !compressible) return Promise.resolve(identity);
      let representation = encoded.get(encoding);
      if (!representation) {
        representation = compress(bytes, encoding).then((body) =>
          // Tiny files can grow when compressed; then identity is the better answer.
          body.byteLength < bytes.byteLength ? { encoding, body, etag: `"${tag}-${encoding}"` } : identity,
        );
        encoded.set(encoding, representation);
      }
      return representation;
    },
  };
}

async function compress(bytes: Uint8Array, encoding: "br" | "gzip"): Promise<Uint8Array<ArrayBuffer>> {
  const body =
    encoding === "br"
      ? await brotliAsync(bytes, {
          params: {
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
          },
        })
      : await gzipAsync(bytes, { level: constants.Z_BEST_COMPRESSION });
  return new Uint8Array(body);
}

/**
 * The encoding to answer with, from `Accept-Encoding` (RFC 9110 §12.5.3): brotli when acceptable,
 * then gzip, else identity. A coding with `q=0` is refused; `*` stands for codings not named.
 */
export function negotiateEncoding(acceptEncoding: string | null): Encoding {
  if (!acceptEncoding) return "identity";
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(",")) {
    const [name = "", ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const q = params.map((param) => param.trim()).find((param) => param.startsWith("q="));
    const weight = q ? Number(q.slice(2)) : 1;
    weights.set(name === "x-gzip" ? "gzip" : name, Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (coding: string) => weights.get(coding) ?? weights.get("*") ?? 0;
  if (weightOf("br") > 0) return "br";
  if (weightOf("gzip") > 0) return "gzip";
  return "identity";
}

/** Whether `If-None-Match` names this ETag (weak comparison, as RFC 9110 §13.1.2 asks for GET). */
export function etagMatches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch
    .split(",")
    .map((candidate) => candidate.trim().replace(/^W\//, ""))
    .some((candidate) => candidate === "*" || candidate === etag);
}
