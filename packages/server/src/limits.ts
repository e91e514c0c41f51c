/** Size limits of what clients send, defined once; the HTTP parts and services read them from here. */

const MB = 1024 * 1024;

/** The spec's upload limit: a 20 MB file, refused while streaming, before it is buffered. */
export const MAX_UPLOAD_BYTES = 20 * MB;

/**
 * The largest GraphQL request body (non-multipart HTTP) and graphql-ws message the server reads.
 * Real operations, variables included, stay far below it; bigger ones are refused before they are
 * buffered whole, so that one message cannot grow the heap.
 */
export const MAX_GRAPHQL_MESSAGE_BYTES = 1 * MB;

/**
 * A multipart GraphQL request (an upload) whole: the file and the operation's fields. The form parser's
 * limits below bound each part, not their sum.
 */
export const MAX_GRAPHQL_MULTIPART_BYTES = MAX_UPLOAD_BYTES + 5 * MB;

/** Multipart GraphQL requests (uploads): one file, and form fields far above what an operation needs. */
export const GRAPHQL_FORM_LIMITS = {
  fileSize: MAX_UPLOAD_BYTES,
  files: 1,
  fieldSize: 1 * MB,
  fields: 200,
} as const;

/** REST bodies: JSON and urlencoded forms far above any legacy request; multipart carries one upload. */
export const REST_BODY_LIMITS = {
  bodyBytes: 1 * MB,
  /** The upload plus room for the other form fields and multipart framing. */
  multipartBytes: MAX_UPLOAD_BYTES + 1 * MB,
  uploadBytes: MAX_UPLOAD_BYTES,
} as const;

/** The most calls one campaign may run at once (its `maxConcurrentCalls`); the account's cap applies too. */
export const MAX_CAMPAIGN_CONCURRENT_CALLS = 50;

/** A call's variables (JSON): context for the assistant, not documents. */
export const MAX_CALL_VARIABLES_BYTES = 16 * 1024;

/** A call's stored transcript; lines past it are dropped (and logged), the call goes on. */
export const MAX_TRANSCRIPT_CHARS = 200_000;

/** A carrier webhook body (Twilio posts a few dozen form fields). */
export const TELEPHONY_WEBHOOK_BODY_BYTES = 64 * 1024;

/**
 * The heap of an extraction worker (PDF, DOCX). Without limits V8 sized it from the machine's memory and let garbage pile up:
 * ~220 MB over the process for a 2,000-page PDF, against ~100 MB with these (bench/ingest; pdf.js keeps
 * ~35 MB live on that file). The old-generation cap also bounds what one document can take: a PDF that
 * needs more (or a DOCX whose XML does) fails with a reason instead of pushing the server out of memory.
 * The PDF worker also holds the tokenizer's tables (~60 MB), since it cuts pages into passages itself. A young
 * generation of 4 MB rather than 16 took ~24 MB off the worker's peak on that PDF (pdf.js makes short-lived
 * objects for every glyph) for no CPU time that could be told apart from the machine's noise.
 */
export const EXTRACTION_WORKER_HEAP = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 4 } as const;

/**
 * What a document may expand to while it is extracted, counted as bytes come out of the decompressor
 * (DOCX parts, PDF streams), never trusted from what the file declares. The worker's heap limit does not
 * bound these: inflated bytes are buffers outside the heap, and a single allocation far past the limit
 * (a 400 MB part decoded to a string) is not a worker's out-of-memory but a fatal error of the whole
 * process. Real documents stay far below: the upload limit is 20 MB, text and XML compress 4 to 20
 * times. A part or stream past 1 MB that expands more than 100 times its compressed size is a bomb.
 * XML parts may nest 256 elements deep (Word's deepest, nested tables, are a few dozen), and may not
 * declare a document type (entities). A DOCX has a few dozen parts; one with images some hundreds.
 */
export const EXTRACTION_LIMITS = {
  maxExpandedBytes: 100 * MB,
  maxRatio: 100,
  ratioFreeBytes: 1 * MB,
  maxZipEntries: 2_000,
  maxXmlDepth: 256,
} as const;

