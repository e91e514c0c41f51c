import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { platform, release, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openPglite } from "../src/db/client.ts";
import type { CallStatus } from "../src/generated/prisma/client.ts";
import { isFinal, toApiStatus } from "../src/modules/calls/call-status.ts";
import { threadSliceNs } from "../src/modules/media/index.ts";
import { makeDocx, makePdf, restUpload, waitForDocument } from "./fixtures/knowledge.ts";
import { uniqueUsNumber } from "./fixtures/telephony.ts";
import { type FakeOpenAI, startFakeOpenAI } from "./support/fake-openai.ts";
import { type FakeSpeech, startFakeSpeech, toneText } from "./support/fake-speech.ts";
import { getFreePort } from "./support/services.ts";
import {
  freshDatabase,
  type HttpClient,
  httpClient,
  ownRateLimitKeys,
  pgliteTemplate,
  testDatabaseKind,
} from "./support/test-app.ts";
import { WebCallClient } from "./support/web-call-client.ts";

const [major = 0, minor = 0] = release().split(".").map(Number);
const customSlices =
  platform() === "linux" && (major > 6 || (major === 6 && minor >= 12)) && existsSync("/proc/self/sched");
const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
const serverDir = fileURLToPath(new URL("../", import.meta.url));
const distDir = join(serverDir, "dist");

/** The page the widget is embedded in: the demo assistant allows it. */
const SITE = "https://shop.example";
const CALL = "id status transcript endReason";
/** What the demo assistant says first on every call. */
const GREETING = "Hi! I'm Ava, the Voxgate demo assistant. How can I help?";

interface CallState {
  id: number;
  status: string;
  transcript: string;
  endReason: string;
}

/**
 * A small website on loopback for the crawler: a home page that links to a second page. Pages long
 * enough for Readability to pick the article out of the navigation.
 */
