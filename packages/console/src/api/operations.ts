import { graphql } from "../generated/gql.ts";

// Every operation the console sends. Codegen reads this file and types each document by its text,
// so a field the schema drops fails `pnpm run check` instead of a screen at run time.

export const LoginMutation = graphql(`
  mutation ConsoleLogin($input: LoginInput!) {
    login(input: $input) {
      token
      expiresAt
      viewer { id email name account { id name balance timezone isOperator } }
    }
  }
`);

export const LogoutMutation = graphql(`
  mutation ConsoleLogout {
    logout { revoked }
  }
`);

export const ViewerQuery = graphql(`
  query ConsoleViewer {
    viewer { id email name account { id name balance timezone isOperator } }
  }
`);

// The app shell asks it on every sign-in; the Team screen, in its own chunk, has its own queries.
export const ViewerRoleQuery = graphql(`
  query ConsoleViewerRole {
    viewer { id role }
  }
`);

export const AssistantsQuery = graphql(`
  query ConsoleAssistants($page: Int, $search: String) {
    assistants(page: $page, perPage: 20, search: $search) {
      items { id uuid name type mode status updatedAt phoneNumber { phoneNumber } }
      pageInfo { currentPage lastPage total }
    }
  }
`);

export const AssistantQuery = graphql(`
  query ConsoleAssistant($id: Int!) {
    assistant(id: $id) {
      id uuid name type mode status language timezone
      systemPrompt initialMessage llmTemperature
      voiceId speechSpeed voiceStability voiceSimilarity ambientSound ambientSoundVolume enableNoiseCancellation
      maxDuration maxSilenceDuration waitForCustomer allowInterruptions interruptSensitivity minInterruptWords
      endpointType endpointSensitivity reengagementInterval endCallOnVoicemail record phoneNumberId
      knowledgebaseId knowledgebaseMode tools variables
      postCallEvaluation postCallSchema
      webhookUrl isWebhookActive sendWebhookOnlyOnCompleted includeRecordingInWebhook inboundWebhookUrl
      widgetSettings allowedOrigins
      redactPii redactRecordings
    }
  }
`);

export const AssistantChoicesQuery = graphql(`
  query ConsoleAssistantChoices {
    voices { id name gender supportedModes }
    knowledgebases { id name }
    phoneNumbers { id phoneNumber label }
  }
`);

export const CreateAssistantMutation = graphql(`
  mutation ConsoleCreateAssistant($input: CreateAssistantInput!) {
    createAssistant(input: $input) { id webhookSigningSecret }
  }
`);

export const UpdateAssistantMutation = graphql(`
  mutation ConsoleUpdateAssistant($id: Int!, $input: UpdateAssistantInput!) {
    updateAssistant(id: $id, input: $input) { id updatedAt webhookSigningSecret }
  }
`);

export const DeleteAssistantMutation = graphql(`
  mutation ConsoleDeleteAssistant($id: Int!) {
    deleteAssistant(id: $id) { deletedId }
  }
`);

export const StartTestConversationMutation = graphql(`
  mutation ConsoleStartTest($assistantId: Int!) {
    startTestConversation(input: { assistantId: $assistantId }) {
      id
      messages { id role content }
    }
  }
`);

export const SendTestMessageMutation = graphql(`
  mutation ConsoleSendTest($conversationId: ID!, $message: String!) {
    sendTestMessage(input: { conversationId: $conversationId, message: $message }) { reply }
  }
`);

export const KnowledgebasesQuery = graphql(`
  query ConsoleKnowledgebases {
    knowledgebases { id name description status documentsCount assistantsCount }
  }
`);

export const CreateKnowledgebaseMutation = graphql(`
  mutation ConsoleCreateKnowledgebase($input: KnowledgebaseInput!) {
    createKnowledgebase(input: $input) { id }
  }
`);

export const DeleteKnowledgebaseMutation = graphql(`
  mutation ConsoleDeleteKnowledgebase($id: Int!) {
    deleteKnowledgebase(id: $id) { deletedId }
  }
`);

