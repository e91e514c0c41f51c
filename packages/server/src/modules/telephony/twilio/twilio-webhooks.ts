import type { ServiceDeps } from "../../../deps.ts";
import type { ApiCallStatus } from "../../calls/call-status.ts";
import { AT_CAPACITY_REASON, AT_CAPACITY_WORDS, type MediaCapacity } from "../../media/index.ts";
import {
  type CallDesk,
  type CallerIdDesk,
  MACHINE_VERDICTS,
  type MachineVerdict,
  type ProviderCallEvent,
  type TextDesk,
  type TransferDesk,
} from "../provider.ts";
import { sipHostOf, sipUser } from "../sip-uri.ts";
import type { TwilioMediaStreams } from "./media-streams.ts";
import {
  TWILIO_PATHS,
  type TwilioTelephonyProvider,
  twilioLibrary,
  warmConference,
} from "./twilio-provider.ts";
import { TwilioTextWebhooks } from "./twilio-text-webhooks.ts";

/** Form fields of a Twilio webhook request. */
export type TwilioParams = Record<string, string>;

/**
 * What a webhook answers: TwiML for the voice webhooks, nothing for the callbacks; `refused` for a
 * signed request that must not act again (a replayed transfer action): 403.
 */
export type TwilioAnswer = { twiml: string } | { empty: true } | { refused: true };

/** Twilio's call statuses, in Voxgate's words. */
const STATUSES: Readonly<Record<string, ApiCallStatus>> = {
  queued: "initiated",
  initiated: "initiated",
  ringing: "ringing",
  "in-progress": "in-progress",
  completed: "completed",
  busy: "busy",
  "no-answer": "no-answer",
  canceled: "failed",
  failed: "failed",
};

/**
 * Twilio's webhooks and callbacks, once the HTTP layer (src/http/twilio.ts) has read the form and
 * checked its signature: an inbound call is answered with TwiML connecting a bidirectional Media
 * Stream (or a spoken refusal), an answered outbound call likewise, and status and recording
 * callbacks become carrier events for the calls service, which applies each move once.
 */
