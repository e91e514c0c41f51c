import { createHmac, randomBytes, randomInt } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { PUBLIC_BASE_URL } from "./test-app.ts";

/**
 * A stand-in for Twilio's REST API (2010-04-01) as its documentation describes it: HTTP Basic auth
 * with the account SID and auth token, form-encoded requests, JSON resources and Twilio-style
 * errors ({code, message, status}). It implements what Voxgate uses: Calls (create, update, fetch),
 * IncomingPhoneNumbers (create, delete), OutgoingCallerIds (list, delete), ValidationRequests and
 * Messages (create).
 * The official `twilio` client reaches it through TWILIO_API_BASE_URL.
 *
 * Caller ID validation follows Twilio's protocol: a ValidationRequest (POST OutgoingCallerIds.json)
 * answers a six-digit validation_code and Twilio calls the number; whoever answers types digits
 * (`answerValidationCall`); the right code makes the number an OutgoingCallerId (listed from then on)
 * and the request's StatusCallback is posted, signed, with VerificationStatus success (or failed).
 *
 * Messaging follows Twilio's too: a Message is created (201, status queued) only from one of the
 * account's incoming numbers (21606 otherwise) and never to a recipient who unsubscribed (21610);
 * the test then moves it on (`reportMessage`), which posts its StatusCallback signed, with
 * MessageSid, MessageStatus and, for undelivered and failed ones, ErrorCode. `receiveText` posts an
 * inbound text to the number's SmsUrl as Twilio does.
 */

export interface RecordedTwilioRequest {
  method: string;
  /** The path after /2010-04-01/Accounts/{AccountSid}, e.g. /Calls.json */
  resource: string;
  /** Form fields; a repeated field keeps every value. */
  params: Record<string, string | string[]>;
}

export interface FakeTwilio {
  baseUrl: string;
  accountSid: string;
  authToken: string;
  requests: RecordedTwilioRequest[];
  /** Numbers whose purchase Twilio refuses as unavailable (error 21422). */
  unavailableNumbers: Set<string>;
  /** Numbers to which creating a call fails (error 21217, invalid number). */
  undialableNumbers: Set<string>;
  /** The price Twilio reports when an ended call is fetched. */
  callPrice: string;
  /** Incoming numbers whose release (DELETE) fails with a server error, by phone number. */
  failingReleases: Set<string>;
  /** Recipients who replied STOP on Twilio: sending to them fails with error 21610. */
  unsubscribedRecipients: Set<string>;
  /** Numbers offered for sale without SMS (`capabilities.sms` false): texts from them fail with 21606. */
  voiceOnlyNumbers: Set<string>;
  /** Messages created, by sid. */
  messages: Map<string, FakeMessage>;
  /** Calls created through the REST API, by sid, as its updates left them (`status` among others). */
  calls: Map<string, Record<string, unknown>>;
  /**
   * Twilio's progress on message `sid`: posts its StatusCallback (signed) to the app at `appUrl` with
   * `status` (and `errorCode` for undelivered and failed ones). Returns the HTTP status answered.
   */
  reportMessage(sid: string, status: string, appUrl: string, errorCode?: string): Promise<number>;
  /**
   * A text from `from` arrives on incoming number `to`: posted, signed, to its SmsUrl on the app at
   * `appUrl`. Returns the TwiML answered.
   */
  receiveText(
    text: { from: string; to: string; body: string; messageSid?: string },
    appUrl: string,
  ): Promise<string>;
  /**
   * Someone answers Twilio's validation call to `phoneNumber` and types `digits`: the outcome is posted
   * to the request's StatusCallback on the app at `appUrl` (signed for the public URL it names); with
   * null the callback is lost on its way.
   */
  answerValidationCall(phoneNumber: string, digits: string, appUrl: string | null): Promise<void>;
  close(): Promise<void>;
}

export interface FakeMessage {
  sid: string;
  from: string;
  to: string;
  body: string;
  status: string;
  statusCallback: string;
}

interface PendingValidation {
  code: string;
  callSid: string;
  statusCallback: string;
}

const sid = (prefix: string) => `${prefix}${randomBytes(16).toString("hex")}`;