export const UpdateKnowledgebaseMutation = graphql(`
  mutation ConsoleUpdateKnowledgebase($id: Int!, $input: KnowledgebaseInput!) {
    updateKnowledgebase(id: $id, input: $input) { id name description chunkMaxTokens chunkOverlapTokens }
  }
`);

export const KnowledgebaseQuery = graphql(`
  query ConsoleKnowledgebase($id: Int!) {
    knowledgebase(id: $id) {
      id name description status assistantsCount chunkMaxTokens chunkOverlapTokens
      documents {
        id name type status stage pagesDone pagesTotal chunkCount failureReason fileName url sizeBytes createdAt
      }
    }
  }
`);

export const CreateDocumentMutation = graphql(`
  mutation ConsoleCreateDocument($knowledgebaseId: Int!, $input: CreateDocumentInput!) {
    createDocument(knowledgebaseId: $knowledgebaseId, input: $input) { id }
  }
`);

export const DeleteDocumentMutation = graphql(`
  mutation ConsoleDeleteDocument($id: Int!) {
    deleteDocument(id: $id) { deletedId }
  }
`);

export const KnowledgebaseStatusSubscription = graphql(`
  subscription ConsoleKnowledgebaseStatus($id: Int!) {
    knowledgebaseStatus(id: $id) {
      status
      document { documentId status stage pagesDone pagesTotal chunkCount failureReason }
    }
  }
`);

export const SearchKnowledgebaseQuery = graphql(`
  query ConsoleSearchKnowledgebase($id: Int!, $query: String!) {
    searchKnowledgebase(id: $id, query: $query, limit: 8) { chunkId content documentName relevance source }
  }
`);

export const ConversationsQuery = graphql(`
  query ConsoleConversations(
    $page: Int, $channels: [ConversationChannel!], $unreadOnly: Boolean, $status: ConversationStatus,
    $waitingForHuman: Boolean, $assignedToMe: Boolean, $unassigned: Boolean, $assistantId: Int, $search: String
  ) {
    conversations(
      page: $page, perPage: 30, channels: $channels, unreadOnly: $unreadOnly, status: $status,
      waitingForHuman: $waitingForHuman, assignedToMe: $assignedToMe, unassigned: $unassigned,
      assistantId: $assistantId, search: $search
    ) {
      items { id assistantId channel aiDisabled waitingForHuman customerIdentifier origin updatedAt unread lastMessageAt status assignee { id name } lastMessage { id role content } }
      pageInfo { currentPage lastPage total }
    }
  }
`);

/** How many conversations wait for a person (request_human): the inbox's badge. */
export const WaitingForHumanQuery = graphql(`
  query ConsoleWaitingForHuman {
    conversations(waitingForHuman: true, perPage: 1) { pageInfo { total } }
  }
`);

export const ConversationQuery = graphql(`
  query ConsoleConversation($id: ID!) {
    conversation(id: $id) {
      id assistantId channel aiDisabled waitingForHuman customerIdentifier origin updatedAt status resolvedAt
      assignee { id name }
      visitor { pageUrl browser country }
      messages { id role content createdAt visitor { pageUrl browser country } }
      notes { id content createdAt author { id name } }
    }
  }
`);

export const ConversationMessageSubscription = graphql(`
  subscription ConsoleConversationMessage($conversationId: ID!) {
    conversationMessageAdded(conversationId: $conversationId) { id role content createdAt visitor { pageUrl browser country } }
  }
`);

export const TakeOverMutation = graphql(`
  mutation ConsoleTakeOver($id: ID!) {
    takeOverConversation(id: $id) { id aiDisabled waitingForHuman }
  }
`);

export const HandBackMutation = graphql(`
  mutation ConsoleHandBack($id: ID!) {
    handBackConversation(id: $id) { id aiDisabled waitingForHuman }
  }
`);

export const SendOperatorMessageMutation = graphql(`
  mutation ConsoleSendOperatorMessage($conversationId: ID!, $content: String!) {
    sendOperatorMessage(input: { conversationId: $conversationId, content: $content }) { id role content createdAt }
  }
`);