/** A webhook response kept in the delivery log (and a call's webhook_response): its first characters. */
export const WEBHOOK_RESPONSE_LOG_CHARS = 2_000;

/** The most of a webhook response read; a larger answer is cut off and counted as delivered by its status. */
export const WEBHOOK_RESPONSE_MAX_BYTES = 64 * 1024;

/** An inbound webhook's answer (variables for the call). */
export const INBOUND_WEBHOOK_RESPONSE_MAX_BYTES = 32 * 1024;

/**
 * The most of one streamed chat completion read (its server-sent events, in characters): a reply's
 * text is stored cut to far less, so anything near this is a broken or hostile model server.
 */
export const MODEL_STREAM_MAX_CHARS = 8 * MB;

/**
 * One call to the embedding service: a batch of passages (64) or a question. The timeout and retries
 * are the OpenAI SDK's, which the embedder used before. The answer's size bound is far above a batch's
 * (64 vectors of 4,000 dimensions as decimal numbers are ~5 MB; as base64 a fifth of that).
 */
export const EMBEDDING_CALL = { timeoutMs: 60_000, maxRetries: 4, responseMaxChars: 32 * MB } as const;

/** The most of a model server's error response read for its message. */
export const MODEL_ERROR_BODY_MAX_CHARS = 64 * 1024;

/** A conversation's messages an on-demand evaluation reads (the latest ones). */
export const EVALUATION_MAX_MESSAGES = 200;

/**
 * A Twilio Media Streams socket: Twilio sends 50 media messages a second (20 ms frames of ~200
 * bytes), plus marks and DTMF; the cap leaves room for a relay catching up after a network stall
 * (and for tests sending audio faster than real time), and bounds what a rogue client costs. A stream token is used within
 * seconds of the TwiML that carries it.
 */
export const MEDIA_STREAM_LIMITS = {
  messageBytes: 64 * 1024,
  messagesPerSecond: 1000,
  tokenSeconds: 60,
  /** Caller audio kept while a stream starts (token check, loading the call): 5 s of 20 ms frames. */
  bufferedFrames: 250,
  /**
   * Twilio sends the caller's audio every 20 ms for the whole call, silence included: a started stream
   * that sends nothing this long is a dead connection (media streams are not pinged).
   */
  idleSeconds: 30,
} as const;

/**
 * The largest event a realtime speech model (OpenAI Realtime protocol) may send one live call: audio
 * deltas are a few KB, session echoes with long prompts and tools some hundred KB.
 */
export const MAX_REALTIME_EVENT_BYTES = 4 * MB;

/**
 * The longest call recording kept (seconds): 2 hours, the longest max_duration. Beyond it the rest
 * of the call is not recorded; a recording holds 8 KB a second in memory until the call ends.
 */
export const MAX_RECORDING_SECONDS = 7_200;

/**
 * A browser web call's WebSocket (modules/web-calls). Audio is PCM16 mono at `sampleRate` both
 * ways; browsers send a frame every 20-100 ms (`frameBytes` is 250 ms of audio), so the message
 * rate leaves room for bursts after a stalled tab without letting one client flood the server.
 * The token is fetched and used within seconds; a call whose browser never connects is failed
 * (and its reserved minute refunded) `connectGraceSeconds` after the token expired. A socket
 * silent (no audio, no control message) for `idleSeconds` is treated as a visitor who left.
 */
export const WEB_CALL_LIMITS = {
  sampleRate: 16_000,
  frameBytes: 8_000,
  controlBytes: 1_024,
  messagesPerSecond: 200,
  tokenSeconds: 30,
  connectGraceSeconds: 5,
  idleSeconds: 30,
  /** Seconds a refused start (instance at capacity) asks the browser to wait. */
  retryAfterSeconds: 15,
} as const;

/**
 * Question vectors a server keeps (knowledge search): a repeated question skips the embedding
 * service. 1,536 floats are ~12 KB, so at most ~3 MB; a longer question is a message, not a
 * question asked again word for word, and is not kept.
 */
