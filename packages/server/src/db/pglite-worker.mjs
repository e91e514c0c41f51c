// The embedded PostgreSQL (PGlite, WebAssembly) in a child process of its own (src/db/pglite.ts forks
// it), so that queries and ingestion batches never run on the thread that answers HTTP, and its
// WebAssembly memory is not the server's. The app reaches it as an ordinary PostgreSQL server:
// node-postgres over a Unix socket in the data directory (loopback port 0 for an in-memory
// database), the same adapter and code paths as a real PostgreSQL.
//
// Plain JavaScript on purpose: no TypeScript loader is needed here, under tsx or compiled.
import { readFile } from "node:fs/promises";
import { createServer } from "node:net";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite/vector";

// The parent stops this process through the IPC channel once its clients are done, so that what a
// client was told is committed is on disk. A terminal's Ctrl-C reaches the whole process group: the
// signal is left to the parent, which closes the database in order.
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => {});
// Before the database is open, a parent that goes away leaves nothing to flush.
const exitEarly = () => process.exit(0);
process.once("disconnect", exitEarly);

/**
 * PGlite's WebAssembly is compiled (on V8's background threads) and its file-system image read while
 * the options are still to come: `npm start` forks this process before it checks the build and loads
 * the server (scripts/start.mjs). Both are PGlite's documented options for a precompiled module and a
 * preloaded image; should its files move, PGlite loads them itself as before.
 */
const pgliteDist = new URL(".", import.meta.resolve("@electric-sql/pglite"));
const preloaded = Promise.all([
  readFile(new URL("pglite.wasm", pgliteDist)).then((bytes) => WebAssembly.compile(bytes)),
  readFile(new URL("pglite.data", pgliteDist)).then((bytes) => new Blob([bytes])),
]).then(
  ([pgliteWasmModule, fsBundle]) => ({ pgliteWasmModule, fsBundle }),
  () => ({}),
);

// A process started to replace another (src/db/pglite.ts, recycling) is switched to once it is this far.
preloaded.then(() => process.send?.({ kind: "preloaded" }));

/** The first message carries the options; a dump to start from (tests) can be tens of megabytes. */
const options = await new Promise((resolve) => process.once("message", resolve));
/** @type {{ location?: string; loadDataDir?: Uint8Array; socketPath?: string; sharedBuffers: string }} */
const { location, loadDataDir, socketPath, sharedBuffers } = options;

/**
 * PGlite's own start parameters (its defaults) plus:
 * - the buffer pool's size. PostgreSQL zeroes its shared buffers at start, so they are resident from
 *   the first moment: PGlite's default of 128 MB was most of the process's memory while idle. The data
 *   files stay in the operating system's cache.
 * - WAL segments created without writing 16 MB of zeros first. No checkpoint runs in ordinary work
 *   here (a server's checkpoints recycle old segments or prepare the next), so the statement that
 *   filled a segment created the next one itself, zeros written 8 KB at a time into a file the
 *   in-memory file system regrows by an eighth each time: an ingestion INSERT that took 30 ms took up
 *   to 450 ms then, and every request waited behind it (bench/embedded-store). The zeros only reserve
 *   disk space early; running out of it stops this backend either way.
 */
const START_PARAMS = [
  ...PGlite.defaultStartParams,
  "-c",
  `shared_buffers=${sharedBuffers}`,
  "-c",
  "wal_init_zero=off",
];

const SSL_REQUEST = 80877103;
const CANCEL_REQUEST = 80877102;
const GSS_REQUEST = 80877104;
const SYNC = Buffer.from([0x53, 0, 0, 0, 4]);
const ROLLBACK = queryMessage("ROLLBACK");

const pglite = await PGlite.create({
  ...(await preloaded),
  ...(location ? { dataDir: location } : {}),
  ...(loadDataDir ? { loadDataDir: new Blob([loadDataDir]) } : {}),
  extensions: { vector },
  startParams: START_PARAMS,
});
let closing = false;
// The parent died without closing it (killed): nobody can reach the database any more, and a new
// server may take the data directory over, so flush what is committed and go.
process.off("disconnect", exitEarly);
process.once("disconnect", () => {
  if (closing) return;
  closing = true;
  pglite.close().finally(() => process.exit(0));
});

