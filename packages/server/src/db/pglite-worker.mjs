// The embedded PostgreSQL (PGlite, WebAssembly) in a worker thread of its own, so that queries and
// ingestion batches never run on the thread that answers HTTP. The app reaches it as an ordinary
// PostgreSQL server: node-postgres over a Unix socket in the data directory (loopback port 0 for an
// in-memory database), the same adapter and code paths as a real PostgreSQL.
//
// Plain JavaScript on purpose: no TypeScript loader is needed in the worker, under tsx or compiled.
import { createServer } from "node:net";
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite/vector";

/** @type {{ location?: string; loadDataDir?: ArrayBuffer; socketPath?: string }} */
const options = workerData;

const SSL_REQUEST = 80877103;
const CANCEL_REQUEST = 80877102;
const GSS_REQUEST = 80877104;
const SYNC = Buffer.from([0x53, 0, 0, 0, 4]);
const ROLLBACK = queryMessage("ROLLBACK");

const pglite = await PGlite.create({
  ...(options.location ? { dataDir: options.location } : {}),
  ...(options.loadDataDir ? { loadDataDir: new Blob([options.loadDataDir]) } : {}),
  extensions: { vector },
});

/**
 * PGlite is one PostgreSQL backend; each client connection gets it for a whole exchange (messages up
 * to Sync or a simple Query), and for a whole transaction when one is open, so that exchanges of
 * different connections never interleave (an unnamed statement or portal of one would be bound by
 * another). @electric-sql/pglite-socket 0.1.x hands the backend over between single messages, which
 * mixes connections up as soon as a message spans two socket reads (multi-megabyte parameters).
 */
class Turns {
  /** @type {Array<() => void>} */
  waiting = [];
  held = false;

  /** @returns {Promise<void>} */
  take() {
    if (!this.held) {
      this.held = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  give() {
    const next = this.waiting.shift();
    if (next) next();
    else this.held = false;
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
  /** Messages are handled one at a time, in order, on this chain. */
  let chain = Promise.resolve();

  /** Set by an ErrorResponse inside an extended-protocol exchange: PostgreSQL then skips to Sync. */
  let failedExchange = false;

  /**
   * PGlite answers an error inside an extended-protocol exchange (Parse/Bind/Execute…) with a
   * ReadyForQuery of its own, before the client's Sync earns the real one. A client that reads two
   * would take the second as the end of its next query (an empty result). Only Sync and a simple
   * Query end a cycle in PostgreSQL's protocol, so a ReadyForQuery after anything else is dropped.
   * @param {Uint8Array} message
   * @param {boolean} endsCycle
   */
  const run = (message, endsCycle) => {
    let pending = Buffer.alloc(0);
    return pglite.runExclusive(() =>
      pglite.execProtocolRawStream(message, {
        onRawData: (data) => {
          if (closed || data.length === 0) return;
          if (endsCycle) {
            socket.write(Buffer.from(data));
            return;
          }
          pending = pending.length === 0 ? Buffer.from(data) : Buffer.concat([pending, data]);
          const kept = [];
          while (pending.length >= 5 && pending.length >= 1 + pending.readInt32BE(1)) {
            const size = 1 + pending.readInt32BE(1);
            const type = pending[0];
            if (type === 0x45) failedExchange = true;
            if (type !== 0x5a) kept.push(pending.subarray(0, size));
            pending = pending.subarray(size);
          }
          if (kept.length > 0) socket.write(Buffer.concat(kept));
        },
      }),
    );
  };

  /** @param {Buffer} message */
  const handle = async (message, isStartup) => {
    if (closed) return;
    if (!holding) {
      await turns.take();
      holding = true;
      if (closed) return release();
    }
    const type = isStartup ? 0 : message[0];
    if (type === 0x58) {
      // Terminate: this connection ends (and with it any transaction it left open); the backend stays.
      closed = true;
      socket.end();
      return abandon();
    }
    const endsCycle = isStartup || type === 0x53 || type === 0x51;
    // After an error PostgreSQL ignores the rest of the exchange up to its Sync.
    if (failedExchange && !endsCycle) return;
    failedExchange = false;
    await run(message, endsCycle);
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
    turns.give();
  };

  /** A connection that goes away mid-exchange or mid-transaction must not leave its state to the next one. */
  const abandon = async () => {
    if (!holding) return;
    try {
      if (midExchange)
        await pglite.runExclusive(() => pglite.execProtocolRawStream(SYNC, { onRawData: () => {} }));
      if (pglite.isInTransaction())
        await pglite.runExclusive(() => pglite.execProtocolRawStream(ROLLBACK, { onRawData: () => {} }));
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
    for (;;) {
      if (!started) {
        if (buffered.length < 8) return;
        const length = buffered.readInt32BE(0);
        if (buffered.length < length) return;
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
        chain = chain.then(() => handle(message, true)).catch(fail);
        continue;
      }
      if (buffered.length < 5) return;
      const length = 1 + buffered.readInt32BE(1);
      if (buffered.length < length) return;
      const message = buffered.subarray(0, length);
      buffered = buffered.subarray(length);
      chain = chain.then(() => handle(message, false)).catch(fail);
    }
  });
  socket.on("error", () => socket.destroy());
  socket.on("close", () => {
    closed = true;
    sockets.delete(socket);
    chain = chain.then(abandon).catch(fail);
  });
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
  if (options.socketPath) server.listen(options.socketPath, () => resolve(undefined));
  else server.listen(0, "127.0.0.1", () => resolve(undefined));
});
const address = server.address();

parentPort?.on("message", async (/** @type {{ kind: string }} */ request) => {
  if (request.kind === "dump") {
    const dump = await pglite.dumpDataDir("none");
    const buffer = await dump.arrayBuffer();
    parentPort?.postMessage({ kind: "dump", buffer }, [buffer]);
    return;
  }
  if (request.kind === "close") {
    server.close();
    for (const socket of sockets) socket.destroy();
    // Waits for the exchange in progress, so that what a client was told is committed is on disk.
    await turns.take();
    await pglite.close();
    parentPort?.postMessage({ kind: "closed" });
    parentPort?.close();
  }
});

parentPort?.postMessage({
  kind: "ready",
  address: typeof address === "object" && address ? { port: address.port } : { path: options.socketPath },
});
