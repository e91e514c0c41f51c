import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { type AddressInfo, createServer as createTcpServer } from "node:net";
import type { TestProject } from "vitest/node";
import type { App } from "../../../server/src/app.ts";
import { hashPassword } from "../../../server/src/modules/auth/password.ts";
import {
  browserTestSetup,
  startInProcessServer,
  startRealtimeStandIn,
} from "../../../server/test/support/browser-test-servers.ts";
import { startFakeCalCom } from "../../../server/test/support/fake-calcom.ts";
import { startFakeOpenAI } from "../../../server/test/support/fake-openai.ts";
import type { FakeRealtime, FakeRealtimeAnswer } from "../../../server/test/support/fake-realtime.ts";
import { startFakeSpeech } from "../../../server/test/support/fake-speech.ts";
import { findRadicale, type RunningRadicale, startRadicale } from "../../../server/test/support/radicale.ts";
import { startSmtpServer } from "../../../server/test/support/smtp.ts";
import { removeFakeMicrophone } from "../../../widget/test/support/fake-microphone.ts";
import { seedInsightsHistory } from "./insights-history.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** The real Voxgate server the console talks to. */
    apiBase: string;
    /** A second real server whose speech-to-text service cannot be reached (accounts: `server: "deaf"`). */
    deafApiBase: string;
    /** A third real server with no chat model: the fallback answers (accounts: `server: "modelless"`). */
    modellessApiBase: string;
    /** Arranges accounts for a test (see `startControlServer`). */
    controlUrl: string;
    /** Whether a real CalDAV server (Radicale) runs for the calendar tests. */
    caldav: boolean;
    /** The Cal.com stand-in the server books through: the key it accepts and its one event type. */
    calcom: { apiKey: string; eventTypeId: number };
  }
}

/** A fresh CalDAV calendar on the test's Radicale, with the credentials that open it. */
export interface CreatedCalendar {
  url: string;
  username: string;
  password: string;
}

const CALDAV_USER = "desk";
const CALDAV_PASSWORD = `pw-${randomBytes(6).toString("hex")}`;

export interface CreatedAccount {
  email: string;
  password: string;
  accountId: number;
}

/**
 * Starts one real Voxgate server (in-memory PGlite, answering through the real `openai` client from
 * an OpenAI-compatible test server, which also embeds documents, and booking through the Cal.com
 * stand-in, its multimodal and dualplex assistants through the OpenAI Realtime stand-in) and a control server that creates accounts, the one thing a test needs that no console
 * screen does. The widget's embed build is
 * made first (stamped, so only when its sources changed): the assistant preview loads it.
 */
