import type { RequestOptions } from "twilio/lib/base/RequestClient.js";
import type { ServiceDeps } from "../../../deps.ts";
import { AppError, NumberUnavailableError, RecipientOptedOutError } from "../../../errors.ts";
import { lazyRequire } from "../../../lazy-require.ts";
import {
  type CallerIdChallenge,
  type ProviderNumber,
  type TelephonyProvider,
  TRANSFER_RING_SECONDS,
} from "../provider.ts";

/** The official client (~25 MB once loaded): only instances whose carrier is Twilio load it. */
export const twilioLibrary = lazyRequire<typeof import("twilio")>("twilio");

const TWILIO_API = "https://api.twilio.com";

/** Twilio's error codes for a number that cannot be bought (taken, or not offered). */
const NUMBER_UNAVAILABLE_CODES = new Set([21422, 21452]);
/** "Call is not in-progress. Cannot redirect.": the call already ended, which is what hanging up wants. */
const CALL_ALREADY_ENDED = 21220;
/** "Attempt to send to unsubscribed recipient": the recipient replied STOP to the sender on Twilio. */
const RECIPIENT_UNSUBSCRIBED = 21610;

/** The paths Twilio calls back on, under PUBLIC_BASE_URL (see src/http/twilio.ts). */
export const TWILIO_PATHS = {
  voice: "/telephony/twilio/voice",
  outbound: "/telephony/twilio/outbound",
  status: "/telephony/twilio/status",
  amd: "/telephony/twilio/amd",
  media: "/telephony/twilio/media",
  /** The outcome of a caller ID's verification call (a ValidationRequest's StatusCallback). */
  callerId: "/telephony/twilio/caller-id",
  /** A text to one of the numbers (their SmsUrl). */
  sms: "/telephony/twilio/sms",
  /** An outbound text's status (its StatusCallback, with ?textId=). */
  smsStatus: "/telephony/twilio/sms-status",
  /** A transfer's leg status (its `<Number>`'s or `<Sip>`'s statusCallback, with ?callId= the leg). */
  transferStatus: "/telephony/twilio/transfer-status",
  /** A transfer's `<Dial>` ended (its action, with ?callId= the leg): what the caller's call does next. */
  transferAction: "/telephony/twilio/transfer-action",
  /** A warm transfer's leg status (its StatusCallback, with ?callId= the leg). */
  warmStatus: "/telephony/twilio/warm-status",
  /** A warm transfer's leg was answered (its Url, with ?callId= the leg): the briefing. */
  warmAnswer: "/telephony/twilio/warm-answer",
  /** The answer to a warm transfer's briefing (the Gather's action, with ?callId= the leg). */
  warmDecision: "/telephony/twilio/warm-decision",
} as const;

/** The conference a warm transfer's caller waits in and the person joins, named by the leg. */
export const warmConference = (legCallId: number) => `voxgate-transfer-${legCallId}`;

/** The carrier refused or failed a request; its words are kept for the logs and the call's end reason. */
export class CarrierError extends AppError {
  constructor(detail: string) {
    super("UPSTREAM_FAILED", `The telephony provider refused the request: ${detail}`);
  }
}

/**
 * Sends every request of the official client to `baseUrl` instead of api.twilio.com, so tests (and
 * a proxy) stand in for Twilio behind the same client code. Declared on first use: the base class
 * is the lazily loaded library's.
 */
function rebasedRequestClient(baseUrl: string) {
  class RebasedRequestClient extends twilioLibrary().RequestClient {
    override request<TData>(options: RequestOptions<TData>) {
      const uri = options.uri.startsWith(TWILIO_API)
        ? `${baseUrl}${options.uri.slice(TWILIO_API.length)}`
        : options.uri;
      return super.request<TData>({ ...options, uri });
    }
  }
  return new RebasedRequestClient();
}

/**
 * Twilio through its official client: numbers are bought (with their voice webhook and status
 * callback set to Voxgate) and released through the REST API; outbound calls are created with a
 * status callback for every transition and answering machine detection; hanging up ends the call
 * with an optional spoken goodbye. Twilio's events come back through the signed webhooks of
 * src/http/twilio.ts.
 */
export class TwilioTelephonyProvider implements TelephonyProvider {
  readonly name = "twilio";
  private readonly client: import("twilio").Twilio;

  constructor(
    private readonly deps: ServiceDeps,
    settings: { accountSid: string; authToken: string; apiBaseUrl: string | undefined },
  ) {
    this.client = twilioLibrary()(settings.accountSid, settings.authToken, {
      ...(settings.apiBaseUrl ? { httpClient: rebasedRequestClient(settings.apiBaseUrl) } : {}),
    });
  }

  private url(path: string, callId?: number, idName = "callId") {
    return `${this.deps.config.publicBaseUrl}${path}${callId === undefined ? "" : `?${idName}=${callId}`}`;
  }