async function startSite(): Promise<{ server: Server; url: string }> {
  const pages: Record<string, string> = {
    "/": `<html><head><title>Acme Help</title></head><body><nav><a href="/hours">Opening hours</a></nav>
      <main><h1>Acme Help Centre</h1><p>Acme sells handmade ceramic teapots from its workshop in Lisbon. Our support team answers every message within one business day, in English and Portuguese.</p></main></body></html>`,
    "/hours": `<html><head><title>Hours</title></head><body><article><h1>Opening hours</h1><p>The Lisbon workshop opens from nine to five on weekdays and from ten to two on Saturdays. It is closed on Sundays and public holidays.</p></article></body></html>`,
  };
  const server = createServer((request, response) => {
    const page = pages[request.url ?? "/"];
    if (!page) return void response.writeHead(404, { "content-type": "text/plain" }).end("not found");
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/**
 * What users run: `npm start` (scripts/start.mjs: the build checked and the bundle dist/main.js run
 * by plain Node, with the embedded database forked first), one real process over real HTTP and
 * WebSocket, with stand-ins for the model, speech and the website it reads. Every check runs
 * against this one process, so the suite costs one build (skipped when nothing changed) and one
 * start. Tests of the TypeScript sources cannot see what only the bundle does: a package's shape
 * after esbuild's interop, a file the build leaves out, a worker entry it does not copy.
 */
describe("the compiled server, started as npm start starts it", () => {
  let child: ChildProcess;
  let server: HttpClient;
  let output = "";
  let apiKey: string;
  let password: string;
  let model: FakeOpenAI;
  let speech: FakeSpeech;
  let site: Awaited<ReturnType<typeof startSite>>;
  const cleanups: (() => Promise<void> | void)[] = [];

  const gql = async <Data = Record<string, never>>(query: string, variables?: Record<string, unknown>) => {
    const response = await server.gql<Data>(query, variables, { token: apiKey });
    expect(response.errors).toBeUndefined();
    return response.data!;
  };

  const demoAssistant = async () =>
    (
      await gql<{ assistants: { items: { id: number; uuid: string }[] } }>(
        "{ assistants { items { id uuid } } }",
      )
    ).assistants.items[0]!;

  /** Reads the call until it reached a final status (the test's timeout bounds the wait). */
  const finalCall = async (id: number): Promise<CallState> => {
    for (;;) {
      const { call } = await gql<{ call: CallState }>(`query ($id: Int!) { call(id: $id) { ${CALL} } }`, {
        id,
      });
      if (isFinal(toApiStatus(call.status as CallStatus))) return call;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  beforeAll(async () => {
    [model, speech, site] = await Promise.all([startFakeOpenAI(), startFakeSpeech(), startSite()]);
    cleanups.push(
      () => model.close(),
      () => speech.close(),
      () => {
        site.server.closeAllConnections();
        site.server.close();
      },
    );
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      LOG_LEVEL: "warn",
      VOXGATE_SEED_DEMO: "true",
      HOST: "127.0.0.1",
      OPENAI_API_KEY: "sk-test",
      OPENAI_BASE_URL: model.baseUrl,
      OPENAI_STT_BASE_URL: speech.baseUrl,
      OPENAI_TTS_BASE_URL: speech.baseUrl,
      // The website is on loopback, which the SSRF guard refuses unless allowed.
      VOXGATE_OUTBOUND_ALLOWLIST: "127.0.0.1",
      // A simulated call minute lasts 3 real seconds.
      VOXGATE_CALL_CLOCK_SPEED: "20",
      ...ownRateLimitKeys(),
    };
    if (testDatabaseKind() === "postgres") {
      const database = await freshDatabase();
      cleanups.push(database.drop);
      if (database.target.kind !== "postgres") throw new Error("expected PostgreSQL");
      env.DATABASE_URL = database.target.url;
      env.REDIS_URL = inject("redisUrl") ?? undefined;
    } else {
      // A data directory holding the suite's migrated template, so the start does not migrate from zero.
      const dataDir = mkdtempSync(join(tmpdir(), "voxgate-compiled-"));
      cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
      await (await openPglite(dataDir, pgliteTemplate())).close();
      env.VOXGATE_DATA_DIR = dataDir;
    }
    const port = await getFreePort();
    server = httpClient(`http://127.0.0.1:${port}`);
    // `npm start` is `exec node scripts/start.mjs`: it builds what changed (waiting for a build that
    // another test file runs), then imports the bundle.
    child = spawn(process.execPath, ["scripts/start.mjs"], {
      cwd: repoRoot,
      env: { ...env, PORT: String(port), PUBLIC_BASE_URL: server.url },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout!.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr!.on("data", (chunk) => {
      output += chunk;
    });
    await new Promise<void>((resolve, reject) => {
      const check = () => {
        if (output.includes("Voxgate is running")) resolve();
        else if (child.exitCode !== null) reject(new Error(`exited with ${child.exitCode}:\n${output}`));
        else setTimeout(check, 50);
      };
      check();
    });
    apiKey = /API key\s+(vgk_\S+)/.exec(output)![1]!;
    password = /password\s+(\S+)/.exec(output)![1]!;
    // The demo assistant talks on the widget's page, by text and by voice.
    const assistant = await demoAssistant();
    await gql(
      "mutation ($id: Int!, $input: UpdateAssistantInput!) { updateAssistant(id: $id, input: $input) { id } }",
      {
        id: assistant.id,
        input: { widgetSettings: { voice: true }, allowedOrigins: [SITE] },
      },
    );
  }, 300_000);

  afterAll(async () => {
    if (child && child.exitCode === null) child.kill("SIGKILL");
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  // EEVDF takes a fair thread's own slice from Linux 6.12 on; an older kernel keeps its default.
  it.runIf(customSlices)(
    "asks Linux for a short slice for the thread that relays the calls' frames",
    async () => {
      // start.mjs imports the bundle: the process it starts is the server, its main thread the relay.
      expect(await threadSliceNs(child.pid!)).toBe(100_000);
    },
  );

  it("answers GraphQL and the REST API (the compiled rest-compat package) with the demo key it printed", async () => {
    expect(await gql("{ viewer { email } }")).toEqual({ viewer: { email: "demo@voxgate.local" } });
    const rest = await server.rest<{ api_keys: unknown[] }>("GET", "/api/user/api-keys", { token: apiKey });
    expect(rest.status).toBe(200);
    expect(rest.body).toMatchObject({ api_keys: [expect.objectContaining({ name: "Demo key" })] });
  });

  it("answers every address its banner prints (GraphiQL, the API and its reference, the widget demo, the console)", async () => {
    const banner = output.slice(output.indexOf("Voxgate is running")).split("\n\n")[0]!;
    const links = [...banner.matchAll(/http:\/\/[^\s)]+/g)].map((match) => match[0]);
    expect(links).toHaveLength(5);
    for (const link of links) {
      const response = await fetch(link, { headers: { accept: "text/html" } });
      expect({ link, status: response.status }).toEqual({ link, status: 200 });
      // GraphiQL's page comes from a chunk of its own, loaded by the first request.
      if (link.endsWith("/graphql")) expect(await response.text()).toContain("Voxgate GraphQL");
    }
  });

  it("ingests every document type to ready: TXT, PDF and DOCX in their workers, and a website", async () => {
    const { createKnowledgebase: created } = await gql<{ createKnowledgebase: { id: number } }>(
      "mutation ($input: KnowledgebaseInput!) { createKnowledgebase(input: $input) { id } }",
      { input: { name: "Compiled", description: "smoke test" } },
    );
    const path = `/api/user/knowledgebases/${created.id}/documents`;
    const upload = (type: string, file: { name: string; content: Uint8Array<ArrayBuffer>; type: string }) =>
      restUpload<{ data: { id: number } }>(server, apiKey, path, { name: file.name, type }, file);
    const uploads = await Promise.all([
      upload("txt", {
        name: "notes.txt",
        content: new TextEncoder().encode("Teapots are fired twice in the Lisbon kiln.\n"),
        type: "text/plain",
      }),
      upload("pdf", {
        name: "manual.pdf",
        content: await makePdf([["The compiled worker reads page one."], ["And page two."]]),
        type: "application/pdf",
      }),
      upload("docx", {
        name: "guide.docx",
        content: await makeDocx(["Glaze the teapot before its second firing.", "Let it cool for a day."]),
        type: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      }),
    ]);
    const website = await server.rest<{ data: { id: number } }>("POST", path, {
      token: apiKey,
      body: { name: "Help site", type: "website", url: `${site.url}/`, relative_links_limit: 5 },
    });
    expect([...uploads, website].map((response) => response.status)).toEqual([201, 201, 201, 201]);
    const ids = [...uploads, website].map((response) => response.body.data.id);
    const documents = await Promise.all(ids.map((id) => waitForDocument(server, apiKey, id, 60_000)));
    for (const document of documents) {
      expect(document).toMatchObject({ status: "ACTIVE", failureReason: null });
      expect(document.chunkCount).toBeGreaterThan(0);
    }
    expect(documents[1]!.pagesDone).toBe(2);
    // Readability read the article of both pages the crawler found.
    const { searchKnowledgebase: found } = await gql<{ searchKnowledgebase: { source: string }[] }>(
      `query ($id: Int!) { searchKnowledgebase(id: $id, query: "Saturdays", mode: KEYWORD) { source } }`,
      { id: created.id },
    );
    expect(found.map((passage) => passage.source)).toContain(`${site.url}/hours`);
  });

  it("generates a reply through the model over REST and GraphQL", async () => {
    const assistant = await demoAssistant();
    const rest = await server.rest<{ reply: string }>("POST", "/api/ai/generate-reply", {
      token: apiKey,
      body: { assistant_id: assistant.id, customer_identifier: "crm-7", message: "Do you ship to Porto?" },
    });
    expect(rest.status).toBe(200);
    expect(rest.body.reply).toBe("Echo: Do you ship to Porto?");
    const { generateReply } = await gql<{ generateReply: { reply: string } }>(
      "mutation ($input: GenerateReplyInput!) { generateReply(input: $input) { reply } }",
      { input: { assistantId: assistant.id, customerIdentifier: "crm-7", message: "And to Faro?" } },
    );
    expect(generateReply.reply).toBe("Echo: And to Faro?");
  });

  it("serves the widget's script and answers a widget conversation", async () => {
    const script = await fetch(`${server.url}/widget/voxgate-chat.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toMatch(/javascript/);
    expect(await script.text()).toContain("voxgate-chat");
    const assistant = await demoAssistant();
    const started = await server.rest<{ conversation_id: string }>(
      "POST",
      `/api/widget/assistants/${assistant.uuid}/conversations`,
      { body: {}, headers: { origin: SITE } },
    );
    expect(started.status).toBe(201);
    const sent = await server.rest("POST", `/api/conversations/${started.body.conversation_id}/messages`, {
      body: { message: "Is the shop open today?" },
      headers: { origin: SITE },
    });
    expect(sent).toMatchObject({
      status: 200,
      body: { status: true, message: "Echo: Is the shop open today?" },
    });
  });

  it("serves the console's page and assets, and answers its login", async () => {
    const page = await fetch(`${server.url}/console/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("<voxgate-console>");
    const scripts = [...html.matchAll(/src="(\/console\/assets\/[^"]+\.js)"/g)].map((match) => match[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) expect((await fetch(`${server.url}${script}`)).status).toBe(200);
    // The console's own operation (packages/console/src/api/operations.ts, ConsoleLogin).
    const login = await server.gql<{ login: { token: string; viewer: { email: string } } }>(
      `mutation ConsoleLogin($input: LoginInput!) {
        login(input: $input) {
          token
          expiresAt
          viewer { id email name account { id name balance timezone isOperator } }
        }
      }`,
      { input: { email: "demo@voxgate.local", password } },
    );
    expect(login.errors).toBeUndefined();
    expect(login.data!.login.viewer.email).toBe("demo@voxgate.local");
    const viewer = await server.gql<{ viewer: { email: string } }>(
      "query ConsoleViewer { viewer { email } }",
      {},
      {
        token: login.data!.login.token,
      },
    );
    expect(viewer.data).toEqual({ viewer: { email: "demo@voxgate.local" } });
  });

  it("carries a web call from the widget to its end, with its transcript", async () => {
    const assistant = await demoAssistant();
    const started = await server.rest<{
      call_id: number;
      token: string;
      socket_path: string;
      sample_rate: number;
    }>("POST", `/api/widget/assistants/${assistant.uuid}/web-calls`, { headers: { origin: SITE } });
    expect(started.status).toBe(201);
    const client = await WebCallClient.connect(
      `${server.url.replace(/^http/, "ws")}${started.body.socket_path}`,
      started.body.token,
      { origin: SITE, sampleRate: started.body.sample_rate },
    );
    try {
      await client.waitFor(() => client.count("ready") === 1);
      // The visitor speaks once the greeting was heard to its end.
      await client.waitFor((received) =>
        received.some((message) => message.type === "transcript" && message.speaker === "assistant"),
      );
      client.speak("what time is it");
      await client.waitFor((received) =>
        received.some((message) => message.type === "transcript" && message.text === "Echo: what time is it"),
      );
    } finally {
      client.close();
    }
    await client.closed;
    const call = await finalCall(started.body.call_id);
    expect(call.status).toBe("ended_by_customer");
    expect(call.transcript).toBe(
      `Assistant: ${GREETING}\nCustomer: what time is it\nAssistant: Echo: what time is it`,
    );
    expect(speech.transcriptions).toContain(toneText("what time is it"));
  });

  it("carries a phone call on the simulated carrier to its end, with its transcript", async () => {
    const { phoneNumbers } = await gql<{ phoneNumbers: { id: number }[] }>("{ phoneNumbers { id } }");
    const { simulateInboundCall: answered } = await gql<{
      simulateInboundCall: { id: number; status: string };
    }>("mutation ($input: SimulateInboundCallInput!) { simulateInboundCall(input: $input) { id status } }", {
      input: { phoneNumberId: phoneNumbers[0]!.id, from: uniqueUsNumber() },
    });
    expect(answered.status).toBe("in_progress");
    const call = await finalCall(answered.id);
    expect(call.status).toBe("ended_by_customer");
    const lines = call.transcript.split("\n");
    expect(lines[0]).toBe(`Assistant: ${GREETING}`);
    expect(lines.filter((line) => line.startsWith("Customer: ")).length).toBeGreaterThan(0);
  }, 60_000);

  it("stops cleanly on SIGTERM", async () => {
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    // Nothing above went wrong unseen: the server logged no error during the whole run.
    expect(output.split("\n").filter((line) => / ERROR /.test(line))).toEqual([]);
  });
});

describe("the build", () => {
  it("leaves no import of TypeScript: Node runs it without tsx", () => {
    const specifiers: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (entry.name.endsWith(".js")) {
          for (const match of readFileSync(path, "utf8").matchAll(/(?:from|import\()\s*["']([^"']+)["']/g)) {
            specifiers.push(match[1]!);
          }
        }
      }
    };
    walk(distDir);
    walk(join(serverDir, "../rest-compat/dist"));
    expect(specifiers.length).toBeGreaterThan(100);
    expect(specifiers.filter((specifier) => /\.ts$|^tsx|^@voxgate\//.test(specifier))).toEqual([]);
  });
});
