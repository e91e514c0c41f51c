import {
  type Appointment,
  type CalendarConnection,
  type Call,
  type Conversation,
  Prisma,
} from "./generated/prisma/client.ts";

/**
 * What happened in the domain that an account may want to hear about outside Voxgate (its
 * webhooks). Services report through an `EventSink`; they never know who listens. A leaf module:
 * services import it, the composition root (`services.ts`) hands them the sink.
 */
export type DomainEvent =
  /** A call was recorded (answered or not: a dial that fails still starts and ends). */
  | { type: "call.started"; call: Call }
  /**
   * A call reached its final status, its charges and total settled (all recorded in the transaction
   * of that transition). Its content is completed by `call.settled` once its evaluation is queued,
   * and by `call.recorded` when the recording is still being made.
   */
  | { type: "call.ended"; call: Call }
  /** The ended call's finished-listeners ran (its evaluation queued): call.ended may go out. */
  | { type: "call.settled"; call: Call }
  /** The call's recording was stored, or its media stream closed without one: call.ended may go out. */
  | { type: "call.recorded"; call: Call }
  /** The post-call evaluation of an ended call was stored (or failed for good). */
  | { type: "call.evaluated"; call: Call }
  /** A lead of a campaign moved: a call's outcome applied by the dialer, or the do-not-call list. */
  | { type: "lead.updated"; accountId: number; leadId: number; callId: number | null }
  /** A document's status changed: processing (added), active, failed, or deleted. */
  | {
      type: "document.status";
      accountId: number;
      knowledgebaseId: number;
      documentId: number;
      status: "processing" | "active" | "failed" | "deleted";
      failureReason: string | null;
      chunkCount: number;
    }
  /**
   * A calendar connection went from active to broken (the provider refused its credentials, a
   * revoked OAuth grant, the calendar is gone): recorded with the status change, once per transition.
   */
  | { type: "calendar.connection_broken"; connection: CalendarConnection }
  /** A broken calendar connection works again (repaired, or the provider accepts it again). */
  | { type: "calendar.connection_restored"; connection: CalendarConnection }
  /** An appointment was booked, moved (`previousStartsAt`) or cancelled (docs/calendars.md#webhooks). */
  | {
      type: "appointment.booked" | "appointment.rescheduled" | "appointment.cancelled";
      appointment: Appointment;
      previousStartsAt?: Date;
    }
  /**
   * A chat's customer asked for a person (request_human), once per wait (docs/transfers.md);
   * `nextOpenAt` is when people answer again, null when they answer now or no hours are set.
   */
  | {
      type: "conversation.human_requested";
      conversation: Conversation;
      assistantId: number;
      reason: string | null;
      nextOpenAt: Date | null;
    }
  /** A chat was handed from one assistant of the account to another (the `handoff` function). */
  | {
      type: "conversation.handed_off";
      conversation: Conversation;
      fromAssistantId: number;
      toAssistantId: number;
      reason: string | null;
    }
  /**
   * A live call was handed from one assistant of the account to another (`handoff` on a call); it
   * goes out as the `conversation.handed_off` webhook, with the call's id (docs/transfers.md).
   */
  | {
      type: "call.handed_off";
      call: Call;
      fromAssistantId: number;
      toAssistantId: number;
      reason: string | null;
    }
  /**
   * A phone call's caller was connected to a transfer destination (`transfer_call`,
   * docs/transfers.md#phone-transfers): `leg` is the call to the destination, answered.
   */
  | { type: "call.transferred"; call: Call; leg: Call }
  /** A transfer's leg was not answered (busy, no answer, failed): the caller is back with the assistant. */
  | {
      type: "call.transfer_failed";
      call: Call;
      leg: Call;
      outcome: "busy" | "no-answer" | "failed" | "declined";
    }
  /** Something a person, an API key or Voxgate did in an account: recorded in its audit log, not sent to webhooks. */
  | AuditedEvent;