export const CallsQuery = graphql(`
  query ConsoleCalls($page: Int, $filter: CallFilter) {
    calls(page: $page, perPage: 20, filter: $filter) {
      items {
        id type status assistantName clientPhoneNumber assistantPhoneNumber campaignName duration totalCost createdAt
      }
      pageInfo { currentPage lastPage total }
    }
  }
`);

export const CallQuery = graphql(`
  query ConsoleCall($id: Int!) {
    call(id: $id) {
      id type status assistantName clientPhoneNumber assistantPhoneNumber campaignName duration totalCost
      createdAt startedAt endedAt endReason answeredBy transcript evaluation webhookResponse recordingUrl recordingStatus variables
      assistantId activeAssistantId handoffCount
      turns {
        id speaker text heardText interrupted startMs endMs
        speechEndedAt transcriptAt firstTokenAt firstAudioAt playedAt
        functionCalls { name arguments result error durationMs }
      }
      latency { turns firstAudioP50Ms firstAudioP95Ms }
    }
  }
`);

export const CallsScreenChoicesQuery = graphql(`
  query ConsoleCallsScreenChoices {
    assistants(perPage: 100) { items { id name } }
    campaigns(perPage: 100) { items { id name } }
    phoneNumbers { id phoneNumber label }
  }
`);

export const StartTestPhoneCallMutation = graphql(`
  mutation ConsoleStartTestPhoneCall($input: StartCallInput!) {
    startCall(input: $input) { id }
  }
`);

export const SimulateInboundCallMutation = graphql(`
  mutation ConsoleSimulateInboundCall($input: SimulateInboundCallInput!) {
    simulateInboundCall(input: $input) { id status endReason }
  }
`);

export const TakeOverCallMutation = graphql(`
  mutation ConsoleTakeOverCall($callId: Int!, $phoneNumber: String!) {
    takeOverCall(callId: $callId, phoneNumber: $phoneNumber) { id clientPhoneNumber }
  }
`);

export const CallStatusSubscription = graphql(`
  subscription ConsoleCallStatus($callId: Int, $includeCurrent: Boolean) {
    callStatusChanged(callId: $callId, includeCurrent: $includeCurrent) {
      callId
      status
      call { id type status assistantName clientPhoneNumber assistantPhoneNumber campaignName duration totalCost createdAt }
    }
  }
`);

export const CallTranscriptSubscription = graphql(`
  subscription ConsoleCallTranscript($callId: Int!) {
    callTranscript(callId: $callId) { id speaker text }
  }
`);

export const CampaignsQuery = graphql(`
  query ConsoleCampaigns {
    campaigns(perPage: 100) {
      items {
        id name status maxConcurrentCalls assistantId
        callingWindow { start end timezone }
        retry { maxRetries intervalMinutes }
        phoneNumbers { id }
        progress { callsRunning withinCallingWindow leads { total completed processing scheduled rescheduled reachedMaxRetries blacklisted created } }
      }
    }
  }
`);

export const CampaignChoicesQuery = graphql(`
  query ConsoleCampaignChoices {
    assistants(perPage: 100, type: outbound) { items { id name } }
    phoneNumbers { id phoneNumber label }
  }
`);

export const CreateCampaignMutation = graphql(`
  mutation ConsoleCreateCampaign($input: CreateCampaignInput!) {
    createCampaign(input: $input) { id }
  }
`);

export const UpdateCampaignMutation = graphql(`
  mutation ConsoleUpdateCampaign($id: Int!, $input: UpdateCampaignInput!) {
    updateCampaign(id: $id, input: $input) { id status }
  }
`);

export const DeleteCampaignMutation = graphql(`
  mutation ConsoleDeleteCampaign($id: Int!) {
    deleteCampaign(id: $id) { deletedId }
  }
`);

export const DeleteLeadMutation = graphql(`
  mutation ConsoleDeleteLead($id: Int!) {
    deleteLead(id: $id) { deletedId }
  }
`);

