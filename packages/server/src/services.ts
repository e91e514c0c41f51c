import { type Clock, systemClock } from "./clock.ts";
import type { ServiceDeps } from "./deps.ts";
import { InProcessBus } from "./in-process-events.ts";
import { createJobQueue } from "./jobs/index.ts";
import { AccountsService } from "./modules/accounts/index.ts";
import { createAgentTests } from "./modules/agent-tests/index.ts";
import { ApiKeysService } from "./modules/api-keys/index.ts";
import { AppointmentsService } from "./modules/appointments/index.ts";
import { AssistantsService, ReplySettingsCache } from "./modules/assistants/index.ts";
import { AuditLog } from "./modules/audit/index.ts";
import { AuthService, CredentialCache, CredentialStreams } from "./modules/auth/index.ts";
import { BillingService, ReservationSweep } from "./modules/billing/index.ts";
import { createCalendars } from "./modules/calendars/index.ts";
import { CALL_EXPORT_CONCURRENCY, createCalls } from "./modules/calls/index.ts";
import { CampaignsService } from "./modules/campaigns/index.ts";
import { AccountGates } from "./modules/common/account-gates.ts";
import { ConversationsService } from "./modules/conversations/index.ts";
import { CustomerDataService } from "./modules/customer-data/index.ts";
import { DialerService, DialerSweep } from "./modules/dialer/index.ts";
import { EvaluationService } from "./modules/evaluation/index.ts";
import {
  CallHandoffsService,
  CallTransfersService,
  ChatHandoffsService,
  TransferDestinationsService,
} from "./modules/handoffs/index.ts";
import { INSIGHTS_CONCURRENCY, InsightsRollup, InsightsService } from "./modules/insights/index.ts";
import { createKnowledge } from "./modules/knowledge/index.ts";
import { LeadProgress, LeadsService } from "./modules/leads/index.ts";
import { ListenAudit, ListenSockets, LiveTaps } from "./modules/live-listen/index.ts";
import { SmtpMailer } from "./modules/mail/index.ts";
import { mediaCapacity } from "./modules/media/index.ts";
import { InvitationEmails, InvitationsService, MembersService } from "./modules/members/index.ts";
import { MessagePipeline, MessageStore, ReplyEngine } from "./modules/message-pipeline/index.ts";
import {
  CallerIdVerification,
  PhoneNumberReleaseSweep,
  PhoneNumbersService,
} from "./modules/phone-numbers/index.ts";
import { PlatformService } from "./modules/platform/index.ts";
import { createProviders } from "./modules/providers/index.ts";
import { RateLimitsService } from "./modules/rate-limits/index.ts";
import { RedactionService } from "./modules/redaction/index.ts";
import { RepliesService } from "./modules/replies/index.ts";
import { RetentionService, RetentionSweep } from "./modules/retention/index.ts";
import { createTelephony } from "./modules/telephony/index.ts";
import {
  TextConversations,
  TextQuietHours,
  TextSendQueue,
  TextSendSweep,
  TextsService,
} from "./modules/texts/index.ts";
import {
  CallTurnsService,
  DetectorRegistry,
  energyDetector,
  LiveSessions,
  OpenAiSynthesizer,
  OpenAiTranscriber,
  RealtimeClient,
  Recordings,
  SileroWorker,
  silenceEndpoint,
  streamingSynthesizers,
  streamingTranscriber,
  VoiceService,
} from "./modules/voice/index.ts";
import { VoicesService } from "./modules/voices/index.ts";
import { WebCallSockets, WebCallsService } from "./modules/web-calls/index.ts";
import { WebhookLogRetention, WebhooksService } from "./modules/webhooks/index.ts";
import { WidgetService } from "./modules/widget/index.ts";
import { safeFetchConnections } from "./net/safe-fetch.ts";

export type Services = ReturnType<typeof createServices>;

/**
 * The composition root: every service is built here, once, and handed what it uses. Services with
 * background work (see `Lifecycle`) are started in this order and stopped in reverse.
 */
