import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { prepare } from "../../../scripts/prepare.mjs";
import { openPglite } from "../src/db/client.ts";
import { makePdf } from "./fixtures/knowledge.ts";
import { getFreePort } from "./support/services.ts";
import { freshDatabase, ownRateLimitKeys, pgliteTemplate, testDatabaseKind } from "./support/test-app.ts";

const serverDir = fileURLToPath(new URL("../", import.meta.url));
const distDir = join(serverDir, "dist");

/** The production start path: `node dist/main.js`, a real process over real HTTP. */
describe("the compiled server", () => {
  let child: ChildProcess;
  let url: string;
  let output = "";
  let apiKey: string;
  const cleanups: (() => Promise<void> | void)[] = [];

  beforeAll(async () => {
    // Builds only if a source changed since the last build (and waits for a build running elsewhere).
    prepare(["server"]);

    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      NODE_ENV: "production",
      LOG_LEVEL: "warn",
      VOXGATE_SEED_DEMO: "true",
      HOST: "127.0.0.1",
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
      const template = pgliteTemplate();
      await (await openPglite(dataDir, template)).close();
      env.VOXGATE_DATA_DIR = dataDir;
    }
    const port = await getFreePort();
    url = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, ["dist/main.js"], {
      cwd: serverDir,
      env: { ...env, PORT: String(port), PUBLIC_BASE_URL: url },
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
  }, 120_000);

  afterAll(async () => {
    if (child && child.exitCode === null) child.kill("SIGKILL");
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  const gql = async (query: string, variables?: Record<string, unknown>) => {
    const response = await fetch(`${url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${apiKey}` },
      body: JSON.stringify({ query, variables }),
    });
    return { status: response.status, body: await response.json() };
  };

  it("answers GraphQL and the REST API (the compiled rest-compat package) with the demo key it printed", async () => {
    expect(await gql("{ viewer { email } }")).toEqual({
      status: 200,
      body: { data: { viewer: { email: "demo@voxgate.local" } } },
    });
    const rest = await fetch(`${url}/api/user/api-keys`, { headers: { authorization: `Bearer ${apiKey}` } });
    expect(rest.status).toBe(200);
    expect(await rest.json()).toMatchObject({ api_keys: [expect.objectContaining({ name: "Demo key" })] });
    const widget = await fetch(`${url}/widget/voxgate-chat.js`);
    expect(widget.status).toBe(200);
  });

  it("extracts an uploaded PDF in its compiled worker thread", async () => {
    const created = await gql(
      "mutation ($input: KnowledgebaseInput!) { createKnowledgebase(input: $input) { id } }",
      { input: { name: "Compiled", description: "build test" } },
    );
    const kb = created.body.data.createKnowledgebase.id as number;
    const form = new FormData();
    form.set("name", "Manual");
    form.set("type", "pdf");
    const pdf = await makePdf([["The compiled worker reads page one."], ["And page two."]]);
    form.set("file", new Blob([pdf], { type: "application/pdf" }), "manual.pdf");
    const upload = await fetch(`${url}/api/user/knowledgebases/${kb}/documents`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}` },
      body: form,
    });
    expect(upload.status).toBe(201);
    const id = ((await upload.json()) as { data: { id: number } }).data.id;
    await expect
      .poll(
        async () =>
          (await gql("query ($id: Int!) { document(id: $id) { status pagesDone failureReason } }", { id }))
            .body.data.document,
        { timeout: 30_000, interval: 100 },
      )
      .toEqual({ status: "ACTIVE", pagesDone: 2, failureReason: null });
  });

  it("stops cleanly on SIGTERM", async () => {
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
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