export const QUESTION_VECTOR_CACHE = { entries: 256, maxChars: 500 } as const;

/**
 * Knowledge bases of at most `maxPassages` passages (fewer than the keyword search's 2,000 candidates
 * per step) are searched by an exact scan, their keyword candidates found in one pass, through a
 * prepared statement; larger ones by a statement planned each time, which may read the HNSW index. A search learns a knowledge base's size at most every
 * `sizeTtlMs`, for at most `sizesKept` knowledge bases per server. An exact scan of 1,000 passages of
 * 1,536 dimensions takes a few milliseconds (bench/reply/search-cost.ts).
 */
export const EXACT_SEARCH = { maxPassages: 1_000, sizeTtlMs: 60_000, sizesKept: 1_000 } as const;

/**
 * Idle keep-alive connections stay open longer than the clients and load balancers that reuse them
 * wait (fetch/undici about 4 s, AWS ALB 60 s): the side that closes an idle connection must be the
 * client, or a request sent as the server closes it fails with ECONNRESET (Node's own default is 5 s).
 * The headers timeout (VOXGATE_HTTP_HEADERS_TIMEOUT_SECONDS) may be shorter: Node starts it at a
 * request's first byte, not while the connection waits between requests.
 */
export const HTTP_KEEP_ALIVE = { idleMs: 65_000 } as const;

/**
 * A connection past its address's cap (VOXGATE_MAX_CONNECTIONS_PER_IP) is answered 429 to its first
 * request and closed; one that sends no request is closed after this long.
 */
export const OVER_CAP_GRACE_MS = 2_000;

/**
 * After an answer sent before its request's body was read to the end (an upload refused at a limit),
 * the server reads the rest and drops it, so that the kept-alive connection serves the next request;
 * past this many more bytes it closes the connection instead.
 */
export const MAX_DROPPED_BODY_BYTES = 25 * MB;

/**
 * The bounds of one generated reply, which its balance reservation must outlast
 * (`VOXGATE_RESERVATION_HOLD_SECONDS` is checked against them at start): model calls per reply (the
 * last is offered no functions, so the loop always ends with text), attempts of each (one retry), and
 * the longest an assistant's webhook function may take (its `timeout`, seconds).
 */
export const REPLY_BOUNDS = { modelRounds: 5, modelAttempts: 2, toolTimeoutSeconds: 30 } as const;

/**
 * The longest a reply can take with `OPENAI_TIMEOUT_SECONDS` = `modelTimeoutSeconds`: every model
 * call timing out and retried, every round's functions at their longest, and a minute for the rest
 * (retrieval, waits between attempts, storing).
 */
export const longestReplySeconds = (modelTimeoutSeconds: number) =>
  REPLY_BOUNDS.modelRounds * REPLY_BOUNDS.modelAttempts * modelTimeoutSeconds +
  (REPLY_BOUNDS.modelRounds - 1) * REPLY_BOUNDS.toolTimeoutSeconds +
  60;

/**
 * Live listen (docs/transfers.md#live-listen): a listener's socket says who it is in one small message
 * within `helloSeconds`; an instance serves at most `perCall` listeners of one call and `perAccount`
 * of one account. Audio leaves in 20 ms frames of 8 kHz mu-law (164 bytes with the header, 8.2 KB a
 * second); a listener whose socket holds more than `bufferedBytes` unsent (about 4 s) misses frames
 * until it catches up: the call never waits for it. A call whose audio stops for `noAudioSeconds`
 * ends the listen: longer than the transports' own silence limits (30 s), so it only happens when the
 * call's instance went away without a word. Up to `assistantQueueSeconds` of the assistant's queued
 * speech is kept ahead of the caller's clock for the mix.
 */
export const LIVE_LISTEN_LIMITS = {
  messageBytes: 1_024,
  helloSeconds: 10,
  perCall: 5,
  perAccount: 20,
  bufferedBytes: 32 * 1024,
  noAudioSeconds: 35,
  assistantQueueSeconds: 120,
} as const;