export default function setup(project: TestProject) {
  return browserTestSetup(async (cleanups) => {
    const llm = await startFakeOpenAI();
    cleanups.push(() => llm.close());
    llm.respondWith((request) => {
      // The test judge (agent tests' criteria): a criterion passes when the words it quotes were said.
      if (
        (request.response_format as { json_schema?: { name?: string } })?.json_schema?.name === "test_verdict"
      ) {
        const [criteria = "", transcript = ""] = (request.messages.at(-1)?.content ?? "").split(
          "\n\nTranscript:\n",
        );
        const verdicts = [...criteria.matchAll(/^(\d+)\. (.*)$/gm)].map(([, number, criterion]) => {
          const quoted = /"([^"]+)"/.exec(criterion ?? "")?.[1];
          const passed = quoted !== undefined && transcript.includes(quoted);
          return {
            criterion: Number(number),
            passed,
            reasoning:
              quoted === undefined
                ? "The criterion quotes nothing to look for."
                : `"${quoted}" was ${passed ? "" : "not "}said.`,
          };
        });
        return { content: JSON.stringify({ verdicts }) };
      }
      const lastUser = request.messages.findLastIndex((message) => message.role === "user");
      const last = request.messages[lastUser]?.content ?? "";
      // A customer asking for a person: the model calls request_human when it is offered, then says
      // what its result asks it to tell the customer.
      if (
        last === "I need a person" &&
        request.tools?.some((tool) => tool.function.name === "request_human")
      ) {
        const result = request.messages.slice(lastUser + 1).find((message) => message.role === "tool");
        if (!result)
          return { toolCalls: [{ name: "request_human", arguments: { reason: "asked for a person" } }] };
        return {
          content: (JSON.parse(result.content ?? "{}") as { tell_customer?: string }).tell_customer ?? "",
        };
      }
      return { content: `Echo: ${last}` };
    });
    // The test call hears and speaks through the fake speech server (tone speech).
    const speech = await startFakeSpeech();
    cleanups.push(() => speech.close());
    cleanups.push(async () => removeFakeMicrophone("console"));
    // Cal.com's API v2 as documented, on loopback: the server's real Cal.com client talks to it.
    const calcom = await startFakeCalCom();
    cleanups.push(() => calcom.close());
    // Multimodal and dualplex assistants talk to the OpenAI Realtime stand-in.
    const { realtime, env: realtimeEnv } = await startRealtimeStandIn(cleanups);
    const { app, url } = await startInProcessServer(llm.baseUrl, {
      ...calcom.env,
      ...realtimeEnv,
      OPENAI_STT_BASE_URL: speech.baseUrl,
      OPENAI_TTS_BASE_URL: speech.baseUrl,
      VOXGATE_WIDGET_RATE_LIMIT_PER_MINUTE: "100000",
      VOXGATE_CONVERSATION_RATE_LIMIT_PER_MINUTE: "100000",
      // Webhooks go to the control server's /hook on loopback.
      VOXGATE_OUTBOUND_ALLOWLIST: "127.0.0.1",
    });
    cleanups.push(() => app.close());
    // A real SMTP server that refuses every address at bounce.example (550), as mail servers do.
    const smtp = await startSmtpServer({ refused: (address) => address.endsWith("@bounce.example") });
    cleanups.push(() => smtp.stop());
    // The same, but hearing through a port nothing listens on any more: its calls cannot hear. It also
    // emails invitation links through the SMTP server (the main one has none, as by default).
    const deaf = await startInProcessServer(llm.baseUrl, {
      OPENAI_STT_BASE_URL: `http://127.0.0.1:${await closedPort()}/v1`,
      OPENAI_TTS_BASE_URL: speech.baseUrl,
      VOXGATE_SMTP_URL: smtp.url,
      VOXGATE_MAIL_FROM: "Voxgate <voxgate@example.test>",
    });
    cleanups.push(() => deaf.app.close());
    const modelless = await startInProcessServer(null, {
      OPENAI_STT_BASE_URL: speech.baseUrl,
      OPENAI_TTS_BASE_URL: speech.baseUrl,
    });
    cleanups.push(() => modelless.app.close());
    // The calendar tests need a real CalDAV server (as the server's own do); without radicale they are skipped.
    const radicale = findRadicale() ? await startRadicale({ [CALDAV_USER]: CALDAV_PASSWORD }) : null;
    if (radicale) cleanups.push(() => radicale.stop());
    const control = await startControlServer(
      { main: app, deaf: deaf.app, modelless: modelless.app },
      radicale,
      realtime,
    );
    cleanups.push(control.close);
    project.provide("apiBase", url);
    project.provide("deafApiBase", deaf.url);
    project.provide("modellessApiBase", modelless.url);
    project.provide("controlUrl", control.url);
    project.provide("caldav", radicale !== null);
    project.provide("calcom", { apiKey: calcom.apiKey, eventTypeId: calcom.eventType.id });
  });
}