export async function startFakeTwilio(): Promise<FakeTwilio> {
  const accountSid = sid("AC");
  const authToken = randomBytes(16).toString("hex");
  const requests: RecordedTwilioRequest[] = [];
  const calls = new Map<string, Record<string, unknown>>();
  /** Incoming numbers bought, by sid: their phone numbers. */
  const incoming = new Map<string, string>();
  /** Where Twilio posts texts to each incoming number (its SmsUrl), by phone number. */
  const smsUrls = new Map<string, string>();
  const messages = new Map<string, FakeMessage>();
  /** Validation calls not answered yet, by phone number (a new request replaces the last). */
  const validations = new Map<string, PendingValidation>();
  /** Verified caller IDs, by sid. */
  const callerIds = new Map<string, string>();
  const fake = {
    accountSid,
    authToken,
    requests,
    unavailableNumbers: new Set<string>(),
    undialableNumbers: new Set<string>(),
    failingReleases: new Set<string>(),
    unsubscribedRecipients: new Set<string>(),
    voiceOnlyNumbers: new Set<string>(),
    messages,
    calls,
    callPrice: "-0.01300",
  };
  const expectedAuth = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString("base64")}`;

  const server: Server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const params: Record<string, string | string[]> = {};
    for (const [name, value] of new URLSearchParams(Buffer.concat(chunks).toString("utf8"))) {
      const existing = params[name];
      params[name] = existing === undefined ? value : [...[existing].flat(), value];
    }
    const url = new URL(request.url ?? "/", "http://localhost");
    const reply = (status: number, body?: unknown) => {
      response.writeHead(status, { "content-type": "application/json" });
      response.end(body === undefined ? "" : JSON.stringify(body));
    };
    const error = (status: number, code: number, message: string) =>
      reply(status, { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status });
    if (request.headers.authorization !== expectedAuth) return error(401, 20003, "Authenticate");
    const prefix = `/2010-04-01/Accounts/${accountSid}`;
    if (!url.pathname.startsWith(prefix)) return error(404, 20404, "The requested resource was not found");
    const resource = url.pathname.slice(prefix.length);
    for (const [name, value] of url.searchParams) params[name] = value;
    requests.push({ method: request.method ?? "GET", resource, params });
    const one = (name: string) => String([params[name] ?? ""].flat()[0]);

    if (request.method === "POST" && resource === "/Calls.json") {
      if (fake.undialableNumbers.has(one("To"))) {
        return error(400, 21217, "Phone number does not appear to be valid");
      }
      const call = {
        sid: sid("CA"),
        account_sid: accountSid,
        to: one("To"),
        from: one("From"),
        status: "queued",
        price: null,
        direction: "outbound-api",
      };
      calls.set(call.sid, call);
      return reply(201, call);
    }
    const callMatch = /^\/Calls\/(CA[0-9a-f]{32})\.json$/.exec(resource);
    if (callMatch) {
      const call = calls.get(callMatch[1]!);
      if (!call) return error(404, 20404, "The requested resource was not found");
      if (request.method === "POST") {
        if (call.status === "completed" || call.status === "canceled")
          return error(400, 21220, "Call is not in-progress. Cannot redirect.");
        if (params.Status) call.status = one("Status");
        return reply(200, call);
      }
      return reply(200, { ...call, price: fake.callPrice, price_unit: "USD" });
    }
    if (request.method === "POST" && resource === "/IncomingPhoneNumbers.json") {
      if (fake.unavailableNumbers.has(one("PhoneNumber"))) {
        return error(400, 21422, "PhoneNumber requested is not available");
      }
      const numberSid = sid("PN");
      incoming.set(numberSid, one("PhoneNumber"));
      smsUrls.set(one("PhoneNumber"), one("SmsUrl"));
      return reply(201, {
        sid: numberSid,
        phone_number: one("PhoneNumber"),
        voice_url: one("VoiceUrl"),
        capabilities: {
          voice: true,
          sms: !fake.voiceOnlyNumbers.has(one("PhoneNumber")),
          mms: false,
          fax: false,
        },
      });
    }
    if (request.method === "POST" && resource === "/Messages.json") {
      if (![...incoming.values()].includes(one("From")) || fake.voiceOnlyNumbers.has(one("From"))) {
        return error(400, 21606, "The From phone number is not a valid, SMS-capable inbound phone number");
      }
      if (!one("Body")) return error(400, 21602, "Message body is required.");
      if (fake.unsubscribedRecipients.has(one("To"))) {
        return error(400, 21610, "Attempt to send to unsubscribed recipient");
      }
      const message: FakeMessage = {
        sid: sid("SM"),
        from: one("From"),
        to: one("To"),
        body: one("Body"),
        status: "queued",
        statusCallback: one("StatusCallback"),
      };
      messages.set(message.sid, message);
      return reply(201, {
        sid: message.sid,
        account_sid: accountSid,
        from: message.from,
        to: message.to,
        body: message.body,
        status: message.status,
        direction: "outbound-api",
        num_segments: "1",
        price: null,
        price_unit: "USD",
        error_code: null,
        error_message: null,
        api_version: "2010-04-01",
        uri: `/2010-04-01/Accounts/${accountSid}/Messages/${message.sid}.json`,
      });
    }
    const incomingMatch = /^\/IncomingPhoneNumbers\/(PN[0-9a-f]{32})\.json$/.exec(resource);
    if (request.method === "DELETE" && incomingMatch) {
      if (fake.failingReleases.has(incoming.get(incomingMatch[1]!) ?? "")) {
        return error(500, 20500, "Internal Server Error");
      }
      incoming.delete(incomingMatch[1]!);
      response.writeHead(204).end();
      return;
    }
    if (request.method === "POST" && resource === "/OutgoingCallerIds.json") {
      const validation = {
        code: String(randomInt(0, 1_000_000)).padStart(6, "0"),
        callSid: sid("CA"),
        statusCallback: one("StatusCallback"),
      };
      validations.set(one("PhoneNumber"), validation);
      return reply(201, {
        account_sid: accountSid,
        phone_number: one("PhoneNumber"),
        friendly_name: one("FriendlyName"),
        validation_code: validation.code,
        call_sid: validation.callSid,
      });
    }
    if (request.method === "GET" && resource === "/OutgoingCallerIds.json") {
      const listed = [...callerIds].filter(
        ([, phoneNumber]) => !params.PhoneNumber || phoneNumber === one("PhoneNumber"),
      );
      return reply(200, {
        outgoing_caller_ids: listed.map(([callerIdSid, phoneNumber]) => ({
          sid: callerIdSid,
          account_sid: accountSid,
          phone_number: phoneNumber,
        })),
        meta: { page: 0, page_size: 50, next_page_url: null, key: "outgoing_caller_ids" },
        page: 0,
        page_size: 50,
        next_page_uri: null,
      });
    }
    const callerIdMatch = /^\/OutgoingCallerIds\/(PN[0-9a-f]{32})\.json$/.exec(resource);
    if (request.method === "DELETE" && callerIdMatch) {
      if (!callerIds.delete(callerIdMatch[1]!)) {
        return error(404, 20404, "The requested resource was not found");
      }
      response.writeHead(204).end();
      return;
    }
    return error(404, 20404, "The requested resource was not found");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    ...fake,
    baseUrl: `http://127.0.0.1:${port}`,
    get callPrice() {
      return fake.callPrice;
    },
    set callPrice(value: string) {
      fake.callPrice = value;
    },
    async answerValidationCall(phoneNumber: string, digits: string, appUrl: string | null) {
      const validation = validations.get(phoneNumber);
      if (!validation) throw new Error(`no validation call to ${phoneNumber}`);
      validations.delete(phoneNumber);
      const verified = digits === validation.code;
      const params: Record<string, string> = {
        AccountSid: accountSid,
        CallSid: validation.callSid,
        CallStatus: "completed",
        To: phoneNumber,
        VerificationStatus: verified ? "success" : "failed",
      };
      if (verified) {
        const callerIdSid = sid("PN");
        callerIds.set(callerIdSid, phoneNumber);
        params.OutgoingCallerIdSid = callerIdSid;
      }
      if (!validation.statusCallback || appUrl === null) return;
      const url = new URL(validation.statusCallback);
      await postTwilioWebhook({ appUrl, authToken }, `${url.pathname}${url.search}`, params);
    },
    async reportMessage(messageSid: string, status: string, appUrl: string, errorCode?: string) {
      const message = messages.get(messageSid);
      if (!message) throw new Error(`no message ${messageSid}`);
      message.status = status;
      const params: Record<string, string> = {
        AccountSid: accountSid,
        ApiVersion: "2010-04-01",
        From: message.from,
        MessageSid: message.sid,
        MessageStatus: status,
        SmsSid: message.sid,
        SmsStatus: status,
        To: message.to,
        ...(errorCode ? { ErrorCode: errorCode } : {}),
      };
      const url = new URL(message.statusCallback);
      return (await postTwilioWebhookResponse({ appUrl, authToken }, `${url.pathname}${url.search}`, params))
        .status;
    },
    async receiveText(text: { from: string; to: string; body: string; messageSid?: string }, appUrl: string) {
      const smsUrl = smsUrls.get(text.to);
      if (!smsUrl) throw new Error(`${text.to} is not an incoming number`);
      const messageSid = text.messageSid ?? sid("SM");
      const url = new URL(smsUrl);
      return postTwilioWebhook({ appUrl, authToken }, `${url.pathname}${url.search}`, {
        AccountSid: accountSid,
        ApiVersion: "2010-04-01",
        Body: text.body,
        From: text.from,
        MessageSid: messageSid,
        NumMedia: "0",
        NumSegments: "1",
        SmsMessageSid: messageSid,
        SmsSid: messageSid,
        SmsStatus: "received",
        To: text.to,
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * X-Twilio-Signature as Twilio computes it: HMAC-SHA1 with the auth token over the full URL
 * followed by each POST field's name and value, sorted by name; base64.
 */
export function twilioSignature(authToken: string, url: string, params: Record<string, string>): string {
  const data = Object.keys(params)
    .sort()
    .reduce((text, name) => text + name + params[name], url);
  return createHmac("sha1", authToken).update(data).digest("base64");
}

/**
 * POSTs one of Twilio's webhooks to the app at `appUrl` as Twilio does: a form signed for the URL
 * Twilio was given (PUBLIC_BASE_URL + path + query). Returns the answer's text (TwiML or empty).
 */
export async function postTwilioWebhook(
  target: { appUrl: string; authToken: string },
  pathAndQuery: string,
  params: Record<string, string>,
): Promise<string> {
  return (await postTwilioWebhookResponse(target, pathAndQuery, params)).text();
}

async function postTwilioWebhookResponse(
  target: { appUrl: string; authToken: string },
  pathAndQuery: string,
  params: Record<string, string>,
): Promise<Response> {
  return fetch(`${target.appUrl}${pathAndQuery}`, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      "x-twilio-signature": twilioSignature(target.authToken, `${PUBLIC_BASE_URL}${pathAndQuery}`, params),
    },
    body: new URLSearchParams(params),
  });
}