export const CampaignProgressSubscription = graphql(`
  subscription ConsoleCampaignProgress($campaignId: Int!) {
    campaignProgress(campaignId: $campaignId) {
      campaignId status callsRunning withinCallingWindow
      leads { total completed processing scheduled rescheduled reachedMaxRetries blacklisted created }
    }
  }
`);

export const LeadsQuery = graphql(`
  query ConsoleLeads($campaignId: Int, $page: Int) {
    leads(campaignId: $campaignId, page: $page, perPage: 20) {
      items { id phoneNumber status attempts nextAttemptAt variables }
      pageInfo { currentPage lastPage total }
    }
  }
`);

export const CreateLeadMutation = graphql(`
  mutation ConsoleCreateLead($input: CreateLeadInput!) {
    createLead(input: $input) { id }
  }
`);

export const PhoneNumbersQuery = graphql(`
  query ConsolePhoneNumbers {
    phoneNumbers { id phoneNumber label kind typeLabel region smsCapable subscriptionStatus releaseRequestedAt }
  }
`);

export const AddPhoneNumberMutation = graphql(`
  mutation ConsoleAddPhoneNumber($input: AddPhoneNumberInput!) {
    addPhoneNumber(input: $input) { id }
  }
`);

export const ReleasePhoneNumberMutation = graphql(`
  mutation ConsoleReleasePhoneNumber($id: Int!) {
    releasePhoneNumber(id: $id) { phoneNumber { id } }
  }
`);

export const ApiKeysQuery = graphql(`
  query ConsoleApiKeys {
    apiKeys { id name createdAt lastUsedAt }
  }
`);

export const CreateApiKeyMutation = graphql(`
  mutation ConsoleCreateApiKey($name: String!) {
    createApiKey(input: { name: $name }) { token apiKey { id } }
  }
`);

export const DeleteApiKeyMutation = graphql(`
  mutation ConsoleDeleteApiKey($id: Int!) {
    deleteApiKey(id: $id) { deletedId }
  }
`);

export const BalanceSubscription = graphql(`
  subscription ConsoleBalance {
    balanceChanged { id balance }
  }
`);

export const MarkConversationReadMutation = graphql(`
  mutation ConsoleMarkRead($id: ID!) {
    markConversationRead(id: $id) { id unread }
  }
`);

export const ConversationActivitySubscription = graphql(`
  subscription ConsoleConversationActivity {
    conversationActivity {
      kind
      conversation { id assistantId channel aiDisabled waitingForHuman customerIdentifier origin updatedAt unread lastMessageAt status assignee { id name } lastMessage { id role content } visitor { pageUrl browser country } }
      message { id role content createdAt }
      note { id conversationId content createdAt author { id name } }
    }
  }
`);

export const PlatformAccountsQuery = graphql(`
  query ConsolePlatformAccounts($page: Int, $search: String) {
    platformAccounts(page: $page, perPage: 25, search: $search) {
      items { id name ownerEmail balance suspended isOperator createdAt }
      pageInfo { currentPage lastPage total }
    }
  }
`);

export const CreatePlatformAccountMutation = graphql(`
  mutation ConsoleCreatePlatformAccount($input: CreatePlatformAccountInput!) {
    createPlatformAccount(input: $input) { id }
  }
`);

export const CreditAccountMutation = graphql(`
  mutation ConsoleCreditAccount($accountId: Int!, $amount: Decimal!, $note: String) {
    creditAccount(accountId: $accountId, amount: $amount, note: $note) { id balance }
  }
`);

export const SuspendAccountMutation = graphql(`
  mutation ConsoleSuspendAccount($accountId: Int!, $suspended: Boolean!) {
    suspendAccount(accountId: $accountId, suspended: $suspended) { id suspended }
  }
`);

export const LedgerQuery = graphql(`
  query ConsoleLedger($accountId: Int, $page: Int) {
    ledgerEntries(accountId: $accountId, page: $page, perPage: 25) {
      items { id kind amount balanceAfter description pending callId createdAt }
      pageInfo { currentPage lastPage total }
    }
  }
`);

