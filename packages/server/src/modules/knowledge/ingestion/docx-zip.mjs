// @ts-check
// Plain JavaScript on purpose: it runs in the DOCX worker (see extraction-worker-messages.ts).
import { getHeapStatistics } from "node:v8";
import { inflateCounted, Unreadable, XmlDepthGuard } from "./expansion-guard.mjs";

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const STORED = 0;
const DEFLATED = 8;
const ENCRYPTED_FLAG = 0x1;

/**
 * @typedef {object} ZipEntry
 * @property {number} method
 * @property {number} compressedSize
 * @property {number} declaredSize
 * @property {number} localHeader
 */

/**
 * A DOCX archive as mammoth reads it (its `file` input: `exists` and `read`), in place of JSZip, which
 * inflates a whole part into memory before anything can look at its size. Parts are inflated only when
 * mammoth asks for them, in steps, and every byte is counted against the document's budget as it comes
 * out; the central directory's declared sizes refuse a bomb before any inflating, but are not trusted.
 * XML parts are checked for their depth on the way.
 * @param {Uint8Array} data
 * @param {import("./expansion-guard.mjs").ExpansionBudget} budget
 */
export function openDocxZip(data, budget) {
  const { limits } = budget;
  const entries = readDirectory(data, limits, budget);

  /**
   * @param {string} name
   * @param {string} [encoding]
   * @returns {Uint8Array}
   */
  function inflate(name, encoding) {
    const entry = entries.get(name);
    if (!entry) throw new Unreadable(`no part ${name}`);
    if (budget.used + entry.declaredSize > limits.maxExpandedBytes) throw budget.refuse("expanded");
    if (
      entry.declaredSize > limits.ratioFreeBytes &&
      entry.declaredSize > limits.maxRatio * entry.compressedSize
    )
      throw budget.refuse("ratio");
    const compressed = partBytes(data, entry);
    const xml = encoding ? new XmlDepthGuard(limits.maxXmlDepth, budget) : null;
    if (entry.method === STORED) {
      budget.take(compressed.byteLength, 0, compressed.byteLength);
      xml?.feed(compressed);
      return compressed;
    }
    /** @type {Uint8Array[]} */
    const chunks = [];
    let inflated = 0;
    const produced = inflateCounted(compressed, budget, (chunk) => {
      // A part that inflates to another size than declared was altered (JSZip refused those too).
      inflated += chunk.byteLength;
      if (inflated > entry.declaredSize) throw new Unreadable(`${name} is larger than it declares`);
      xml?.feed(chunk);
      chunks.push(chunk);
    });
    if (produced !== entry.declaredSize) throw new Unreadable(`${name} is smaller than it declares`);
    return Buffer.concat(chunks, produced);
  }

  return {
    /** @param {string} name */
    exists: (name) => entries.has(name),
    /**
     * @param {string} name
     * @param {string} [encoding]
     */
    read: async (name, encoding) => {
      const bytes = inflate(name, encoding);
      // A string is one allocation (up to two bytes a character): past the heap's limit by more than a
      // little, V8 does not end the worker but the whole process, so it is refused while there is room.
      const heap = getHeapStatistics();
      if (heap.used_heap_size + 2 * bytes.byteLength > heap.heap_size_limit) throw budget.refuse("memory");
      if (encoding === "base64")
        return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
      return encoding ? new TextDecoder(encoding).decode(bytes) : bytes;
    },
  };
}

/**
 * The archive's parts from its central directory, refused when there are more than a document has.
 * @param {Uint8Array} data
 * @param {import("./extraction-worker-messages.ts").ExpansionLimits} limits
 * @param {import("./expansion-guard.mjs").ExpansionBudget} budget
 * @returns {Map<string, ZipEntry>}
 */
function readDirectory(data, limits, budget) {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let end = -1;
  // The end record is the last thing in the file, followed by a comment of at most 65,535 bytes.
  for (let at = data.byteLength - 22; at >= Math.max(0, data.byteLength - 22 - 0xffff); at--) {
    if (view.getUint32(at, true) === END_OF_DIRECTORY) {
      end = at;
      break;
    }
  }
  if (end < 0) throw new Unreadable("no end of central directory");
  const count = view.getUint16(end + 10, true);
  const directoryOffset = view.getUint32(end + 16, true);
  // Zip64 (more than 65,535 parts or 4 GB) is not something a DOCX within the upload limit needs.
  if (count === 0xffff || directoryOffset === 0xffffffff) throw new Unreadable("zip64");
  if (count > limits.maxZipEntries) throw budget.refuse("entries");
  /** @type {Map<string, ZipEntry>} */
  const entries = new Map();
  const names = new TextDecoder();
  let at = directoryOffset;
  for (let index = 0; index < count; index++) {
    if (at + 46 > data.byteLength || view.getUint32(at, true) !== DIRECTORY_ENTRY)
      throw new Unreadable("bad central directory");
    const flags = view.getUint16(at + 8, true);
    const method = view.getUint16(at + 10, true);
    const compressedSize = view.getUint32(at + 20, true);
    const declaredSize = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const localHeader = view.getUint32(at + 42, true);
    const name = names.decode(data.subarray(at + 46, at + 46 + nameLength));
    at += 46 + nameLength + extraLength + commentLength;
    if (flags & ENCRYPTED_FLAG || (method !== STORED && method !== DEFLATED)) continue;
    if (!entries.has(name)) entries.set(name, { method, compressedSize, declaredSize, localHeader });
  }
  return entries;
}

/**
 * @param {Uint8Array} data
 * @param {ZipEntry} entry
 */
function partBytes(data, entry) {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const at = entry.localHeader;
  if (at + 30 > data.byteLength || view.getUint32(at, true) !== LOCAL_HEADER)
    throw new Unreadable("bad local header");
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  const end = start + entry.compressedSize;
  if (end > data.byteLength) throw new Unreadable("part runs past the end of the file");
  return data.subarray(start, end);
}