/** Connections that announce this `application_name` do background work (ingestion, jobs). */
const BACKGROUND_APPLICATION = "voxgate:background";
/**
 * After an interactive exchange, the backend is kept this long for the next interactive one before a
 * waiting background exchange gets it: a request runs a few queries one after another, with a little
 * work of the app's between them, and should not wait behind a background statement before each.
 */
const INTERACTIVE_GRACE_MS = 4;
/** A background exchange waits at most this long behind interactive ones, so load never starves it. */
const BACKGROUND_MAX_WAIT_MS = 250;

/**
 * PGlite is one PostgreSQL backend; each client connection gets it for a whole exchange (messages up
 * to Sync or a simple Query), and for a whole transaction when one is open, so that exchanges of
 * different connections never interleave (an unnamed statement or portal of one would be bound by
 * another). @electric-sql/pglite-socket 0.1.x hands the backend over between single messages, which
 * mixes connections up as soon as a message spans two socket reads (multi-megabyte parameters).
 *
 * Interactive exchanges (requests) go before background ones, so a request waits for at most the one
 * background statement already running; background work keeps its statements short for that reason.
 */
class Turns {
  /** @type {Array<() => void>} */
  interactive = [];
  /** @type {Array<{ grant: () => void; since: number }>} */
  background = [];
  held = false;
  /** When an interactive exchange last gave the backend back (performance.now()). */
  interactiveEnded = -Infinity;
  /** @type {NodeJS.Timeout | null} */
  graceTimer = null;

  /** @param {boolean} isBackground @returns {Promise<void>} */
  take(isBackground) {
    if (!this.held && !this.graceTimer && (!isBackground || !this.inGrace())) {
      this.held = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      if (isBackground) this.background.push({ grant: resolve, since: performance.now() });
      else this.interactive.push(resolve);
      if (!this.held) this.next();
    });
  }

  /** @param {boolean} wasBackground */
  give(wasBackground) {
    if (!wasBackground) this.interactiveEnded = performance.now();
    this.held = false;
    this.next();
  }

  inGrace() {
    return performance.now() - this.interactiveEnded < INTERACTIVE_GRACE_MS;
  }

  next() {
    if (this.held) return;
    if (this.graceTimer) {
      clearTimeout(this.graceTimer);
      this.graceTimer = null;
    }
    const oldest = this.background[0];
    const starved = oldest !== undefined && performance.now() - oldest.since >= BACKGROUND_MAX_WAIT_MS;
    const interactive = starved ? undefined : this.interactive.shift();
    if (interactive) {
      this.held = true;
      interactive();
      return;
    }
    if (!oldest) return;
    if (!starved && this.inGrace()) {
      const remaining = INTERACTIVE_GRACE_MS - (performance.now() - this.interactiveEnded);
      this.graceTimer = setTimeout(
        () => {
          this.graceTimer = null;
          this.next();
        },
        Math.max(1, remaining),
      );
      return;
    }
    this.background.shift();
    this.held = true;
    oldest.grant();
  }
}

const turns = new Turns();
/** @type {Set<import("node:net").Socket>} */
const sockets = new Set();