export const WebhookDeliveriesQuery = graphql(`
  query ConsoleWebhookDeliveries($page: Int, $filter: WebhookDeliveryFilter) {
    webhookDeliveries(page: $page, perPage: 20, filter: $filter) {
      items { id webhookId type url status attempts nextAttemptAt lastStatusCode lastError deliveredAt createdAt }
      pageInfo { currentPage lastPage total }
    }
  }
`);

export const RedeliverWebhookMutation = graphql(`
  mutation ConsoleRedeliverWebhook($id: Int!) {
    redeliverWebhook(id: $id) { id status attempts }
  }
`);

export const SendTestWebhookMutation = graphql(`
  mutation ConsoleSendTestWebhook($url: String) {
    sendTestWebhook(url: $url) { id status }
  }
`);

export const ReprocessDocumentMutation = graphql(`
  mutation ConsoleReprocessDocument($id: Int!) {
    reprocessDocument(id: $id) { id status stage failureReason }
  }
`);

export const WebhookSigningSecretsQuery = graphql(`
  query ConsoleWebhookSigningSecrets {
    webhookSigningSecrets { id createdAt expiresAt }
  }
`);

export const RotateWebhookSecretMutation = graphql(`
  mutation ConsoleRotateWebhookSecret($overlapSeconds: Int) {
    rotateWebhookSecret(overlapSeconds: $overlapSeconds) { secret createdAt previousExpiresAt }
  }
`);

export const CalendarConnectionsQuery = graphql(`
  query ConsoleCalendarConnections {
    calendarConnections { id name provider url readUrls username eventTypeId status lastError checkedAt createdAt }
  }
`);

export const CalendarsScreenQuery = graphql(`
  query ConsoleCalendarsScreen {
    calendarConnections { id name provider url readUrls username eventTypeId status lastError checkedAt createdAt }
    appointmentTypes {
      id connectionId name durationMinutes bufferBeforeMinutes bufferAfterMinutes minimumNoticeMinutes
      horizonDays timezone slotGranularityMinutes maxPerDay createdAt
      businessHours {
        mon { start end } tue { start end } wed { start end } thu { start end }
        fri { start end } sat { start end } sun { start end }
      }
    }
  }
`);

export const CreateCalendarConnectionMutation = graphql(`
  mutation ConsoleCreateCalendarConnection($input: CreateCalendarConnectionInput!) {
    createCalendarConnection(input: $input) { id status }
  }
`);

export const UpdateCalendarConnectionMutation = graphql(`
  mutation ConsoleUpdateCalendarConnection($id: Int!, $input: UpdateCalendarConnectionInput!) {
    updateCalendarConnection(id: $id, input: $input) { id status lastError }
  }
`);

export const DeleteCalendarConnectionMutation = graphql(`
  mutation ConsoleDeleteCalendarConnection($id: Int!) {
    deleteCalendarConnection(id: $id)
  }
`);

export const CreateAppointmentTypeMutation = graphql(`
  mutation ConsoleCreateAppointmentType($input: CreateAppointmentTypeInput!) {
    createAppointmentType(input: $input) { id }
  }
`);

export const DeleteAppointmentTypeMutation = graphql(`
  mutation ConsoleDeleteAppointmentType($id: Int!) {
    deleteAppointmentType(id: $id)
  }
`);

export const AppointmentTypesQuery = graphql(`
  query ConsoleAppointmentTypes {
    appointmentTypes { id connectionId name durationMinutes timezone }
  }
`);

export const AvailableSlotsQuery = graphql(`
  query ConsoleAvailableSlots($appointmentTypeId: Int!, $from: DateTime!, $to: DateTime!) {
    availableSlots(appointmentTypeId: $appointmentTypeId, from: $from, to: $to) { start end }
  }
`);

export const AssistantNamesQuery = graphql(`
  query ConsoleAssistantNames {
    assistants(perPage: 100) { items { id name } }
  }
`);

// What the appointments screen shows of one; codegen inlines it into each document below.
export const AppointmentFields = graphql(`
  fragment ConsoleAppointmentFields on Appointment {
    id status startsAt endsAt timezone customerName customerPhone customerEmail notes
    appointmentTypeId appointmentTypeName connectionId provider assistantId callId conversationId createdAt updatedAt
    cancelledAt
  }
`);