  async purchaseNumber(request: { accountId: number; phoneNumber: string }) {
    try {
      const number = await this.client.incomingPhoneNumbers.create({
        phoneNumber: request.phoneNumber,
        voiceUrl: this.url(TWILIO_PATHS.voice),
        voiceMethod: "POST",
        statusCallback: this.url(TWILIO_PATHS.status),
        statusCallbackMethod: "POST",
        smsUrl: this.url(TWILIO_PATHS.sms),
        smsMethod: "POST",
      });
      // A number without SMS (many toll-free and some national numbers) must not be offered for texts.
      const sms = number.capabilities?.sms;
      return { providerRef: number.sid, ...(typeof sms === "boolean" ? { smsCapable: sms } : {}) };
    } catch (error) {
      if (NUMBER_UNAVAILABLE_CODES.has(codeOf(error))) throw new NumberUnavailableError();
      throw this.failure("purchase a number", error);
    }
  }

  async cancelSubscription(number: ProviderNumber) {
    // Twilio bills a number monthly until it is released: nothing to cancel; the release sweep
    // releases it when the period Voxgate billed ends.
    this.deps.logger.info("twilio number kept until the end of its period", {
      phoneNumber: number.phoneNumber,
    });
  }

  async releaseNumber(number: ProviderNumber) {
    if (!number.providerRef) return;
    try {
      await this.client.incomingPhoneNumbers(number.providerRef).remove();
    } catch (error) {
      if (statusOf(error) === 404) return;
      throw this.failure("release a number", error);
    }
  }

  /**
   * A ValidationRequest: Twilio calls the number and asks for the six-digit code it returns here, which
   * the owner is shown; the outcome comes to the status callback (VerificationStatus), and a verified
   * number is listed in OutgoingCallerIds.
   */
  async addCallerId(request: { accountId: number; phoneNumber: string }): Promise<CallerIdChallenge> {
    try {
      const validation = await this.client.validationRequests.create({
        phoneNumber: request.phoneNumber,
        friendlyName: `Voxgate account ${request.accountId}`,
        statusCallback: this.url(TWILIO_PATHS.callerId),
        statusCallbackMethod: "POST",
      });
      return {
        method: "code-on-call",
        providerRef: `validation:${validation.callSid ?? request.phoneNumber}`,
        validationCode: validation.validationCode,
      };
    } catch (error) {
      throw this.failure("register a caller ID", error);
    }
  }

  async callerIdVerified(number: ProviderNumber) {
    try {
      const callerIds = await this.client.outgoingCallerIds.list({ phoneNumber: number.phoneNumber });
      return callerIds.some((callerId) => callerId.phoneNumber === number.phoneNumber);
    } catch (error) {
      throw this.failure("look up a caller ID", error);
    }
  }

  async removeCallerId(number: ProviderNumber) {
    try {
      const callerIds = await this.client.outgoingCallerIds.list({ phoneNumber: number.phoneNumber });
      for (const callerId of callerIds) await this.client.outgoingCallerIds(callerId.sid).remove();
    } catch (error) {
      if (statusOf(error) === 404) return;
      throw this.failure("remove a caller ID", error);
    }
  }

  /**
   * Answering machine detection runs asynchronously (the stream connects at once, so a person hears
   * no detection delay) and reports to the AMD callback: as soon as a machine is recognised when the
   * assistant hangs up on voicemail, once the greeting ended (the beep) when it leaves a message.
   */
  async placeCall(request: {
    callId: number;
    from: string;
    to: string;
    onMachine?: "hang-up" | "leave-message";
  }) {
    try {
      const call = await this.client.calls.create({
        to: request.to,
        from: request.from,
        url: this.url(TWILIO_PATHS.outbound, request.callId),
        method: "POST",
        statusCallback: this.url(TWILIO_PATHS.status, request.callId),
        statusCallbackMethod: "POST",
        statusCallbackEvent: ["initiated", "ringing", "answered", "completed"],
        machineDetection: request.onMachine === "leave-message" ? "DetectMessageEnd" : "Enable",
        asyncAmd: "true",
        asyncAmdStatusCallback: this.url(TWILIO_PATHS.amd, request.callId),
        asyncAmdStatusCallbackMethod: "POST",
      });
      return { providerCallId: call.sid };
    } catch (error) {
      throw this.failure("place a call", error);
    }
  }

  async hangUp(
    call: { callId: number; providerCallId: string | null; answered?: boolean },
    farewell?: string,
  ) {
    if (!call.providerCallId) return;
    const update = !call.answered
      ? { status: "canceled" as const }
      : farewell
        ? { twiml: sayThenHangUp(farewell) }
        : { status: "completed" as const };
    try {
      await this.client.calls(call.providerCallId).update(update);
    } catch (error) {
      if (statusOf(error) === 404 || codeOf(error) === CALL_ALREADY_ENDED) return;
      throw this.failure("hang up a call", error);
    }
  }