/** @param {import("node:net").Socket} socket */
function serve(socket) {
  sockets.add(socket);
  socket.setNoDelay(true);
  let buffered = Buffer.alloc(0);
  let started = false;
  let holding = false;
  let midExchange = false;
  let closed = false;
  /** Set from the startup message: whether this connection's exchanges yield to interactive ones. */
  let isBackground = false;
  /** Messages are handled one at a time, in order, on this chain. */
  let chain = Promise.resolve();

  /** Set by an ErrorResponse inside an extended-protocol exchange: PostgreSQL then skips to Sync. */
  let failedExchange = false;
  /**
   * Names of the statements this connection prepared. The backend is every connection's, so they
   * would outlive the connection (and pile up as the pool replaces connections): they are dropped
   * when it closes.
   */
  const prepared = new Set();

  /**
   * Runs a client's messages in one call into PGlite and sends what it answered in one write. A
   * client sends a statement as five messages in one packet (Parse, Bind, Describe, Execute, Sync);
   * run one by one, each cost a call into the WebAssembly, a file-system sync and a socket write of
   * its own answer, which the client then read as five packets.
   *
   * PGlite answers an error inside an extended-protocol exchange (Parse/Bind/Execute…) with a
   * ReadyForQuery of its own, before the client's Sync earns the real one, and then runs the
   * exchange's next messages, which fail in turn. A client that reads two ReadyForQuery would take
   * the second as the end of its next query (an empty result). PostgreSQL skips to Sync after an
   * error, and only Sync and a simple Query end a cycle, so after an error only the cycle's last
   * ReadyForQuery is sent, and none that comes before the end of a cycle.
   * @param {Buffer} messages
   * @param {boolean} endsCycle
   */
  const run = async (messages, endsCycle) => {
    /** @type {Buffer[]} */
    const chunks = [];
    await pglite.runExclusive(() =>
      pglite.execProtocolRawStream(messages, {
        onRawData: (data) => {
          if (data.length > 0) chunks.push(Buffer.from(data));
        },
      }),
    );
    if (closed || chunks.length === 0) return;
    const answer = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
    const kept = [];
    let failed = false;
    let readyForQuery = null;
    for (let offset = 0; offset + 5 <= answer.length; ) {
      const message = answer.subarray(offset, offset + 1 + answer.readInt32BE(offset + 1));
      offset += message.length;
      const type = message[0];
      if (type === 0x5a) readyForQuery = message;
      else if (!failed) {
        if (type === 0x45) failed = true;
        kept.push(message);
      }
    }
    if (endsCycle && readyForQuery) kept.push(readyForQuery);
    else if (failed) failedExchange = true;
    if (kept.length > 0) socket.write(kept.length === 1 ? kept[0] : Buffer.concat(kept));
  };

  /**
   * One startup message, or messages of one exchange in order, the last of them possibly ending it
   * (see the grouping in the data handler).
   * @param {Buffer[]} messages
   * @param {boolean} isStartup
   */
  const handle = async (messages, isStartup) => {
    if (closed) return;
    if (isStartup) isBackground = applicationName(messages[0]) === BACKGROUND_APPLICATION;
    if (!holding) {
      await turns.take(isBackground);
      holding = true;
      if (closed) return release();
    }
    if (isStartup) {
      await pglite.runExclusive(() =>
        pglite.execProtocolRawStream(messages[0], {
          onRawData: (data) => {
            if (!closed && data.length > 0) socket.write(Buffer.from(data));
          },
        }),
      );
      if (!pglite.isInTransaction()) release();
      return;
    }
    const last = messages[messages.length - 1];
    if (last[0] === 0x58) {
      // Terminate: this connection ends (and with it any transaction it left open); the backend stays.
      closed = true;
      socket.end();
      return abandon();
    }
    const endsCycle = last[0] === 0x53 || last[0] === 0x51;
    for (const message of messages) {
      // Parse (P) of a named statement, Close (C) of one: its name is the first string after the header.
      if (message[0] === 0x50 && message[5] !== 0) prepared.add(cString(message, 5));
      if (message[0] === 0x43 && message[5] === 0x53) prepared.delete(cString(message, 6));
    }
    // After an error PostgreSQL ignores the rest of the exchange up to its Sync.
    let runnable = messages;
    if (failedExchange) {
      if (!endsCycle) return;
      runnable = [last];
    }
    failedExchange = false;
    await run(runnable.length === 1 ? runnable[0] : Buffer.concat(runnable), endsCycle);
    // Sync (S) or a simple Query (Q) ends an exchange; the turn passes on unless a transaction is open.
    if (endsCycle) {
      midExchange = false;
      if (!pglite.isInTransaction()) release();
    } else {
      midExchange = true;
    }
  };

  const release = () => {
    if (!holding) return;
    holding = false;
    turns.give(isBackground);
  };

  /**
   * A connection that goes away mid-exchange or mid-transaction must not leave its state to the next
   * one, nor its prepared statements to the backend.
   */
  const abandon = async () => {
    if (!holding && prepared.size === 0) return;
    if (!holding) {
      await turns.take(isBackground);
      holding = true;
    }
    try {
      if (midExchange)
        await pglite.runExclusive(() => pglite.execProtocolRawStream(SYNC, { onRawData: () => {} }));
      if (pglite.isInTransaction())
        await pglite.runExclusive(() => pglite.execProtocolRawStream(ROLLBACK, { onRawData: () => {} }));
      for (const name of prepared) {
        // A Parse that failed left no statement: DEALLOCATE's error then goes nowhere.
        const deallocate = queryMessage(`DEALLOCATE "${name.replaceAll('"', '""')}"`);
        await pglite.runExclusive(() => pglite.execProtocolRawStream(deallocate, { onRawData: () => {} }));
      }
      prepared.clear();
    } finally {
      release();
    }
  };

  /**
   * One connection's failure ends that connection, not the database that the others share; closing
   * it syncs and rolls back what it left (abandon, which always passes the turn on).
   */
  const fail = (/** @type {unknown} */ error) => {
    process.stderr.write(`pglite worker: ${error instanceof Error ? error.message : String(error)}\n`);
    socket.destroy();
  };

  socket.on("data", (data) => {
    buffered = buffered.length === 0 ? data : Buffer.concat([buffered, data]);
    /** The complete messages of this read, handed on together up to each end of a cycle. */
    let group = [];
    const handOn = () => {
      if (group.length === 0) return;
      const messages = group;
      group = [];
      chain = chain.then(() => handle(messages, false)).catch(fail);
    };
    for (;;) {
      if (!started) {
        if (buffered.length < 8) break;
        const length = buffered.readInt32BE(0);
        if (buffered.length < length) break;
        const code = buffered.readInt32BE(4);
        const message = buffered.subarray(0, length);
        buffered = buffered.subarray(length);
        if (code === SSL_REQUEST || code === GSS_REQUEST) {
          socket.write("N");
          continue;
        }
        if (code === CANCEL_REQUEST) {
          socket.destroy();
          return;
        }
        started = true;
        chain = chain.then(() => handle([message], true)).catch(fail);
        continue;
      }
      if (buffered.length < 5) break;
      const length = 1 + buffered.readInt32BE(1);
      if (buffered.length < length) break;
      const message = buffered.subarray(0, length);
      buffered = buffered.subarray(length);
      // Terminate goes alone; Sync, Query and Flush (which asks for the answers so far) end a group.
      if (message[0] === 0x58) handOn();
      group.push(message);
      if (message[0] === 0x53 || message[0] === 0x51 || message[0] === 0x48 || message[0] === 0x58) handOn();
    }
    handOn();
  });
  socket.on("error", () => socket.destroy());
  socket.on("close", () => {
    closed = true;
    sockets.delete(socket);
    chain = chain.then(abandon).catch(fail);
  });
}

