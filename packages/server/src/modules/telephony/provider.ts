import type { ApiCallStatus } from "../calls/call-status.ts";
import type { TextStatus } from "../texts/text-status.ts";

/** A number as the provider knows it. */
export interface ProviderNumber {
  phoneNumber: string;
  providerRef: string | null;
}

/**
 * How a carrier has the owner of a caller ID prove they hold that phone; either way the carrier calls it.
 * `code-on-call` (Twilio): the owner is shown `validationCode` and types it on the carrier's call; the
 * carrier reports the outcome (its status callback, or `callerIdVerified`). `code-from-call` (the
 * simulated carrier): the call speaks `code`, which the owner then enters in Voxgate.
 */
export type CallerIdChallenge =
  | { method: "code-on-call"; providerRef: string; validationCode: string }
  | { method: "code-from-call"; providerRef: string; code: string };

/** A number the carrier sold: its id there, and its word on SMS when it gives one. */
export interface PurchasedNumber {
  providerRef: string;
  smsCapable?: boolean;
}

/** The numbers side of a carrier: the phone-number service never talks to a carrier any other way. */
export interface NumberProvider {
  /** Stored on each number it provides (`phone_numbers.providerName`). */
  readonly name: string;
  /**
   * Buys a dedicated number Voxgate has already claimed for the account (no other account holds it);
   * refuses (PHONE_NUMBER_UNAVAILABLE) a number the carrier does not offer.
   */
  purchaseNumber(request: { accountId: number; phoneNumber: string }): Promise<PurchasedNumber>;
  /** Stops renewing a dedicated number; the carrier keeps it working until the period ends. */
  cancelSubscription(number: ProviderNumber): Promise<void>;
  /** Gives a dedicated number back to the carrier. Safe to repeat. */
  releaseNumber(number: ProviderNumber): Promise<void>;
  /**
   * Starts verifying a number the customer owns elsewhere as an outbound caller ID (again: a new
   * challenge replaces the last one).
   */
  addCallerId(request: { accountId: number; phoneNumber: string }): Promise<CallerIdChallenge>;
  /** Whether the carrier lists the caller ID as verified (`code-on-call` carriers; false otherwise). */
  callerIdVerified(number: ProviderNumber): Promise<boolean>;
  removeCallerId(number: ProviderNumber): Promise<void>;
}

/** Where a carrier reports the outcome of a `code-on-call` verification: the phone-number service. */
export interface CallerIdDesk {
  callerIdVerification(report: { carrier: string; phoneNumber: string; verified: boolean }): Promise<void>;
}

/** What the calls service asks a carrier to do with a call. */
export interface CallCarrier {
  /** Stored on each call it carries (`calls.providerName`). */
  readonly name: string;
  /**
   * Starts dialling `to` from `from` for the call `callId` (already recorded, status initiated).
   * Resolves once the carrier accepted the call, with its id for the call; rejects (a typed
   * UPSTREAM_FAILED error) when it refused. Progress then arrives as `ProviderCallEvent`s.
   */
  placeCall(request: {
    callId: number;
    from: string;
    to: string;
    /**
     * What the assistant does when an answering machine picks up, so the carrier's detection
     * reports early (a machine is hung up on) or once its greeting ended (a message is left).
     */
    onMachine?: "hang-up" | "leave-message";
  }): Promise<{ providerCallId: string }>;
  /**
   * Ends the call (`answered`: it is in progress; otherwise it is cancelled while it rings). With
   * `farewell`, the callee hears it before the line drops. The carrier's own end event follows (the
   * calls service records it); safe to repeat and on an ended call.
   */
  hangUp(
    call: { callId: number; providerCallId: string | null; answered?: boolean },
    farewell?: string,
  ): Promise<void>;
}