  /**
   * The call's own REST update with a `<Dial>`: Twilio ends the call's `<Connect><Stream>` (the
   * assistant leaves) and dials the destination with the account's number as caller ID; the leg's
   * progress goes to the transfer status callback, and the `<Dial>`'s action asks Voxgate what the
   * caller's call does once the leg ended (or was never answered).
   */
  async transferCall(request: {
    callId: number;
    providerCallId: string | null;
    legCallId: number;
    from: string;
    to: string;
    briefing?: string;
  }): Promise<{ legProviderCallId: string | null }> {
    if (!request.providerCallId) throw new CarrierError("the call has no Twilio call to transfer.");
    if (request.briefing !== undefined)
      return this.warmTransfer({ ...request, providerCallId: request.providerCallId });
    const response = new (twilioLibrary().twiml.VoiceResponse)();
    const dial = response.dial({
      callerId: request.from,
      timeout: TRANSFER_RING_SECONDS,
      action: this.url(TWILIO_PATHS.transferAction, request.legCallId),
      method: "POST",
    });
    const leg = {
      statusCallback: this.url(TWILIO_PATHS.transferStatus, request.legCallId),
      statusCallbackMethod: "POST" as const,
      statusCallbackEvent: ["initiated", "ringing", "answered", "completed"] as (
        | "initiated"
        | "ringing"
        | "answered"
        | "completed"
      )[],
    };
    if (/^sips?:/i.test(request.to)) dial.sip(leg, request.to);
    else dial.number(leg, request.to);
    try {
      await this.client.calls(request.providerCallId).update({ twiml: response.toString() });
    } catch (error) {
      throw this.failure("transfer a call", error);
    }
    // Twilio dials the `<Dial>`'s leg itself: its CallSid comes with the leg's first status callback.
    return { legProviderCallId: null };
  }

  /**
   * A warm transfer: the caller's call is put in a conference of its own (Twilio's hold music until
   * the person joins; it ends when either leaves, and the caller's call then hangs up), and the leg is
   * a call Voxgate creates, whose answer webhook plays the briefing and asks for a decision.
   */
  private async warmTransfer(request: {
    providerCallId: string;
    legCallId: number;
    from: string;
    to: string;
  }): Promise<{ legProviderCallId: string }> {
    const hold = new (twilioLibrary().twiml.VoiceResponse)();
    hold
      .dial()
      .conference(
        { startConferenceOnEnter: false, endConferenceOnExit: true, beep: "false" },
        warmConference(request.legCallId),
      );
    hold.hangup();
    try {
      await this.client.calls(request.providerCallId).update({ twiml: hold.toString() });
      const leg = await this.client.calls.create({
        to: request.to,
        from: request.from,
        url: this.url(TWILIO_PATHS.warmAnswer, request.legCallId),
        method: "POST",
        timeout: TRANSFER_RING_SECONDS,
        statusCallback: this.url(TWILIO_PATHS.warmStatus, request.legCallId),
        statusCallbackMethod: "POST",
        statusCallbackEvent: ["initiated", "ringing", "answered", "completed"],
      });
      this.deps.logger.info("twilio warm transfer leg placed", {
        legCallId: request.legCallId,
        sid: leg.sid,
      });
      return { legProviderCallId: leg.sid };
    } catch (error) {
      throw this.failure("transfer a call", error);
    }
  }

  /** Gives a running call new TwiML (a caller taken back from a warm transfer); false when it has ended. */
  async redirect(providerCallId: string, twiml: string): Promise<boolean> {
    try {
      await this.client.calls(providerCallId).update({ twiml });
      return true;
    } catch (error) {
      if (statusOf(error) === 404 || codeOf(error) === CALL_ALREADY_ENDED) return false;
      throw this.failure("redirect a call", error);
    }
  }

  /**
   * A Message (Programmable Messaging): Twilio queues it and posts its progress (queued, sent,
   * delivered, undelivered, failed) to the StatusCallback, which names Voxgate's text.
   */
  async sendSms(request: { textId: number; from: string; to: string; body: string }) {
    try {
      const message = await this.client.messages.create({
        from: request.from,
        to: request.to,
        body: request.body,
        statusCallback: this.url(TWILIO_PATHS.smsStatus, request.textId, "textId"),
      });
      return { providerMessageId: message.sid };
    } catch (error) {
      if (codeOf(error) === RECIPIENT_UNSUBSCRIBED) throw new RecipientOptedOutError(request.to);
      throw this.failure("send a text", error);
    }
  }

  /** What Twilio charged for an ended call (positive, 4 decimals), when it has priced it yet. */
  async callPrice(providerCallId: string): Promise<string | undefined> {
    try {
      const call = await this.client.calls(providerCallId).fetch();
      if (call.price === null || call.price === undefined) return undefined;
      return Math.abs(Number(call.price)).toFixed(4);
    } catch (error) {
      this.deps.logger.warn("twilio call price not available", { providerCallId, error });
      return undefined;
    }
  }

  private failure(action: string, error: unknown): CarrierError {
    this.deps.logger.warn(`twilio refused to ${action}`, { error });
    const message = error instanceof Error ? error.message : String(error);
    return new CarrierError(message);
  }
}

/** TwiML that speaks `text` and hangs up. */
export function sayThenHangUp(text: string): string {
  const response = new (twilioLibrary().twiml.VoiceResponse)();
  response.say(text);
  response.hangup();
  return response.toString();
}

const codeOf = (error: unknown) => Number((error as { code?: unknown } | null)?.code ?? 0);
const statusOf = (error: unknown) => Number((error as { status?: unknown } | null)?.status ?? 0);
