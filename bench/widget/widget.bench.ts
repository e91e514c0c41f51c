/**
 * The embed widget's two budgets, each beside a baseline measured in the same run:
 *   1. size of dist/voxgate-chat.js gzipped (budget 25 KB, Lit included) beside Lit alone, built by
 *      the same Vite settings;
 *   2. time from inserting the <script> to the launcher bubble being visible, in headless Chromium
 *      with a cold cache, against a real server on loopback (so it includes the widget's settings
 *      request), beside a bare Lit bubble that needs no request.
 *
 *   pnpm exec tsx bench/widget/widget.bench.ts [runs=20]
 *
 * Exits with status 1 when the embed file is over budget.
 */

import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { buildApp, createLogger, loadConfig } from "@voxgate/server";
import { chromiumLaunchOptions } from "../../packages/widget/test/support/chromium.ts";

const BUDGET_BYTES = 25 * 1024;
const runs = Number(process.argv[2] ?? 20);

const widgetRoot = fileURLToPath(new URL("../../packages/widget/", import.meta.url));
const widgetRequire = createRequire(join(widgetRoot, "package.json"));
// vite, lit and playwright are the widget package's dependencies; resolve them from there.
const vite = (await import(widgetRequire.resolve("vite"))) as typeof import("vite");
const { chromium } = widgetRequire("playwright") as typeof import("playwright");
const litEntry = widgetRequire.resolve("lit");

async function buildEmbed(): Promise<Buffer> {
  await vite.build({ root: widgetRoot, mode: "embed", logLevel: "warn" });
  return readFile(join(widgetRoot, "dist/voxgate-chat.js"));
}

/** Lit alone, built with the same settings as the embed file (minified ES module, everything inlined). */
async function buildBaseline(): Promise<Buffer> {
  const result = await vite.build({
    configFile: false,
    logLevel: "warn",
    resolve: { alias: [{ find: /^lit$/, replacement: litEntry }] },
    build: {
      target: "es2022",
      write: false,
      modulePreload: false,
      rolldownOptions: {
        input: fileURLToPath(new URL("lit-baseline.ts", import.meta.url)),
        preserveEntrySignatures: false,
        output: { format: "es", entryFileNames: "baseline.js" },
      },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]).flatMap((item) =>
    "output" in item ? item.output : [],
  );
  const chunk = outputs.find((item) => item.fileName === "baseline.js");
  if (chunk?.type !== "chunk") throw new Error("the baseline build produced no baseline.js");
  return Buffer.from(chunk.code);
}

/** Serves the bench pages and both scripts from one loopback origin, never cached. */
async function startPageServer(
  files: Record<string, { type: string; body: Buffer | string }>,
): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    const file = files[new URL(request.url ?? "/", "http://bench").pathname];
    if (!file) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { "content-type": file.type, "cache-control": "no-store" }).end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/**
 * The page records when it inserts the script, then polls every frame until the launcher in the
 * element's shadow root has a size; the difference is what a visitor waits for.
 */
function timingPage(scriptUrl: string, element: string): string {
  return `<!doctype html><html><body><script>
    window.bubbleShown = new Promise((resolve) => {
      const start = performance.now();
      const script = document.createElement("script");
      script.type = "module";
      script.src = ${JSON.stringify(scriptUrl)};
      document.head.append(script);
      document.body.insertAdjacentHTML("beforeend", ${JSON.stringify(element)});
      const check = () => {
        const launcher = document.body.lastElementChild.shadowRoot?.querySelector("[part~=launcher]");
        const box = launcher?.getBoundingClientRect();
        if (box && box.width > 0 && box.height > 0) resolve(performance.now() - start);
        else requestAnimationFrame(check);
      };
      check();
    });
  </script></body></html>`;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(2)} KB`;

async function main() {
  const [embed, baseline] = [await buildEmbed(), await buildBaseline()];
  const embedGzip = gzipSync(embed, { level: 9 }).length;
  const baselineGzip = gzipSync(baseline, { level: 9 }).length;

  const app = await buildApp(
    loadConfig({ NODE_ENV: "test", PORT: "0", LOG_LEVEL: "silent", VOXGATE_SEED_DEMO: "false" }),
    { database: { kind: "pglite", dataDir: undefined }, logger: createLogger("silent") },
  );
  const apiBase = await app.listen(0, "127.0.0.1");
  const { account, user } = await app.services.accounts.create({
    email: "bench@example.com",
    password: "bench-password-1",
    balance: "10",
    timezone: "UTC",
  });
  const assistant = await app.db.prisma.assistant.create({
    data: { accountId: account.id, userId: user.id, name: "Bench", initialMessage: "Hello" },
  });

  const pages = await startPageServer({
    "/voxgate-chat.js": { type: "text/javascript", body: embed },
    "/baseline.js": { type: "text/javascript", body: baseline },
  });
  const widgetPage = timingPage(
    `${pages.url}/voxgate-chat.js`,
    `<voxgate-chat assistant="${assistant.uuid}" api-base="${apiBase}"></voxgate-chat>`,
  );
  const baselinePage = timingPage(`${pages.url}/baseline.js`, "<baseline-bubble></baseline-bubble>");

  const browser = await chromium.launch(chromiumLaunchOptions);
  const time = async (html: string): Promise<number[]> => {
    const durations: number[] = [];
    for (let run = -3; run < runs; run++) {
      // A fresh context each time: cold HTTP cache and compiled-code cache, like a first visit.
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.route(`${pages.url}/page.html`, (route) =>
        route.fulfill({ contentType: "text/html", body: html }),
      );
      await page.goto(`${pages.url}/page.html`);
      const duration = await page.evaluate(
        () => (window as unknown as { bubbleShown: Promise<number> }).bubbleShown,
      );
      if (run >= 0) durations.push(duration);
      await context.close();
    }
    return durations.sort((a, b) => a - b);
  };
  // Interleaving is not needed for fairness here: each sample is a fresh context, and the baseline
  // runs first and last so drift in machine load shows up as a difference between its two passes.
  const baselineFirst = await time(baselinePage);
  const widget = await time(widgetPage);
  const baselineLast = await time(baselinePage);
  await browser.close();
  pages.server.close();
  await app.close();

  const ms = (value: number) => `${value.toFixed(1)} ms`.padStart(9);
  const row = (label: string, sorted: number[]) =>
    `  ${label.padEnd(34)}${ms(percentile(sorted, 50))}${ms(percentile(sorted, 95))}`;
  const overBudget = embedGzip > BUDGET_BYTES;
  console.log(`Embed file size, gzip -9 (budget ${kb(BUDGET_BYTES)} including Lit)
  dist/voxgate-chat.js              ${kb(embedGzip).padStart(9)}  (${kb(embed.length)} raw)  ${overBudget ? "OVER BUDGET" : "within budget"}
  baseline: Lit alone, same build   ${kb(baselineGzip).padStart(9)}  (${kb(baseline.length)} raw)
  the widget's own code             ${kb(embedGzip - baselineGzip).padStart(9)}

Script inserted → launcher bubble visible, headless Chromium, cold cache, ${runs} runs each
                                       median      p95
${row("voxgate-chat (incl. settings GET)", widget)}
${row("baseline: bare Lit bubble (1st)", baselineFirst)}
${row("baseline: bare Lit bubble (2nd)", baselineLast)}`);
  if (overBudget) process.exitCode = 1;
}

await main();