export type DomainEventType = DomainEvent["type"];

/** Who did something in an account, as its audit log records it (docs/data-governance.md#audit-log). */
export interface Actor {
  kind: "user" | "apiKey" | "system";
  /** The session's user, or the API key; null for Voxgate itself. */
  id: number | null;
  /** The user behind the credential (a key's owner); null for Voxgate itself. */
  userId: number | null;
  /** The client's address; null for Voxgate itself. */
  ip: string | null;
}

/** Voxgate itself (sweeps, jobs, the CLI). */
export const systemActor: Actor = { kind: "system", id: null, userId: null, ip: null };

/** The actor behind an authenticated request's credential. */
export function actorOf(
  viewer: { userId: number; credential: { kind: "apiKey" | "session"; id: number } },
  ip: string,
): Actor {
  const { credential } = viewer;
  return credential.kind === "apiKey"
    ? { kind: "apiKey", id: credential.id, userId: viewer.userId, ip }
    : { kind: "user", id: viewer.userId, userId: viewer.userId, ip };
}

/**
 * An action the audit log records (docs/data-governance.md#audit-log). Any event carrying an `actor`
 * is one: modules report their actions as events and never call the audit module itself.
 */
export interface AuditedEvent {
  type:
    | "account.signed_in"
    | "account.updated"
    | "api_key.created"
    | "api_key.deleted"
    | "assistant.updated"
    | "retention.updated"
    | "call.listen_started"
    | "call.taken_over"
    | "phone_number.purchased"
    | "phone_number.added"
    | "phone_number.released"
    /**
     * Everything tied to one customer was exported (the archive is ready) or erased (the tombstone
     * recorded) (docs/data-governance.md#erasure-and-export): the target is the salted hash of the
     * identifier, never the identifier; the details name the job and count the records per kind.
     */
    | "customer.exported"
    | "customer.erased"
    /** Account members (docs/console.md#team): never the link's token, only who and which role. */
    | "member.invited"
    | "member.invitation_revoked"
    | "member.joined"
    | "member.role_changed"
    | "member.removed"
    | "member.password_reset"
    /** An invitation's email sent again with a new link: the previous one stopped working. */
    | "member.invitation_resent";
  accountId: number;
  actor: Actor;
  target: { type: string; id: string | number };
  /** What happened, for people to read (names, changed field names); never secrets or tokens. */
  details?: Prisma.InputJsonObject;
}

/** A module's own record of domain events, written in the transaction of the change (see `EventSink.emit`). */
export type EventRecorder = (tx: Prisma.TransactionClient, event: DomainEvent) => Promise<void>;

export function isAuditedEvent(event: DomainEvent): event is AuditedEvent {
  return "actor" in event;
}

/** The conversation whose messages a statement appends (conversation.message events). */
export interface MessageSource {
  conversationId: string;
  accountId: number;
  assistantId: number;
}

/**
 * Where services report domain events: a transactional outbox. `emit` records the event in `tx`,
 * the transaction of the change that raised it, so the event exists iff the change committed; a
 * failure to record it fails the change. Delivery starts once the transaction commits.
 */
export interface EventSink {
  emit(tx: Prisma.TransactionClient, event: DomainEvent): Promise<void>;
  /**
   * The body of a CTE recording a conversation.message event for each customer, assistant and
   * operator row of `appended` (a CTE of the same statement returning the new messages' id,
   * role, content and createdAt): chat messages are stored by one statement, and so are their
   * events. It returns one row per event; `messagesRecorded` starts their delivery afterwards.
   */
  messageEventsSql(source: MessageSource, appended: Prisma.Sql): Prisma.Sql;
  messagesRecorded(source: MessageSource): Promise<void>;
}

/** For tests and tools that build a service alone: events go nowhere. */
export const discardEvents: EventSink = {
  emit: async () => {},
  messageEventsSql: () => Prisma.sql`SELECT 1 WHERE false`,
  messagesRecorded: async () => {},
};