export class TwilioWebhooks {
  private readonly textWebhooks: TwilioTextWebhooks;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly provider: TwilioTelephonyProvider,
    private readonly account: { accountSid: string; authToken: string },
    private readonly desk: () => CallDesk,
    private readonly callerIds: () => CallerIdDesk,
    private readonly media: TwilioMediaStreams,
    private readonly capacity: MediaCapacity,
    texts: () => TextDesk,
    private readonly transfers: () => TransferDesk,
  ) {
    this.textWebhooks = new TwilioTextWebhooks(deps, provider.name, account.accountSid, texts);
  }

  /**
   * Whether `signature` (X-Twilio-Signature) is Twilio's HMAC-SHA1, with the account's auth token,
   * of `url` (the public URL Twilio requested, query included) followed by the sorted form fields.
   */
  verify(url: string, params: TwilioParams, signature: string | null): boolean {
    if (!signature) return false;
    return twilioLibrary().validateRequest(this.account.authToken, signature, url, params);
  }

  async handle(
    path: string,
    callId: number | null,
    params: TwilioParams,
    textId: number | null = null,
  ): Promise<TwilioAnswer> {
    switch (path) {
      case TWILIO_PATHS.sms:
        return { twiml: await this.textWebhooks.inbound(params) };
      case TWILIO_PATHS.smsStatus:
        await this.textWebhooks.status(textId, params);
        return { empty: true };
      case TWILIO_PATHS.voice:
        return { twiml: await this.inbound(params) };
      case TWILIO_PATHS.outbound:
        return { twiml: await this.outboundAnswered(callId, params) };
      case TWILIO_PATHS.status:
        await this.status(callId, params);
        return { empty: true };
      case TWILIO_PATHS.amd:
        await this.machineDetection(callId, params);
        return { empty: true };
      case TWILIO_PATHS.callerId:
        await this.callerIdVerification(params);
        return { empty: true };
      case TWILIO_PATHS.transferStatus:
        await this.transferStatus(callId, params);
        return { empty: true };
      case TWILIO_PATHS.transferAction:
        return this.transferAction(callId, params);
      case TWILIO_PATHS.warmStatus:
        await this.warmStatus(callId, params);
        return { empty: true };
      case TWILIO_PATHS.warmAnswer:
        return this.warmAnswer(callId, params);
      case TWILIO_PATHS.warmDecision:
        return this.warmDecision(callId, params);
      default:
        return { empty: true };
    }
  }

  /**
   * A call to a Twilio number (To is E.164) or through the SIP domain (To is the INVITE's URI, whose
   * user part is the number dialled; From's host is the PBX it came from). A request of another Twilio
   * account (a subaccount signing with its own token would fail the signature anyway) is refused.
   */
  private async inbound(params: TwilioParams): Promise<string> {
    const route = inboundRoute(params);
    if (!params.CallSid || !route || (params.AccountSid && params.AccountSid !== this.account.accountSid)) {
      this.deps.logger.warn("twilio inbound call refused: no route", { to: params.To });
      return refusalTwiml("Sorry, this call cannot be taken. Goodbye.");
    }
    const decision = await this.desk().receiveInbound({
      carrier: this.provider.name,
      providerCallId: params.CallSid,
      ...route,
      from: params.From ?? "",
      // Refused at the door rather than connected to a media plane that has no room for it.
      ...(this.capacity.full() ? { refusal: { reason: AT_CAPACITY_REASON, words: AT_CAPACITY_WORDS } } : {}),
    });
    return decision.accepted ? await this.streamTwiml(decision.callId) : refusalTwiml(decision.refusal);
  }

  private async outboundAnswered(callId: number | null, params: TwilioParams): Promise<string> {
    if (callId === null) return refusalTwiml("Goodbye.");
    await this.desk().callEvent({
      ...this.ids(callId, params),
      status: "in-progress",
      ...answeredBy(params),
    });
    return this.streamTwiml(callId);
  }

  private async status(callId: number | null, params: TwilioParams) {
    const status = STATUSES[params.CallStatus ?? ""];
    if (!status) {
      this.deps.logger.warn("twilio status callback with an unknown status", { status: params.CallStatus });
      return;
    }
    const event: ProviderCallEvent = {
      ...this.ids(callId, params),
      status,
      ...answeredBy(params),
      ...(params.CallDuration !== undefined && /^\d+$/.test(params.CallDuration)
        ? { duration: Number(params.CallDuration) }
        : {}),
      ...(status === "failed" ? { reason: failureReason(params) } : {}),
    };
    await this.desk().callEvent(event);
    if (status === "completed" && params.CallSid) {
      const carrierCost = await this.provider.callPrice(params.CallSid);
      if (carrierCost !== undefined)
        await this.desk().callEvent({ ...this.ids(callId, params), carrierCost });
    }
  }

  /**
   * A transfer leg's progress (its `<Number>`'s or `<Sip>`'s statusCallback; CallSid is the leg's own):
   * the leg's record moves like any call's, and its answer connects the transfer.
   */
  private async transferStatus(legCallId: number | null, params: TwilioParams) {
    if (legCallId === null || (params.AccountSid && params.AccountSid !== this.account.accountSid)) return;
    await this.status(legCallId, params);
    if (params.CallStatus === "in-progress") await this.transfers().transferAnswered(legCallId);
  }

  /**
   * A transfer's `<Dial>` ended (its action; DialCallStatus). Answered: the caller talked with the
   * destination and the conversation is over, so the call hangs up. Not answered: the leg's record
   * ends as Twilio says and the caller's call connects a new media stream to the assistant, once:
   * the same action again (a replay) is refused, as the transfer was already decided.
   */
  private async transferAction(legCallId: number | null, params: TwilioParams): Promise<TwilioAnswer> {
    if (legCallId === null || (params.AccountSid && params.AccountSid !== this.account.accountSid))
      return { refused: true };
    const dialStatus = params.DialCallStatus ?? "";
    const response = new (twilioLibrary().twiml.VoiceResponse)();
    if (dialStatus === "completed" || dialStatus === "answered") {
      await this.transfers().transferAnswered(legCallId);
      response.hangup();
      return { twiml: response.toString() };
    }
    const outcome = dialStatus === "busy" ? "busy" : dialStatus === "no-answer" ? "no-answer" : "failed";
    await this.desk().callEvent({
      callId: legCallId,
      ...(params.DialCallSid ? { providerCallId: params.DialCallSid } : {}),
      status: outcome,
      ...(outcome === "failed" ? { reason: failureReason({ ...params, CallStatus: dialStatus }) } : {}),
    });
    const back = await this.transfers().transferMissed(legCallId, outcome);
    if (back === null) {
      this.deps.logger.warn("twilio transfer action refused: the transfer was already decided", {
        legCallId,
      });
      return { refused: true };
    }
    return { twiml: await this.streamTwiml(back.callId) };
  }

  private ours(legCallId: number | null, params: TwilioParams): legCallId is number {
    return legCallId !== null && (!params.AccountSid || params.AccountSid === this.account.accountSid);
  }

  /**
   * A warm transfer leg's progress: its record moves like any call's; a leg that never answered
   * (busy, no answer, failed, cancelled) takes the held caller back to the assistant.
   */
  private async warmStatus(legCallId: number | null, params: TwilioParams) {
    if (!this.ours(legCallId, params)) return;
    await this.status(legCallId, params);
    const status = params.CallStatus ?? "";
    if (["busy", "no-answer", "failed", "canceled"].includes(status))
      await this.takeBack(legCallId, status === "busy" || status === "no-answer" ? status : "failed");
  }

  /**
   * The person answered a warm transfer's leg: the briefing, then one key (1 takes the call, 2
   * declines); no key is staying on the line, which accepts.
   */
  private async warmAnswer(legCallId: number | null, params: TwilioParams): Promise<TwilioAnswer> {
    if (!this.ours(legCallId, params)) return { refused: true };
    const briefing = await this.transfers().briefingFor(legCallId);
    if (briefing === null) return { refused: true };
    const decision = `${this.deps.config.publicBaseUrl}${TWILIO_PATHS.warmDecision}?callId=${legCallId}`;
    const response = new (twilioLibrary().twiml.VoiceResponse)();
    response
      .gather({ numDigits: 1, timeout: 6, action: decision, method: "POST" })
      .say(`${briefing} Press 1 to take the call, or 2 to decline.`);
    response.redirect({ method: "POST" }, decision);
    return { twiml: response.toString() };
  }

  /**
   * The answer to a briefing (the Gather's action, or its Redirect without Digits: stayed on the
   * line). 2 declines: the caller goes back to the assistant and this leg hangs up. Anything else
   * accepts: the person joins the caller's conference. Decided once: a replay is refused.
   */
  private async warmDecision(legCallId: number | null, params: TwilioParams): Promise<TwilioAnswer> {
    if (!this.ours(legCallId, params)) return { refused: true };
    const response = new (twilioLibrary().twiml.VoiceResponse)();
    if (params.Digits === "2") {
      if (!(await this.takeBack(legCallId, "declined"))) return { refused: true };
      response.say("Alright. The caller stays with the assistant. Goodbye.");
      response.hangup();
      return { twiml: response.toString() };
    }
    if ((await this.transfers().transferAnswered(legCallId)) === null) return { refused: true };
    response
      .dial()
      .conference(
        { startConferenceOnEnter: true, endConferenceOnExit: true, beep: "false" },
        warmConference(legCallId),
      );
    return { twiml: response.toString() };
  }

  /** Takes a held caller back from a warm transfer to the assistant (a new media stream); false when already decided. */
  private async takeBack(legCallId: number, outcome: "busy" | "no-answer" | "failed" | "declined") {
    const back = await this.transfers().transferMissed(legCallId, outcome);
    if (!back) return false;
    if (back.providerCallId)
      await this.provider.redirect(back.providerCallId, await this.streamTwiml(back.callId));
    return true;
  }

  /**
   * A caller ID's verification call ended (the ValidationRequest's StatusCallback): VerificationStatus
   * says whether the code was typed right. The number (To) names the one row that holds it.
   */
  private async callerIdVerification(params: TwilioParams) {
    if (!params.To || (params.AccountSid && params.AccountSid !== this.account.accountSid)) return;
    await this.callerIds().callerIdVerification({
      carrier: this.provider.name,
      phoneNumber: params.To,
      verified: params.VerificationStatus === "success",
    });
  }

  /** The asynchronous answering machine detection's verdict (AsyncAmdStatusCallback). */
  private async machineDetection(callId: number | null, params: TwilioParams) {
    const verdict = params.AnsweredBy ?? "";
    if (!(MACHINE_VERDICTS as readonly string[]).includes(verdict)) {
      this.deps.logger.warn("twilio AMD callback with an unknown verdict", { callId, verdict });
      return;
    }
    await this.desk().answeringMachine({ ...this.ids(callId, params), verdict: verdict as MachineVerdict });
  }

  private ids(callId: number | null, params: TwilioParams) {
    return {
      ...(callId !== null ? { callId } : {}),
      ...(params.CallSid ? { providerCallId: params.CallSid } : {}),
    };
  }

  /**
   * `<Connect><Stream>`: Twilio opens a bidirectional Media Stream to Voxgate for the call's audio,
   * presenting the single-use token it carries (see TwilioMediaStreams). A call that has ended (a late
   * or repeated webhook) is final: Twilio is told to hang up, and the call is left as it ended.
   */
  private async streamTwiml(callId: number): Promise<string> {
    const token = await this.media.issueToken(callId);
    const response = new (twilioLibrary().twiml.VoiceResponse)();
    if (token === null) {
      this.deps.logger.info("twilio answer webhook of an ended call: hung up", { callId });
      response.hangup();
      return response.toString();
    }
    const stream = response.connect().stream({ url: mediaStreamUrl(this.deps.config.publicBaseUrl) });
    stream.parameter({ name: "token", value: token });
    return response.toString();
  }
}