/**
 * The `application_name` parameter of a startup message (length, protocol version, then
 * name/value pairs as NUL-terminated strings), or undefined.
 * @param {Buffer} message
 */
function applicationName(message) {
  const fields = message.subarray(8).toString("utf8").split("\0");
  for (let index = 0; index + 1 < fields.length; index += 2) {
    if (fields[index] === "application_name") return fields[index + 1];
  }
  return undefined;
}

/**
 * The NUL-terminated string of `message` at `offset`.
 * @param {Buffer} message
 * @param {number} offset
 */
function cString(message, offset) {
  const end = message.indexOf(0, offset);
  return message.toString("utf8", offset, end === -1 ? message.length : end);
}

/** @param {string} sql */
function queryMessage(sql) {
  const text = Buffer.from(`${sql}\0`);
  const header = Buffer.alloc(5);
  header[0] = 0x51;
  header.writeInt32BE(4 + text.length, 1);
  return Buffer.concat([header, text]);
}

const server = createServer(serve);
await new Promise((resolve, reject) => {
  server.once("error", reject);
  if (socketPath) server.listen(socketPath, () => resolve(undefined));
  else server.listen(0, "127.0.0.1", () => resolve(undefined));
});
const address = server.address();

process.on("message", async (/** @type {{ kind: string }} */ request) => {
  if (request.kind === "dump") {
    const dump = await pglite.dumpDataDir("none");
    process.send?.({ kind: "dump", buffer: new Uint8Array(await dump.arrayBuffer()) });
    return;
  }
  if (request.kind === "memory") {
    process.send?.({ kind: "memory", rss: process.memoryUsage().rss });
    return;
  }
  if (request.kind === "close") {
    closing = true;
    server.close();
    for (const socket of sockets) socket.destroy();
    // Waits for the exchange in progress, so that what a client was told is committed is on disk.
    await turns.take(false);
    await pglite.close();
    process.send?.({ kind: "closed" }, () => process.disconnect());
  }
});

process.send?.({
  kind: "ready",
  address: typeof address === "object" && address ? { port: address.port } : { path: socketPath },
});