/** A loopback port that was just free: connections to it are refused. */
async function closedPort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function startControlServer(
  apps: { main: App; deaf: App; modelless: App },
  radicale: RunningRadicale | null,
  realtime: FakeRealtime,
) {
  // A page that answers 404 until POST /publish, for a document that fails and then succeeds.
  let published = false;
  const server = createServer(async (request, response) => {
    const cors = { "access-control-allow-origin": "*", "access-control-allow-headers": "content-type" };
    if (request.method === "OPTIONS") {
      response.writeHead(204, cors).end();
      return;
    }
    if (request.url === "/site") {
      response
        .writeHead(published ? 200 : 404, { "content-type": "text/html; charset=utf-8" })
        .end(
          published
            ? "<html><body><main><h1>Opening hours</h1><p>The shop opens at nine every morning, Sundays included.</p></main></body></html>"
            : "<p>not found</p>",
        );
      return;
    }
    if (request.method === "POST" && request.url === "/publish") {
      published = true;
      response.writeHead(204, cors).end();
      return;
    }
    // A webhook receiver that accepts every event, for the delivery log.
    if (request.method === "POST" && request.url === "/hook") {
      await readJson(request);
      response.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
      return;
    }
    if (radicale && request.method === "POST" && request.url?.startsWith("/calendars")) {
      try {
        await calendarControl(radicale, request, response, cors);
      } catch (error) {
        response.writeHead(500, cors).end(String(error));
      }
      return;
    }
    // What the Realtime stand-in answers next, in order, before it echoes again (fake-realtime.ts).
    if (request.method === "POST" && request.url === "/realtime/answers") {
      const { answers } = await readJson(request);
      realtime.enqueue(...(answers as FakeRealtimeAnswer[]));
      response.writeHead(204, cors).end();
      return;
    }
    // A history of calls for the overview screen (insights-history.ts).
    if (request.method === "POST" && request.url === "/history") {
      const { accountId, assistantIds } = await readJson(request);
      await seedInsightsHistory(apps.main, Number(accountId), (assistantIds as number[]).map(Number));
      response.writeHead(204, cors).end();
      return;
    }
    // A second member of an account (a User row of it), until the console invites members itself.
    if (request.method === "POST" && request.url === "/members") {
      try {
        const body = await readJson(request);
        const email = `member-${randomBytes(5).toString("hex")}@example.com`;
        const password = `pw-${randomBytes(8).toString("hex")}`;
        const user = await apps.main.db.prisma.user.create({
          data: {
            accountId: Number(body.accountId),
            email,
            name: String(body.name ?? "Teammate"),
            passwordHash: await hashPassword(password),
          },
        });
        response
          .writeHead(200, { ...cors, "content-type": "application/json" })
          .end(JSON.stringify({ email, password, userId: user.id }));
      } catch (error) {
        response.writeHead(500, cors).end(String(error));
      }
      return;
    }
    if (request.method !== "POST" || request.url !== "/accounts") {
      response.writeHead(404, cors).end();
      return;
    }
    try {
      const body = await readJson(request);
      const app =
        body.server === "deaf" ? apps.deaf : body.server === "modelless" ? apps.modelless : apps.main;
      const email = `console-${randomBytes(5).toString("hex")}@example.com`;
      const password = `pw-${randomBytes(8).toString("hex")}`;
      const { account } = await app.services.accounts.create({
        email,
        password,
        balance: "10",
        timezone: "UTC",
      });
      if (body.operator === true) {
        await app.db.prisma.account.update({ where: { id: account.id }, data: { isOperator: true } });
      }
      response
        .writeHead(200, { ...cors, "content-type": "application/json" })
        .end(JSON.stringify({ email, password, accountId: account.id } satisfies CreatedAccount));
    } catch (error) {
      response.writeHead(500, cors).end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Arranges CalDAV calendars on the test's Radicale: new ones, events of other clients, removal. */
async function calendarControl(
  radicale: RunningRadicale,
  request: IncomingMessage,
  response: ServerResponse,
  cors: Record<string, string>,
): Promise<void> {
  // A new calendar (MKCALENDAR), and the removal of one, which breaks the connections that use it.
  if (request.url === "/calendars") {
    const url = await radicale.makeCalendar(CALDAV_USER, `cal-${randomBytes(5).toString("hex")}`);
    response
      .writeHead(200, { ...cors, "content-type": "application/json" })
      .end(
        JSON.stringify({ url, username: CALDAV_USER, password: CALDAV_PASSWORD } satisfies CreatedCalendar),
      );
    return;
  }
  // An event another client wrote: busy from `from` to `to` (ISO times).
  if (request.url === "/calendars/busy") {
    const { url, from, to } = await readJson(request);
    const stamp = (iso: unknown) => new Date(String(iso)).toISOString().replace(/[-:]|\.\d{3}/g, "");
    const uid = randomBytes(8).toString("hex");
    await radicale.putObject(
      String(url),
      `${uid}.ics`,
      [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//voxgate console test//EN",
        "BEGIN:VEVENT",
        `UID:${uid}`,
        `DTSTAMP:${stamp(new Date().toISOString())}`,
        `DTSTART:${stamp(from)}`,
        `DTEND:${stamp(to)}`,
        "SUMMARY:Away",
        "END:VEVENT",
        "END:VCALENDAR",
        "",
      ].join("\r\n"),
      CALDAV_USER,
    );
    response.writeHead(204, cors).end();
    return;
  }
  if (request.url === "/calendars/delete") {
    const { url } = await readJson(request);
    const removed = await fetch(String(url), {
      method: "DELETE",
      headers: {
        authorization: `Basic ${Buffer.from(`${CALDAV_USER}:${CALDAV_PASSWORD}`).toString("base64")}`,
      },
    });
    response.writeHead(removed.ok ? 204 : 500, cors).end();
    return;
  }
  response.writeHead(404, cors).end();
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}