/** The WebSocket URL of Media Streams, from PUBLIC_BASE_URL (https → wss). */
export function mediaStreamUrl(publicBaseUrl: string): string {
  return `${publicBaseUrl.replace(/^http/, "ws")}${TWILIO_PATHS.media}`;
}

/**
 * The number an inbound call dialled, and for a SIP call the host of its From URI (the caller's PBX):
 * null when To names no number (a number no account holds is the calls service's to refuse).
 */
function inboundRoute(params: TwilioParams): { to: string; sipHost?: string } | null {
  const to = params.To ?? "";
  if (!/^sips?:/i.test(to)) return to ? { to } : null;
  const number = sipUser(to);
  const sipHost = sipHostOf(params.From ?? "");
  return number && sipHost ? { to: number, sipHost } : null;
}

function refusalTwiml(words: string): string {
  const response = new (twilioLibrary().twiml.VoiceResponse)();
  response.say(words);
  response.hangup();
  return response.toString();
}

/** Twilio's AnsweredBy (answering machine detection): human, or machine for machines and fax. */
function answeredBy(params: TwilioParams): { answeredBy?: string } {
  const value = params.AnsweredBy ?? "";
  if (value === "human") return { answeredBy: "human" };
  if (value.startsWith("machine") || value === "fax") return { answeredBy: "machine" };
  return {};
}

function failureReason(params: TwilioParams): string {
  if (params.CallStatus === "canceled") return "Hung up before the call was answered.";
  const code = params.ErrorCode ? ` (Twilio error ${params.ErrorCode})` : "";
  const sip = params.SipResponseCode ? ` (SIP ${params.SipResponseCode})` : "";
  return `The carrier could not connect the call${code}${sip}.`;
}