export const AppointmentsQuery = graphql(`
  query ConsoleAppointments($page: Int, $filter: AppointmentFilter) {
    appointments(page: $page, perPage: 20, filter: $filter) {
      items { ...ConsoleAppointmentFields }
      pageInfo { currentPage lastPage total }
    }
  }
`);

export const CancelAppointmentMutation = graphql(`
  mutation ConsoleCancelAppointment($id: Int!) {
    cancelAppointment(id: $id) { ...ConsoleAppointmentFields }
  }
`);

export const RescheduleAppointmentMutation = graphql(`
  mutation ConsoleRescheduleAppointment($id: Int!, $startsAt: DateTime!) {
    rescheduleAppointment(id: $id, startsAt: $startsAt) { ...ConsoleAppointmentFields }
  }
`);

export const AssistantCalendarQuery = graphql(`
  query ConsoleAssistantCalendar($id: Int!) {
    assistant(id: $id) { id appointmentTypeIds }
  }
`);

/** With connectionId, the sign-in renews that connection's grant (a repair) instead of adding one. */
export const StartCalendarOAuthMutation = graphql(`
  mutation ConsoleStartCalendarOAuth($provider: CalendarOAuthProvider!, $name: String!, $connectionId: Int) {
    startCalendarOAuth(provider: $provider, name: $name, connectionId: $connectionId) { authorizationUrl }
  }
`);

// Data & privacy (docs/data-governance.md): retention and the audit log.
export const DataRetentionQuery = graphql(`
  query ConsoleDataRetention {
    dataRetention { transcriptDays recordingDays messageDays callTurnDays webhookLogDays textDays auditLogDays }
  }
`);

export const SetDataRetentionMutation = graphql(`
  mutation ConsoleSetDataRetention($input: DataRetentionInput!) {
    setDataRetention(input: $input) { transcriptDays recordingDays messageDays callTurnDays webhookLogDays textDays auditLogDays }
  }
`);

export const AuditLogQuery = graphql(`
  query ConsoleAuditLog($after: String) {
    auditLog(first: 25, after: $after) {
      entries { id action actorKind actorId targetType targetId details ip at }
      nextCursor
    }
  }
`);

/** What createAssistant gives each setting it is not given: the new-assistant form starts from these. */
export const AssistantDefaultsQuery = graphql(`
  query ConsoleAssistantDefaults {
    assistantDefaults {
      type mode status timezone systemPrompt initialMessage llmTemperature
      speechSpeed voiceStability voiceSimilarity ambientSound ambientSoundVolume enableNoiseCancellation
      maxDuration maxSilenceDuration waitForCustomer allowInterruptions interruptSensitivity minInterruptWords
      endpointType endpointSensitivity reengagementInterval endCallOnVoicemail record
      knowledgebaseMode tools variables postCallEvaluation postCallSchema
      isWebhookActive sendWebhookOnlyOnCompleted includeRecordingInWebhook widgetSettings allowedOrigins
    }
  }
`);

// Tests (docs/testing-assistants.md): scenarios, suites and runs of one assistant.

export const TestScenarioFields = graphql(`
  fragment ConsoleTestScenarioFields on TestScenario {
    id assistantId name channel script persona goal variables turnLimit criteria checks toolResults
    useRealTools expectedReplies sourceCallId sourceConversationId updatedAt
  }
`);

export const TestResultFields = graphql(`
  fragment ConsoleTestResultFields on TestScenarioResult {
    id scenarioId scenarioName position status endedBy turnLatencies cost error functionCalls callId
    transcript { role content latencyMs }
    checks { kind description passed detail }
    judge { criterion passed reasoning }
    divergences { turn expected actual }
  }
`);

export const TestRunFields = graphql(`
  fragment ConsoleTestRunFields on TestRun {
    id suiteId status concurrency total done passed failed errored cost error createdAt startedAt finishedAt
    results { ...ConsoleTestResultFields }
  }
`);