/** What the texts service asks a carrier to do with a text message. */
export interface TextCarrier {
  /** Stored on each text it carries (`text_messages.providerName`). */
  readonly name: string;
  /**
   * Sends `body` from `from` (the account's number) to `to` for the text `textId` (already recorded,
   * status queued, paid for). Resolves once the carrier accepted it, with its id for the message;
   * rejects (UPSTREAM_FAILED, or RECIPIENT_OPTED_OUT when the carrier knows the recipient opted out)
   * when it refused. Progress then arrives as `ProviderTextEvent`s.
   */
  sendSms(request: {
    textId: number;
    from: string;
    to: string;
    body: string;
  }): Promise<{ providerMessageId: string }>;
}

/** How long a transfer's leg rings before it counts as not answered. */
export const TRANSFER_RING_SECONDS = 25;

/** What the transfers service asks a carrier to do with a running call (docs/transfers.md#phone-transfers). */
export interface TransferCarrier {
  /**
   * Connects the caller of the answered call `callId` to `to` (E.164 or a SIP URI), dialled from
   * `from` (the account's number, the caller ID) as the call `legCallId` (already recorded, status
   * initiated). The assistant's media stream ends. The leg's progress arrives as `ProviderCallEvent`s
   * and its outcome on the `TransferDesk`; a leg not answered brings the caller back to the voice
   * engine (a new media stream of `callId`). Rejects (UPSTREAM_FAILED) when the carrier refused: the
   * call then goes on as it was. Answers the leg's carrier id when the carrier placed it as a call of
   * its own (so that it can be cancelled before its first report), else null.
   */
  transferCall(request: {
    callId: number;
    providerCallId: string | null;
    legCallId: number;
    from: string;
    to: string;
    /**
     * A warm transfer: the caller is held, and the person who answers first hears this briefing and
     * accepts (a key press, or staying on the line) or declines; only an acceptance connects them.
     */
    briefing?: string;
  }): Promise<{ legProviderCallId: string | null }>;
}

/** How a transfer's leg ended without connecting the caller. */
export type TransferMissOutcome = "busy" | "no-answer" | "failed" | "declined";

/** Where a carrier reports the outcome of a transfer's leg: the transfers service. */
export interface TransferDesk {
  /**
   * The destination answered (a cold transfer) or accepted (warm): the caller is connected to it.
   * The caller's call id when this report decided it; null when the transfer was already decided.
   */
  transferAnswered(legCallId: number): Promise<number | null>;
  /**
   * The destination did not answer: the caller goes back to the assistant. The id of the caller's
   * call when this report decided it; null when the transfer was already decided (a repeat).
   */
  transferMissed(
    legCallId: number,
    outcome: TransferMissOutcome,
  ): Promise<{ callId: number; providerCallId: string | null } | null>;
  /** What the person who answers a warm transfer's leg hears first; null for another call. */
  briefingFor(legCallId: number): Promise<string | null>;
}

/** A carrier: numbers, calls, transfers and texts. */
export interface TelephonyProvider extends NumberProvider, CallCarrier, TransferCarrier, TextCarrier {}

/**
 * What a carrier reports about a text it carries (a status callback), in Voxgate's statuses. Events
 * may repeat and arrive out of order: the texts service moves a text forward only, never past final.
 */
export interface ProviderTextEvent {
  /** Voxgate's id, when the carrier carries it back (the status callback's URL). */
  textId?: number;
  providerMessageId?: string;
  status: TextStatus;
  /** The carrier's error code and words for an undelivered or failed text. */
  errorCode?: string;
  errorMessage?: string;
}

/** A text that arrived on one of Voxgate's numbers, and what it is answered with (null: nothing). */
export interface TextDesk {
  textEvent(event: ProviderTextEvent): Promise<void>;
  receiveText(request: {
    carrier: string;
    providerMessageId: string;
    /** The customer's number. */
    from: string;
    /** The account's number, E.164. */
    to: string;
    body: string;
  }): Promise<{ textId: number | null; reply: string | null }>;
}

/** A carrier that can make a text arrive by itself: the simulated one. */
export interface TextSimulator {
  /** A text from `from` arrives on `to`, delivered to the texts service as a carrier's webhook delivers one. */
  simulateIncomingText(request: {
    from: string;
    to: string;
    body: string;
  }): Promise<{ textId: number | null; reply: string | null }>;
}

