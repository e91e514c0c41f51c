/**
 * `voxgate test`: runs a suite on a server through its public GraphQL API (an API key, as in an
 * owner's CI), waits for the run and reports it as JUnit XML. It loads nothing of the server.
 */

/** What the client reads of a finished run. */
export interface ClientRun {
  id: number;
  suiteId: number;
  status: string;
  total: number;
  passed: number;
  failed: number;
  errored: number;
  cost: string;
  startedAt: string | null;
  finishedAt: string | null;
  results: {
    scenarioId: number;
    scenarioName: string;
    status: string;
    error: string;
    endedBy: string;
    startedAt: string | null;
    finishedAt: string | null;
    transcript: { role: string; content: string }[];
    checks: { description: string; passed: boolean; detail: string }[];
    judge: { criterion: string; passed: boolean; reasoning: string }[];
  }[];
}

const RUN_FIELDS = `id suiteId status total passed failed errored cost startedAt finishedAt
  results { scenarioId scenarioName status error endedBy startedAt finishedAt
    transcript { role content } checks { description passed detail } judge { criterion passed reasoning } }`;

const FINISHED = new Set(["passed", "failed", "timed_out"]);

export class TestClientError extends Error {}

async function graphql<Data>(
  url: string,
  apiKey: string,
  query: string,
  variables: Record<string, unknown>,
): Promise<Data> {
  let response: Response;
  try {
    response = await fetch(new URL("/graphql", url), {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${apiKey}` },
      body: JSON.stringify({ query, variables }),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    throw new TestClientError(`The server at ${url} could not be reached: ${(error as Error).message}`);
  }
  const body = (await response.json().catch(() => null)) as {
    data?: Data;
    errors?: { message: string }[];
  } | null;
  if (body?.errors?.length) throw new TestClientError(body.errors.map((error) => error.message).join("\n"));
  if (!response.ok || !body?.data) throw new TestClientError(`The server answered HTTP ${response.status}.`);
  return body.data;
}

/** Starts the suite's run and polls it until it finished (the server bounds its duration). */
export async function runSuite(options: {
  url: string;
  apiKey: string;
  suiteId: number;
  concurrency?: number;
  pollMs?: number;
  onProgress?: (run: { status: string; done: number; total: number }) => void;
}): Promise<ClientRun> {
  const { url, apiKey } = options;
  const started = await graphql<{ runTestSuite: { id: number } }>(
    url,
    apiKey,
    "mutation ($suiteId: Int!, $concurrency: Int) { runTestSuite(suiteId: $suiteId, concurrency: $concurrency) { id } }",
    { suiteId: options.suiteId, concurrency: options.concurrency ?? null },
  );
  const id = started.runTestSuite.id;
  let reported = -1;
  for (;;) {
    const { testRun } = await graphql<{ testRun: ClientRun }>(
      url,
      apiKey,
      `query ($id: Int!) { testRun(id: $id) { ${RUN_FIELDS} } }`,
      { id },
    );
    const done = testRun.passed + testRun.failed + testRun.errored;
    if (done !== reported) {
      reported = done;
      options.onProgress?.({ status: testRun.status, done, total: testRun.total });
    }
    if (FINISHED.has(testRun.status)) return testRun;
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 1000));
  }
}

function xmlText(text: string): string {
  return (
    text
      // Characters XML 1.0 cannot carry at all are left out.
      .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, "")
      .replaceAll("&", "&amp;")
      .replaceAll("<", "&lt;")
      .replaceAll(">", "&gt;")
      .replaceAll('"', "&quot;")
  );
}

function seconds(from: string | null, to: string | null): string {
  if (!from || !to) return "0";
  return Math.max(0, (Date.parse(to) - Date.parse(from)) / 1000).toFixed(3);
}

/** The run as JUnit XML: one test case per scenario; a failed one says which checks and criteria failed. */
export function junitXml(run: ClientRun): string {
  const cases = run.results.map((result) => {
    const attributes = `classname="voxgate.suite${run.suiteId}" name="${xmlText(result.scenarioName)}" time="${seconds(result.startedAt, result.finishedAt)}"`;
    const transcript = result.transcript.map((line) => `${line.role}: ${line.content}`).join("\n");
    if (result.status === "passed") return `    <testcase ${attributes}/>`;
    if (result.status === "failed") {
      const reasons = [
        ...result.checks
          .filter((check) => !check.passed)
          .map((check) => `${check.description}: ${check.detail}`),
        ...result.judge
          .filter((verdict) => !verdict.passed)
          .map((verdict) => `${verdict.criterion}: ${verdict.reasoning}`),
      ];
      return [
        `    <testcase ${attributes}>`,
        `      <failure message="${xmlText(reasons[0] ?? "failed")}" type="failed">${xmlText(
          `${reasons.join("\n")}\n\nEnded by: ${result.endedBy}\n\n${transcript}`,
        )}</failure>`,
        "    </testcase>",
      ].join("\n");
    }
    return [
      `    <testcase ${attributes}>`,
      `      <error message="${xmlText(result.error || result.status)}" type="error">${xmlText(transcript)}</error>`,
      "    </testcase>",
    ].join("\n");
  });
  const counts = `tests="${run.total}" failures="${run.failed}" errors="${run.errored}"`;
  const time = seconds(run.startedAt, run.finishedAt);
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="voxgate" ${counts} time="${time}">`,
    `  <testsuite name="suite ${run.suiteId} run ${run.id}" ${counts} time="${time}">`,
    ...cases,
    "  </testsuite>",
    "</testsuites>",
    "",
  ].join("\n");
}