export function createServices(deps: ServiceDeps, options: { clock?: Clock } = {}) {
  const clock = options.clock ?? systemClock;
  const jobs = createJobQueue(deps, deps.config.workerConcurrency);
  const rateLimits = new RateLimitsService(deps);
  // Places of expensive reads per account (the Overview, the calls export): in Redis with REDIS_URL.
  const readGates = new AccountGates(deps);
  const insightsGate = readGates.gate("insights", INSIGHTS_CONCURRENCY);
  const callExportGate = readGates.gate("call-exports", CALL_EXPORT_CONCURRENCY);
  // What modules tell each other in process once a change committed (e.g. call.finished); their
  // listeners are registered as they are built, so nothing built earlier needs a later service.
  const bus = new InProcessBus(deps.logger);
  // Deliveries wait on other people's servers: a queue of their own, so they never hold up calls'
  // timers or ingestion. Services report events to it through the EventSink interface.
  const webhooks: WebhooksService = new WebhooksService(deps, {
    jobs: createJobQueue(deps, deps.config.webhooks.concurrency),
    bus,
    rateLimits,
  });
  const { knowledgebases, documents, ingestion } = createKnowledge(deps, jobs, webhooks);
  const billing = new BillingService(deps);
  // The catalogue of speech providers and models, and accounts' own keys for them.
  const { providers, providerKeys } = createProviders(deps);
  const replyEngine = new ReplyEngine(
    deps,
    () => knowledgebases,
    () => providers,
  );
  const replySettings = new ReplySettingsCache(deps);
  // PII redaction of what conversations store and send onwards, by the assistant's settings.
  const redaction = new RedactionService(deps, {
    cached: (accountId, assistantId) => replySettings.get(accountId, assistantId),
  });
  const messagePipeline = new MessagePipeline(deps, {
    billing,
    engine: replyEngine,
    replySettings,
    store: new MessageStore(deps, { billing, events: webhooks, redaction }),
    functions: async (turn) => {
      const { customerPhone, channel: _channel, ...context } = turn;
      const [booking, handoffs] = await Promise.all([
        appointments.functionsFor({ ...context, callerPhone: customerPhone }),
        chatHandoffs.functionsFor(turn),
      ]);
      return [booking, handoffs].filter((set) => set !== null);
    },
  });
  // Admission control: a new call (phone or web) is refused while this instance relays all it may.
  const capacity = mediaCapacity(
    () => voice.liveSessions,
    () => deps.config.voice.maxLiveSessions,
  );
  // Numbers, their release sweep and calls share one carrier; it reports call events to the calls
  // module's desk, built below: a carrier both serves calls and reports on them (docs/architecture.md).
  const {
    provider: telephony,
    twilioWebhooks,
    twilioMedia,
    inboundSimulator,
    textSimulator,
    testCarrier,
    separateTestCarrier,
  } = createTelephony(deps, {
    jobs,
    replyEngine,
    desk: () => callDesk,
    callerIds: () => callerIds,
    media: () => liveTaps,
    capacity,
    texts: () => texts,
    transfers: () => callTransfers,
    testCallers: () => (callId) => testCallParts.caller(callId),
  });
  const textQuietHours = new TextQuietHours(deps, webhooks);
  const texts: TextsService = new TextsService(deps, {
    carrier: telephony,
    simulator: textSimulator,
    billing,
    jobs,
    clock,
    quietHours: textQuietHours,
    redaction,
    erasedOptOut: (accountId, customerNumber) =>
      customerData.tombstones.textsOptedOut(accountId, customerNumber),
  });
  const textConversations = new TextConversations(deps, {
    texts,
    pipeline: messagePipeline,
    jobs,
    rateLimits,
    redaction,
  });
  const textSendQueue = new TextSendQueue(deps, { texts, quietHours: textQuietHours, clock });
  const callerIds = new CallerIdVerification(deps, telephony);
  const phoneNumbers = new PhoneNumbersService(deps, telephony, webhooks, callerIds);
  // The voice engine's sessions on this instance: calls reach them (voicemail), the engine fills them.
  const liveSessions = new LiveSessions();
  const {
    callLifecycle,
    callQueries,
    callStarts,
    inboundCalls,
    callAnnotations,
    callDesk,
    callTransferRecords,
    testCalls,
  } = createCalls(deps, {
    carrier: telephony,
    inboundSimulator,
    testCarrier,
    // The web call sockets carry browser calls and report on them to the desk, like the carrier.
    webCarrier: () => webCallSockets,
    billing,
    jobs,
    events: webhooks,
    bus,
    inboundVariables: (request) => webhooks.inboundVariables(request),
    voicemail: liveSessions,
    redaction,
  });
  const webCallSockets = new WebCallSockets(deps, {
    desk: callDesk,
    engine: () => liveTaps,
    capacity,
    clock,
  });
  const transferDestinations = new TransferDestinationsService(deps, { clock });
  const callTransfers: CallTransfersService = new CallTransfersService(deps, {
    destinations: transferDestinations,
    engine: replyEngine,
    records: callTransferRecords,
    carrier: telephony,
    desk: () => callDesk,
    events: webhooks,
  });
  const evaluation = new EvaluationService(deps, { jobs, calls: callAnnotations, bus, rateLimits });
  const callTurns = new CallTurnsService(deps, callAnnotations, redaction, () => recordings);
  // Silero's model runs in a worker thread of its own, started with the first Silero call.
  const sileroWorker = new SileroWorker(deps.logger, {
    background: deps.config.voice.sileroWorkerBackground,
  });
  const voice = new VoiceService(deps, {
    calls: callLifecycle,
    live: liveSessions,
    replyEngine,
    turns: callTurns,
    texts,
    appointments: {
      functionsFor: (context) => appointments.functionsFor(context),
    },
    transfers: callTransfers,
    transcriber: new OpenAiTranscriber(deps.config.voice),
    synthesizer: new OpenAiSynthesizer(deps.config.voice),
    realtime: new RealtimeClient(deps.config.voice.realtime, deps.config.voice.timeoutSeconds, deps.logger),
    streamingTranscriber: streamingTranscriber(deps.config.voice),
    streamingSynthesizers: streamingSynthesizers(deps.config.voice),
    selection: providers,
    // Each endpoint_type's end of turn: `semantic` still needs voice detection for its silences.
    detectors: new DetectorRegistry(
      {
        vad: silenceEndpoint(energyDetector),
        silero: silenceEndpoint(sileroWorker.detector),
        semantic: silenceEndpoint(energyDetector, true),
      },
      "vad",
    ),
    handoffs: new CallHandoffsService(deps, { events: webhooks }),
    testCalls: () => testCallParts,
  });
  // Recording decorates the media plane: streams of calls that record (phone and web) are mixed on their way.
  const recordings: Recordings = new Recordings(deps, { inner: voice, calls: callAnnotations });
  // Live listen taps the media plane outside recording: operators hear every audio call as it goes.
  const liveTaps = new LiveTaps(deps, recordings);
  const campaigns = new CampaignsService(deps);
  const leadProgress = new LeadProgress(deps, webhooks);
  const dialer = new DialerService(deps, {
    calls: callStarts,
    bus,
    campaigns,
    leads: leadProgress,
    jobs,
    clock,
    optedOutOfTexts: (accountId, phoneNumber) => texts.optedOutAnywhere(accountId, phoneNumber),
    erased: (accountId, phoneNumber) => customerData.isSuppressed(accountId, phoneNumber),
  });
  const credentials = new CredentialCache(deps);
  const auth = new AuthService(deps, { rateLimits, credentials, events: webhooks });
  const credentialStreams = new CredentialStreams(deps);
  const listenAudit = new ListenAudit(deps, webhooks);
  const accounts = new AccountsService(deps, { billing });
  const widget = new WidgetService(deps, { pipeline: messagePipeline, rateLimits });
  const { calendars, calendarOAuth } = createCalendars(deps, { events: webhooks, clock });
  const appointments: AppointmentsService = new AppointmentsService(deps, {
    calendars,
    events: webhooks,
    clock,
  });
  const chatHandoffs: ChatHandoffsService = new ChatHandoffsService(deps, { events: webhooks, clock });
  // Agent tests answer through the reply engine with the assistant's own functions (stubbed unless a
  // scenario asks for real ones): no conversation, charge or webhook of their own.
  const { testScenarios, testRuns, trafficReplays, testCallParts } = createAgentTests(deps, {
    engine: replyEngine,
    replySettings,
    evaluation,
    calls: testCalls,
    turns: (accountId, callId) => callTurns.list(accountId, callId),
    hangUp: (callId, reason) => callLifecycle.endByAssistant(callId, reason),
    functions: {
      booking: (context) =>
        appointments.functionsFor({ ...context, conversationId: null, callerPhone: null }),
      handoffs: (context) =>
        chatHandoffs.functionsFor({
          ...context,
          conversationId: "00000000-0000-0000-0000-000000000000",
          channel: "widget",
          turnKey: "agent-test",
          customerPhone: null,
        }),
    },
  });
  // The audit log records the domain events that carry an actor, in the transaction of each change.
  const auditLog = new AuditLog(deps);
  webhooks.recordEventsWith(auditLog.record);
  // Export and erasure by customer; built last so that its job runner starts last and stops first.
  const customerData: CustomerDataService = new CustomerDataService(deps, {
    recordings,
    events: webhooks,
    clock,
    calendars,
  });
  // Invitation and reset links also go by email when a mail server is configured; they are shown either way.
  const invitationEmails = new InvitationEmails(deps, {
    mailer: deps.config.mail ? new SmtpMailer(deps.config.mail) : null,
    auth,
    rateLimits,
    events: webhooks,
  });
  return {
    // First, so that it stops last: after the workers whose outbound requests use its connections.
    outboundConnections: safeFetchConnections,
    credentials,
    auth,
    credentialStreams,
    accounts,
    platform: new PlatformService(deps, { accounts, billing, credentials }),
    apiKeys: new ApiKeysService(deps, { credentials, events: webhooks }),
    jobs,
    webhooks,
    webhookLogRetention: new WebhookLogRetention(deps, webhooks, clock),
    evaluation,
    knowledgebases,
    documents,
    ingestion,
    voices: new VoicesService(deps),
    replySettings,
    assistants: new AssistantsService(deps, {
      replySettings,
      webhookSecrets: webhooks,
      catalogue: providers,
      events: webhooks,
    }),
    phoneNumbers,
    phoneNumberReleases: new PhoneNumberReleaseSweep(deps, telephony),
    telephony,
    // Agent tests' carrier beside a real one (on the simulation it is `telephony`).
    separateTestCarrier,
    twilioWebhooks,
    twilioMedia,
    bus,
    callLifecycle,
    callQueries,
    callStarts,
    inboundCalls,
    callAnnotations,
    callDesk,
    texts,
    callTurns,
    voice,
    recordings,
    campaigns,
    leads: new LeadsService(deps, {
      campaigns,
      progress: leadProgress,
      requireNotErased: (accountId, numbers) => customerData.requireNotErased(accountId, numbers),
    }),
    dialer,
    dialerSweep: new DialerSweep(deps, dialer, campaigns),
    billing,
    reservationSweep: new ReservationSweep(deps, billing),
    rateLimits,
    readGates,
    replyEngine,
    messagePipeline,
    conversations: new ConversationsService(deps, { pipeline: messagePipeline, texting: textConversations }),
    widget,
    webCalls: new WebCallsService(deps, { widget, calls: callStarts, rateLimits, capacity, clock }),
    webCallSockets,
    replies: new RepliesService(deps, { pipeline: messagePipeline, rateLimits, replySettings }),
    calendars,
    calendarOAuth,
    appointments,
    textQuietHours,
    textConversations,
    textSendQueue,
    textSendSweep: new TextSendSweep(deps, textSendQueue),
    providers,
    providerKeys,
    transferDestinations,
    chatHandoffs,
    callTransfers,
    liveTaps,
    listenAudit,
    listenSockets: new ListenSockets(deps, { auth, credentialStreams, audit: listenAudit }),
    testScenarios,
    testRuns,
    trafficReplays,
    redaction,
    auditLog,
    retention: new RetentionService(deps, { events: webhooks }),
    retentionSweep: new RetentionSweep(deps, { recordings, clock }),
    sileroWorker,
    customerData,
    members: new MembersService(deps, {
      auth,
      credentials,
      events: webhooks,
      emails: invitationEmails,
    }),
    insights: new InsightsService(deps, { gate: insightsGate }),
    invitationEmails,
    insightsRollup: new InsightsRollup(deps, clock),
    insightsGate,
    callExportGate,
    invitations: new InvitationsService(deps, {
      auth,
      rateLimits,
      events: webhooks,
      emails: invitationEmails,
    }),
  };
}