/**
 * One thing a carrier reports about a call, already translated into Voxgate's statuses. Events may
 * repeat and arrive out of order: the calls service applies each legal move once and ignores the rest.
 */
export interface ProviderCallEvent {
  /** Set when the carrier knows Voxgate's id (the simulation); otherwise found by `providerCallId`. */
  callId?: number;
  providerCallId?: string;
  /** Absent when the event only adds details (the carrier's price). */
  status?: ApiCallStatus;
  /** "human" or "machine" once the carrier can tell who answered. */
  answeredBy?: string;
  /** Seconds from answer to end as the carrier counted them. */
  duration?: number;
  /** What the carrier charged for the call, when it says. */
  carrierCost?: string;
  /** Why the call failed, in words (a carrier error). */
  reason?: string;
}

/** One line of a call's conversation. */
export interface TranscriptLine {
  /** `system`: a marker, nobody's words (a hand-over between assistants). */
  speaker: "assistant" | "customer" | "system";
  text: string;
}

/**
 * An answering machine detection verdict, in Twilio's words (AnsweredBy): `machine_start` as soon
 * as a machine is recognised, `machine_end_*` once its greeting ended (after the beep, silence, or
 * anything else), `human`, `fax`, `unknown`.
 */
export const MACHINE_VERDICTS = [
  "human",
  "unknown",
  "fax",
  "machine_start",
  "machine_end_beep",
  "machine_end_silence",
  "machine_end_other",
] as const;
export type MachineVerdict = (typeof MACHINE_VERDICTS)[number];

/** Where a carrier delivers what it learns about calls: implemented by the calls service. */
export interface CallEventSink {
  callEvent(event: ProviderCallEvent): Promise<void>;
  transcriptLine(callId: number, line: TranscriptLine): Promise<void>;
}

/** How an incoming call is answered: connected to its assistant, or refused with a spoken reason. */
export type InboundDecision =
  | { accepted: true; callId: number }
  | { accepted: false; callId: number | null; refusal: string };

/** The calls service as a carrier's webhooks see it. */
export interface CallDesk extends CallEventSink {
  /** A call arrives on one of Voxgate's numbers; repeated deliveries of one call get one decision. */
  receiveInbound(request: {
    carrier: string;
    providerCallId: string;
    /** The number dialled, E.164 (for a SIP call, the user part of the INVITE's URI). */
    to: string;
    from: string;
    /**
     * Set when the call came over SIP: the host it came from (the caller's PBX). Such a call reaches
     * only a SIP number whose SIP URI is on that host; a call without it only a dedicated number.
     */
    sipHost?: string;
    /** Refuse the call with these words and record why (e.g. the instance is at capacity). */
    refusal?: { reason: string; words: string };
  }): Promise<InboundDecision>;
  /**
   * The caller hung up on their own (a carrier that knows it before the call's end event, as Twilio's
   * stream stops first): the end event that follows makes the call `ended_by_customer`.
   */
  customerHungUp(callId: number): Promise<void>;
  /** Who (or what) answered an outbound call, as the carrier's answering machine detection says. */
  answeringMachine(event: {
    callId?: number;
    providerCallId?: string;
    verdict: MachineVerdict;
  }): Promise<void>;
}

/** A carrier that can make one of Voxgate's numbers ring by itself: the simulated one. */
export interface InboundSimulator {
  /**
   * A call from `from` arrives on `to`, delivered to the calls service exactly as a carrier's
   * webhook delivers one; an accepted call then runs its conversation like an outbound one.
   */
  simulateIncomingCall(request: { from: string; to: string; sipHost?: string }): Promise<InboundDecision>;
}

/**
 * The carrier of agent tests' phone calls (docs/testing-assistants.md#phone-scenarios): always the
 * simulation, whichever carrier serves real calls, so a test never dials anyone.
 */
export interface TestCallCarrier extends Pick<CallCarrier, "name" | "hangUp"> {
  /** The test call `callId` (recorded in progress) is connected: its simulated caller starts talking. */
  connectTestCall(callId: number): Promise<void>;
}