export const TestsScreenQuery = graphql(`
  query ConsoleTestsScreen($assistantId: Int!) {
    assistant(id: $assistantId) { id name }
    testScenarios(assistantId: $assistantId) { ...ConsoleTestScenarioFields }
    testSuites { id name scenarioIds updatedAt }
  }
`);

export const TestScenarioQuery = graphql(`
  query ConsoleTestScenario($id: Int!) {
    testScenario(id: $id) { ...ConsoleTestScenarioFields }
  }
`);

export const CreateTestScenarioMutation = graphql(`
  mutation ConsoleCreateTestScenario($input: CreateTestScenarioInput!) {
    createTestScenario(input: $input) { id }
  }
`);

export const UpdateTestScenarioMutation = graphql(`
  mutation ConsoleUpdateTestScenario($id: Int!, $input: UpdateTestScenarioInput!) {
    updateTestScenario(id: $id, input: $input) { id }
  }
`);

export const DeleteTestScenarioMutation = graphql(`
  mutation ConsoleDeleteTestScenario($id: Int!) {
    deleteTestScenario(id: $id)
  }
`);

export const CreateTestScenarioFromCallMutation = graphql(`
  mutation ConsoleCreateTestScenarioFromCall($callId: Int!) {
    createTestScenarioFromCall(callId: $callId) { id assistantId }
  }
`);

export const CreateTestScenarioFromConversationMutation = graphql(`
  mutation ConsoleCreateTestScenarioFromConversation($conversationId: String!) {
    createTestScenarioFromConversation(conversationId: $conversationId) { id assistantId }
  }
`);

export const CreateTestSuiteMutation = graphql(`
  mutation ConsoleCreateTestSuite($input: TestSuiteInput!) {
    createTestSuite(input: $input) { id }
  }
`);

export const UpdateTestSuiteMutation = graphql(`
  mutation ConsoleUpdateTestSuite($id: Int!, $input: TestSuiteInput!) {
    updateTestSuite(id: $id, input: $input) { id }
  }
`);

export const DeleteTestSuiteMutation = graphql(`
  mutation ConsoleDeleteTestSuite($id: Int!) {
    deleteTestSuite(id: $id)
  }
`);

export const TestSuiteEstimateQuery = graphql(`
  query ConsoleTestSuiteEstimate($suiteId: Int!) {
    testSuiteEstimate(suiteId: $suiteId) { scenarios replies modelRequests price }
  }
`);

export const TestRunsQuery = graphql(`
  query ConsoleTestRuns($suiteId: Int!) {
    testRuns(suiteId: $suiteId, limit: 20) { id status total done passed failed errored cost createdAt }
  }
`);

export const RunTestSuiteMutation = graphql(`
  mutation ConsoleRunTestSuite($suiteId: Int!, $concurrency: Int) {
    runTestSuite(suiteId: $suiteId, concurrency: $concurrency) { id }
  }
`);

export const TestRunSubscription = graphql(`
  subscription ConsoleTestRunUpdated($id: Int!) {
    testRunUpdated(id: $id, includeCurrent: true) { ...ConsoleTestRunFields }
  }
`);

export const CompareTestRunsQuery = graphql(`
  query ConsoleCompareTestRuns($a: Int!, $b: Int!) {
    compareTestRuns(a: $a, b: $b) {
      unchanged
      before { id status passed failed errored total createdAt }
      after { id status passed failed errored total createdAt }
      changed {
        scenarioId scenarioName
        before { ...ConsoleTestResultFields }
        after { ...ConsoleTestResultFields }
      }
    }
  }
`);

export const ExportCustomerDataMutation = graphql(`
  mutation ConsoleExportCustomerData($input: CustomerDataInput!) {
    exportCustomerData(input: $input) { id kind state identifierKind stepsDone stepsTotal counts error downloadUrl expiresAt }
  }
`);

export const EraseCustomerDataMutation = graphql(`
  mutation ConsoleEraseCustomerData($input: CustomerDataInput!) {
    eraseCustomerData(input: $input) { id kind state identifierKind stepsDone stepsTotal counts error downloadUrl expiresAt }
  }
`);

export const CustomerDataJobQuery = graphql(`
  query ConsoleCustomerDataJob($id: Int!) {
    customerDataJob(id: $id) { id kind state identifierKind stepsDone stepsTotal counts error downloadUrl expiresAt }
  }
`);

/** The whole audit log, page by page, for the "Download audit log" file. */
export const AuditLogExportQuery = graphql(`
  query ConsoleAuditLogExport($after: String) {
    auditLog(first: 100, after: $after) {
      entries { id action actorKind actorId userId targetType targetId details ip at }
      nextCursor
    }
  }
`);

export const DocumentPassagesQuery = graphql(`
  query ConsoleDocumentPassages($id: Int!, $offset: Int!, $limit: Int!) {
    document(id: $id) { id name chunkCount passages(offset: $offset, limit: $limit) { id ordinal content tokenCount source } }
  }
`);

export const ChatModelsQuery = graphql(`
  query ConsoleChatModels {
    aiModels(kind: llm) { id available }
  }
`);

/** The overview screen: the account's time zone (its days), the assistants to filter by, then the figures. */
export const InsightsSetupQuery = graphql(`
  query ConsoleInsightsSetup {
    viewer { id account { id timezone } }
    assistants(perPage: 100) { items { id name } }
  }
`);

// Team inbox (docs/console.md "Inbox").
export const UnreadConversationCountQuery = graphql(`
  query ConsoleUnreadConversationCount {
    unreadConversationCount
  }
`);

export const InboxViewerQuery = graphql(`
  query ConsoleInboxViewer {
    viewer { id name }
    members { id name }
    assistants(perPage: 100) { items { id name } }
  }
`);

export const InsightsQuery = graphql(`
  query ConsoleInsights($period: InsightsPeriod!, $assistantId: Int) {
    insights(period: $period, assistantId: $assistantId) {
      from to timezone bucket calls finishedCalls answeredCalls answerRate conversations minutes cost
      evaluatedCalls judgedCalls successfulCalls successRate measuredTurns averageTurnLatencyMs p95TurnLatencyMs
      transfers bookings
      endedReasons { status reason calls }
      series { start calls answeredCalls conversations minutes cost bookings }
    }
  }
`);

export const ResolveConversationMutation = graphql(`
  mutation ConsoleResolveConversation($id: ID!) {
    resolveConversation(id: $id) { id status resolvedAt }
  }
`);

export const ReopenConversationMutation = graphql(`
  mutation ConsoleReopenConversation($id: ID!) {
    reopenConversation(id: $id) { id status resolvedAt }
  }
`);

export const AssignConversationMutation = graphql(`
  mutation ConsoleAssignConversation($id: ID!, $userId: Int) {
    assignConversation(id: $id, userId: $userId) { id assignee { id name } }
  }
`);

export const AddConversationNoteMutation = graphql(`
  mutation ConsoleAddConversationNote($conversationId: ID!, $content: String!) {
    addConversationNote(input: { conversationId: $conversationId, content: $content }) {
      id conversationId content createdAt author { id name }
    }
  }
`);

// What the customer data screen shows of an event an erasure left; codegen inlines it below.
export const ErasedEventLeftFields = graphql(`
  fragment ConsoleErasedEventLeftFields on ErasedEventLeft {
    id appointmentId provider externalId startsAt reason failure retriedByJobId handledAt handledBy
  }
`);

/** An erasure's calendar events left for the business to erase (docs/data-governance.md#calendar-events). */
export const CustomerDataEventsLeftQuery = graphql(`
  query ConsoleCustomerDataEventsLeft($id: Int!) {
    customerDataJob(id: $id) { id externalEventsLeftDetails { ...ConsoleErasedEventLeftFields } }
  }
`);

export const MarkErasedEventLeftHandledMutation = graphql(`
  mutation ConsoleMarkErasedEventLeftHandled($id: Int!) {
    markErasedEventLeftHandled(id: $id) { ...ConsoleErasedEventLeftFields }
  }
`);
