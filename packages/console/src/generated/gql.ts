/* eslint-disable */
import * as types from './graphql.ts';



/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  mutation ConsoleLogin($input: LoginInput!) {\n    login(input: $input) {\n      token\n      expiresAt\n      viewer { id email name account { id name balance timezone isOperator } }\n    }\n  }\n": typeof types.ConsoleLoginDocument,
    "\n  mutation ConsoleLogout {\n    logout { revoked }\n  }\n": typeof types.ConsoleLogoutDocument,
    "\n  query ConsoleViewer {\n    viewer { id email name account { id name balance timezone isOperator } }\n  }\n": typeof types.ConsoleViewerDocument,
    "\n  query ConsoleViewerRole {\n    viewer { id role }\n  }\n": typeof types.ConsoleViewerRoleDocument,
    "\n  query ConsoleChatModels {\n    aiModels(kind: llm) { id available }\n  }\n": typeof types.ConsoleChatModelsDocument,
    "\n  query ConsoleCalendarConnections {\n    calendarConnections { id name provider url readUrls username eventTypeId status lastError checkedAt createdAt }\n  }\n": typeof types.ConsoleCalendarConnectionsDocument,
    "\n  query ConsoleUnreadConversationCount {\n    unreadConversationCount\n  }\n": typeof types.ConsoleUnreadConversationCountDocument,
    "\n  subscription ConsoleConversationActivity {\n    conversationActivity {\n      kind\n      conversation { id assistantId channel aiDisabled waitingForHuman customerIdentifier origin updatedAt unread lastMessageAt status assignee { id name } lastMessage { id role content } visitor { pageUrl browser country } }\n      message { id role content createdAt }\n      note { id conversationId content createdAt author { id name } }\n    }\n  }\n": typeof types.ConsoleConversationActivityDocument,
    "\n  query ConsoleAvailableSlots($appointmentTypeId: Int!, $from: DateTime!, $to: DateTime!) {\n    availableSlots(appointmentTypeId: $appointmentTypeId, from: $from, to: $to) { start end }\n  }\n": typeof types.ConsoleAvailableSlotsDocument,
    "\n  query ConsoleAssistantNames {\n    assistants(perPage: 100) { items { id name } }\n  }\n": typeof types.ConsoleAssistantNamesDocument,
    "\n  mutation ConsoleCreateTestScenarioFromCall($callId: Int!) {\n    createTestScenarioFromCall(callId: $callId) { id assistantId }\n  }\n": typeof types.ConsoleCreateTestScenarioFromCallDocument,
    "\n  mutation ConsoleCreateTestScenarioFromConversation($conversationId: String!) {\n    createTestScenarioFromConversation(conversationId: $conversationId) { id assistantId }\n  }\n": typeof types.ConsoleCreateTestScenarioFromConversationDocument,
    "\n  query ConsolePhoneNumbers {\n    phoneNumbers { id phoneNumber label kind typeLabel region smsCapable subscriptionStatus releaseRequestedAt }\n  }\n": typeof types.ConsolePhoneNumbersDocument,
    "\n  mutation ConsoleAddPhoneNumber($input: AddPhoneNumberInput!) {\n    addPhoneNumber(input: $input) { id }\n  }\n": typeof types.ConsoleAddPhoneNumberDocument,
    "\n  mutation ConsoleReleasePhoneNumber($id: Int!) {\n    releasePhoneNumber(id: $id) { phoneNumber { id } }\n  }\n": typeof types.ConsoleReleasePhoneNumberDocument,
    "\n  query ConsoleApiKeys {\n    apiKeys { id name createdAt lastUsedAt }\n  }\n": typeof types.ConsoleApiKeysDocument,
    "\n  mutation ConsoleCreateApiKey($name: String!) {\n    createApiKey(input: { name: $name }) { token apiKey { id } }\n  }\n": typeof types.ConsoleCreateApiKeyDocument,
    "\n  mutation ConsoleDeleteApiKey($id: Int!) {\n    deleteApiKey(id: $id) { deletedId }\n  }\n": typeof types.ConsoleDeleteApiKeyDocument,
    "\n  query ConsolePlatformAccounts($page: Int, $search: String) {\n    platformAccounts(page: $page, perPage: 25, search: $search) {\n      items { id name ownerEmail balance suspended isOperator createdAt }\n      pageInfo { currentPage lastPage total }\n    }\n  }\n": typeof types.ConsolePlatformAccountsDocument,
    "\n  mutation ConsoleCreatePlatformAccount($input: CreatePlatformAccountInput!) {\n    createPlatformAccount(input: $input) { id }\n  }\n": typeof types.ConsoleCreatePlatformAccountDocument,
    "\n  mutation ConsoleCreditAccount($accountId: Int!, $amount: Decimal!, $note: String) {\n    creditAccount(accountId: $accountId, amount: $amount, note: $note) { id balance }\n  }\n": typeof types.ConsoleCreditAccountDocument,
    "\n  mutation ConsoleSuspendAccount($accountId: Int!, $suspended: Boolean!) {\n    suspendAccount(accountId: $accountId, suspended: $suspended) { id suspended }\n  }\n": typeof types.ConsoleSuspendAccountDocument,
    "\n  fragment ConsoleAppointmentFields on Appointment {\n    id status startsAt endsAt timezone customerName customerPhone customerEmail notes\n    appointmentTypeId appointmentTypeName connectionId provider assistantId callId conversationId createdAt updatedAt\n    cancelledAt\n  }\n": typeof types.ConsoleAppointmentFieldsFragmentDoc,
    "\n    query ConsoleAppointments($page: Int, $filter: AppointmentFilter) {\n      appointments(page: $page, perPage: 20, filter: $filter) {\n        items { ...ConsoleAppointmentFields }\n        pageInfo { currentPage lastPage total }\n      }\n    }\n  ": typeof types.ConsoleAppointmentsDocument,
    "\n    mutation ConsoleCancelAppointment($id: Int!) {\n      cancelAppointment(id: $id) { ...ConsoleAppointmentFields }\n    }\n  ": typeof types.ConsoleCancelAppointmentDocument,
    "\n    mutation ConsoleRescheduleAppointment($id: Int!, $startsAt: DateTime!) {\n      rescheduleAppointment(id: $id, startsAt: $startsAt) { ...ConsoleAppointmentFields }\n    }\n  ": typeof types.ConsoleRescheduleAppointmentDocument,
    "\n  query ConsoleAssistant($id: Int!) {\n    assistant(id: $id) {\n      id uuid name type mode status language timezone\n      systemPrompt initialMessage llmTemperature\n      voiceId speechSpeed voiceStability voiceSimilarity ambientSound ambientSoundVolume enableNoiseCancellation\n      maxDuration maxSilenceDuration waitForCustomer allowInterruptions interruptSensitivity minInterruptWords\n      endpointType endpointSensitivity reengagementInterval endCallOnVoicemail record phoneNumberId\n      knowledgebaseId knowledgebaseMode tools variables\n      postCallEvaluation postCallSchema\n      webhookUrl isWebhookActive sendWebhookOnlyOnCompleted includeRecordingInWebhook inboundWebhookUrl\n      widgetSettings allowedOrigins\n      redactPii redactRecordings\n    }\n  }\n": typeof types.ConsoleAssistantDocument,
    "\n  query ConsoleAssistantChoices {\n    voices { id name gender supportedModes }\n    knowledgebases { id name }\n    phoneNumbers { id phoneNumber label }\n  }\n": typeof types.ConsoleAssistantChoicesDocument,
    "\n  mutation ConsoleCreateAssistant($input: CreateAssistantInput!) {\n    createAssistant(input: $input) { id webhookSigningSecret }\n  }\n": typeof types.ConsoleCreateAssistantDocument,
    "\n  mutation ConsoleUpdateAssistant($id: Int!, $input: UpdateAssistantInput!) {\n    updateAssistant(id: $id, input: $input) { id updatedAt webhookSigningSecret }\n  }\n": typeof types.ConsoleUpdateAssistantDocument,
    "\n  mutation ConsoleDeleteAssistant($id: Int!) {\n    deleteAssistant(id: $id) { deletedId }\n  }\n": typeof types.ConsoleDeleteAssistantDocument,
    "\n  mutation ConsoleStartTest($assistantId: Int!) {\n    startTestConversation(input: { assistantId: $assistantId }) {\n      id\n      messages { id role content }\n    }\n  }\n": typeof types.ConsoleStartTestDocument,
    "\n  mutation ConsoleSendTest($conversationId: ID!, $message: String!) {\n    sendTestMessage(input: { conversationId: $conversationId, message: $message }) { reply }\n  }\n": typeof types.ConsoleSendTestDocument,
    "\n  query ConsoleAppointmentTypes {\n    appointmentTypes { id connectionId name durationMinutes timezone }\n  }\n": typeof types.ConsoleAppointmentTypesDocument,
    "\n  query ConsoleAssistantCalendar($id: Int!) {\n    assistant(id: $id) { id appointmentTypeIds }\n  }\n": typeof types.ConsoleAssistantCalendarDocument,
    "\n  query ConsoleAssistantDefaults {\n    assistantDefaults {\n      type mode status timezone systemPrompt initialMessage llmTemperature\n      speechSpeed voiceStability voiceSimilarity ambientSound ambientSoundVolume enableNoiseCancellation\n      maxDuration maxSilenceDuration waitForCustomer allowInterruptions interruptSensitivity minInterruptWords\n      endpointType endpointSensitivity reengagementInterval endCallOnVoicemail record\n      knowledgebaseMode tools variables postCallEvaluation postCallSchema\n      isWebhookActive sendWebhookOnlyOnCompleted includeRecordingInWebhook widgetSettings allowedOrigins\n    }\n  }\n": typeof types.ConsoleAssistantDefaultsDocument,
    "\n  query ConsoleAssistants($page: Int, $search: String) {\n    assistants(page: $page, perPage: 20, search: $search) {\n      items { id uuid name type mode status updatedAt phoneNumber { phoneNumber } }\n      pageInfo { currentPage lastPage total }\n    }\n  }\n": typeof types.ConsoleAssistantsDocument,
    "\n  query ConsoleCalendarsScreen {\n    calendarConnections { id name provider url readUrls username eventTypeId status lastError checkedAt createdAt }\n    appointmentTypes {\n      id connectionId name durationMinutes bufferBeforeMinutes bufferAfterMinutes minimumNoticeMinutes\n      horizonDays timezone slotGranularityMinutes maxPerDay createdAt\n      businessHours {\n        mon { start end } tue { start end } wed { start end } thu { start end }\n        fri { start end } sat { start end } sun { start end }\n      }\n    }\n  }\n": typeof types.ConsoleCalendarsScreenDocument,
    "\n  mutation ConsoleCreateCalendarConnection($input: CreateCalendarConnectionInput!) {\n    createCalendarConnection(input: $input) { id status }\n  }\n": typeof types.ConsoleCreateCalendarConnectionDocument,
    "\n  mutation ConsoleUpdateCalendarConnection($id: Int!, $input: UpdateCalendarConnectionInput!) {\n    updateCalendarConnection(id: $id, input: $input) { id status lastError }\n  }\n": typeof types.ConsoleUpdateCalendarConnectionDocument,
    "\n  mutation ConsoleDeleteCalendarConnection($id: Int!) {\n    deleteCalendarConnection(id: $id)\n  }\n": typeof types.ConsoleDeleteCalendarConnectionDocument,
    "\n  mutation ConsoleCreateAppointmentType($input: CreateAppointmentTypeInput!) {\n    createAppointmentType(input: $input) { id }\n  }\n": typeof types.ConsoleCreateAppointmentTypeDocument,
    "\n  mutation ConsoleDeleteAppointmentType($id: Int!) {\n    deleteAppointmentType(id: $id)\n  }\n": typeof types.ConsoleDeleteAppointmentTypeDocument,
    "\n  mutation ConsoleStartCalendarOAuth($provider: CalendarOAuthProvider!, $name: String!, $connectionId: Int) {\n    startCalendarOAuth(provider: $provider, name: $name, connectionId: $connectionId) { authorizationUrl }\n  }\n": typeof types.ConsoleStartCalendarOAuthDocument,
    "\n  query ConsoleCalls($page: Int, $filter: CallFilter) {\n    calls(page: $page, perPage: 20, filter: $filter) {\n      items {\n        id type status assistantName clientPhoneNumber assistantPhoneNumber campaignName duration totalCost createdAt\n      }\n      pageInfo { currentPage lastPage total }\n    }\n  }\n": typeof types.ConsoleCallsDocument,
    "\n  query ConsoleCall($id: Int!) {\n    call(id: $id) {\n      id type status assistantName clientPhoneNumber assistantPhoneNumber campaignName duration totalCost\n      createdAt startedAt endedAt endReason answeredBy transcript evaluation webhookResponse recordingUrl recordingStatus variables\n      assistantId activeAssistantId handoffCount\n      turns {\n        id speaker text heardText interrupted startMs endMs\n        speechEndedAt transcriptAt firstTokenAt firstAudioAt playedAt\n        functionCalls { name arguments result error durationMs }\n      }\n      latency { turns firstAudioP50Ms firstAudioP95Ms }\n    }\n  }\n": typeof types.ConsoleCallDocument,
    "\n  query ConsoleCallsScreenChoices {\n    assistants(perPage: 100) { items { id name } }\n    campaigns(perPage: 100) { items { id name } }\n    phoneNumbers { id phoneNumber label }\n  }\n": typeof types.ConsoleCallsScreenChoicesDocument,
    "\n  mutation ConsoleStartTestPhoneCall($input: StartCallInput!) {\n    startCall(input: $input) { id }\n  }\n": typeof types.ConsoleStartTestPhoneCallDocument,
    "\n  mutation ConsoleSimulateInboundCall($input: SimulateInboundCallInput!) {\n    simulateInboundCall(input: $input) { id status endReason }\n  }\n": typeof types.ConsoleSimulateInboundCallDocument,
    "\n  mutation ConsoleTakeOverCall($callId: Int!, $phoneNumber: String!) {\n    takeOverCall(callId: $callId, phoneNumber: $phoneNumber) { id clientPhoneNumber }\n  }\n": typeof types.ConsoleTakeOverCallDocument,
    "\n  subscription ConsoleCallStatus($callId: Int, $includeCurrent: Boolean) {\n    callStatusChanged(callId: $callId, includeCurrent: $includeCurrent) {\n      callId\n      status\n      call { id type status assistantName clientPhoneNumber assistantPhoneNumber campaignName duration totalCost createdAt }\n    }\n  }\n": typeof types.ConsoleCallStatusDocument,
    "\n  subscription ConsoleCallTranscript($callId: Int!) {\n    callTranscript(callId: $callId) { id speaker text }\n  }\n": typeof types.ConsoleCallTranscriptDocument,
    "\n  query ConsoleCampaigns {\n    campaigns(perPage: 100) {\n      items {\n        id name status maxConcurrentCalls assistantId\n        callingWindow { start end timezone }\n        retry { maxRetries intervalMinutes }\n        phoneNumbers { id }\n        progress { callsRunning withinCallingWindow leads { total completed processing scheduled rescheduled reachedMaxRetries blacklisted created } }\n      }\n    }\n  }\n": typeof types.ConsoleCampaignsDocument,
    "\n  query ConsoleCampaignChoices {\n    assistants(perPage: 100, type: outbound) { items { id name } }\n    phoneNumbers { id phoneNumber label }\n  }\n": typeof types.ConsoleCampaignChoicesDocument,
    "\n  mutation ConsoleCreateCampaign($input: CreateCampaignInput!) {\n    createCampaign(input: $input) { id }\n  }\n": typeof types.ConsoleCreateCampaignDocument,
    "\n  mutation ConsoleUpdateCampaign($id: Int!, $input: UpdateCampaignInput!) {\n    updateCampaign(id: $id, input: $input) { id status }\n  }\n": typeof types.ConsoleUpdateCampaignDocument,
    "\n  mutation ConsoleDeleteCampaign($id: Int!) {\n    deleteCampaign(id: $id) { deletedId }\n  }\n": typeof types.ConsoleDeleteCampaignDocument,
    "\n  mutation ConsoleDeleteLead($id: Int!) {\n    deleteLead(id: $id) { deletedId }\n  }\n": typeof types.ConsoleDeleteLeadDocument,
    "\n  subscription ConsoleCampaignProgress($campaignId: Int!) {\n    campaignProgress(campaignId: $campaignId) {\n      campaignId status callsRunning withinCallingWindow\n      leads { total completed processing scheduled rescheduled reachedMaxRetries blacklisted created }\n    }\n  }\n": typeof types.ConsoleCampaignProgressDocument,
    "\n  query ConsoleLeads($campaignId: Int, $page: Int) {\n    leads(campaignId: $campaignId, page: $page, perPage: 20) {\n      items { id phoneNumber status attempts nextAttemptAt variables }\n      pageInfo { currentPage lastPage total }\n    }\n  }\n": typeof types.ConsoleLeadsDocument,
    "\n  mutation ConsoleCreateLead($input: CreateLeadInput!) {\n    createLead(input: $input) { id }\n  }\n": typeof types.ConsoleCreateLeadDocument,
    "\n  mutation ConsoleExportCustomerData($input: CustomerDataInput!) {\n    exportCustomerData(input: $input) { id kind state identifierKind stepsDone stepsTotal counts error downloadUrl expiresAt }\n  }\n": typeof types.ConsoleExportCustomerDataDocument,
    "\n  mutation ConsoleEraseCustomerData($input: CustomerDataInput!) {\n    eraseCustomerData(input: $input) { id kind state identifierKind stepsDone stepsTotal counts error downloadUrl expiresAt }\n  }\n": typeof types.ConsoleEraseCustomerDataDocument,
    "\n  query ConsoleCustomerDataJob($id: Int!) {\n    customerDataJob(id: $id) { id kind state identifierKind stepsDone stepsTotal counts error downloadUrl expiresAt }\n  }\n": typeof types.ConsoleCustomerDataJobDocument,
    "\n  fragment ConsoleErasedEventLeftFields on ErasedEventLeft {\n    id appointmentId provider externalId startsAt reason failure retriedByJobId handledAt handledBy\n  }\n": typeof types.ConsoleErasedEventLeftFieldsFragmentDoc,
    "\n    query ConsoleCustomerDataEventsLeft($id: Int!) {\n      customerDataJob(id: $id) { id externalEventsLeftDetails { ...ConsoleErasedEventLeftFields } }\n    }\n  ": typeof types.ConsoleCustomerDataEventsLeftDocument,
    "\n    mutation ConsoleMarkErasedEventLeftHandled($id: Int!) {\n      markErasedEventLeftHandled(id: $id) { ...ConsoleErasedEventLeftFields }\n    }\n  ": typeof types.ConsoleMarkErasedEventLeftHandledDocument,
    "\n  query ConsoleDataRetention {\n    dataRetention { transcriptDays recordingDays messageDays callTurnDays webhookLogDays textDays auditLogDays }\n  }\n": typeof types.ConsoleDataRetentionDocument,
    "\n  mutation ConsoleSetDataRetention($input: DataRetentionInput!) {\n    setDataRetention(input: $input) { transcriptDays recordingDays messageDays callTurnDays webhookLogDays textDays auditLogDays }\n  }\n": typeof types.ConsoleSetDataRetentionDocument,
    "\n  query ConsoleAuditLog($after: String) {\n    auditLog(first: 25, after: $after) {\n      entries { id action actorKind actorId targetType targetId details ip at }\n      nextCursor\n    }\n  }\n": typeof types.ConsoleAuditLogDocument,
    "\n  query ConsoleAuditLogExport($after: String) {\n    auditLog(first: 100, after: $after) {\n      entries { id action actorKind actorId userId targetType targetId details ip at }\n      nextCursor\n    }\n  }\n": typeof types.ConsoleAuditLogExportDocument,
    "\n  query ConsoleConversations(\n    $page: Int, $channels: [ConversationChannel!], $unreadOnly: Boolean, $status: ConversationStatus,\n    $waitingForHuman: Boolean, $assignedToMe: Boolean, $unassigned: Boolean, $assistantId: Int, $search: String\n  ) {\n    conversations(\n      page: $page, perPage: 30, channels: $channels, unreadOnly: $unreadOnly, status: $status,\n      waitingForHuman: $waitingForHuman, assignedToMe: $assignedToMe, unassigned: $unassigned,\n      assistantId: $assistantId, search: $search\n    ) {\n      items { id assistantId channel aiDisabled waitingForHuman customerIdentifier origin updatedAt unread lastMessageAt status assignee { id name } lastMessage { id role content } }\n      pageInfo { currentPage lastPage total }\n    }\n  }\n": typeof types.ConsoleConversationsDocument,
    "\n  query ConsoleWaitingForHuman {\n    conversations(waitingForHuman: true, perPage: 1) { pageInfo { total } }\n  }\n": typeof types.ConsoleWaitingForHumanDocument,
    "\n  query ConsoleConversation($id: ID!) {\n    conversation(id: $id) {\n      id assistantId channel aiDisabled waitingForHuman customerIdentifier origin updatedAt status resolvedAt\n      assignee { id name }\n      visitor { pageUrl browser country }\n      messages { id role content createdAt visitor { pageUrl browser country } }\n      notes { id content createdAt author { id name } }\n    }\n  }\n": typeof types.ConsoleConversationDocument,
    "\n  subscription ConsoleConversationMessage($conversationId: ID!) {\n    conversationMessageAdded(conversationId: $conversationId) { id role content createdAt visitor { pageUrl browser country } }\n  }\n": typeof types.ConsoleConversationMessageDocument,
    "\n  mutation ConsoleTakeOver($id: ID!) {\n    takeOverConversation(id: $id) { id aiDisabled waitingForHuman }\n  }\n": typeof types.ConsoleTakeOverDocument,
    "\n  mutation ConsoleHandBack($id: ID!) {\n    handBackConversation(id: $id) { id aiDisabled waitingForHuman }\n  }\n": typeof types.ConsoleHandBackDocument,
    "\n  mutation ConsoleSendOperatorMessage($conversationId: ID!, $content: String!) {\n    sendOperatorMessage(input: { conversationId: $conversationId, content: $content }) { id role content createdAt }\n  }\n": typeof types.ConsoleSendOperatorMessageDocument,
    "\n  mutation ConsoleMarkRead($id: ID!) {\n    markConversationRead(id: $id) { id unread }\n  }\n": typeof types.ConsoleMarkReadDocument,
    "\n  query ConsoleInboxViewer {\n    viewer { id name }\n    members { id name }\n    assistants(perPage: 100) { items { id name } }\n  }\n": typeof types.ConsoleInboxViewerDocument,
    "\n  mutation ConsoleResolveConversation($id: ID!) {\n    resolveConversation(id: $id) { id status resolvedAt }\n  }\n": typeof types.ConsoleResolveConversationDocument,
    "\n  mutation ConsoleReopenConversation($id: ID!) {\n    reopenConversation(id: $id) { id status resolvedAt }\n  }\n": typeof types.ConsoleReopenConversationDocument,
    "\n  mutation ConsoleAssignConversation($id: ID!, $userId: Int) {\n    assignConversation(id: $id, userId: $userId) { id assignee { id name } }\n  }\n": typeof types.ConsoleAssignConversationDocument,
    "\n  mutation ConsoleAddConversationNote($conversationId: ID!, $content: String!) {\n    addConversationNote(input: { conversationId: $conversationId, content: $content }) {\n      id conversationId content createdAt author { id name }\n    }\n  }\n": typeof types.ConsoleAddConversationNoteDocument,
    "\n  query ConsoleInsightsSetup {\n    viewer { id account { id timezone } }\n    assistants(perPage: 100) { items { id name } }\n  }\n": typeof types.ConsoleInsightsSetupDocument,
    "\n  query ConsoleInsights($period: InsightsPeriod!, $assistantId: Int) {\n    insights(period: $period, assistantId: $assistantId) {\n      from to timezone bucket calls finishedCalls answeredCalls answerRate conversations minutes cost\n      evaluatedCalls judgedCalls successfulCalls successRate measuredTurns averageTurnLatencyMs p95TurnLatencyMs\n      transfers bookings\n      endedReasons { status reason calls }\n      series { start calls answeredCalls conversations minutes cost bookings }\n    }\n  }\n": typeof types.ConsoleInsightsDocument,
    "\n  query ConsoleKnowledgebases {\n    knowledgebases { id name description status documentsCount assistantsCount }\n  }\n": typeof types.ConsoleKnowledgebasesDocument,
    "\n  mutation ConsoleCreateKnowledgebase($input: KnowledgebaseInput!) {\n    createKnowledgebase(input: $input) { id }\n  }\n": typeof types.ConsoleCreateKnowledgebaseDocument,
    "\n  mutation ConsoleDeleteKnowledgebase($id: Int!) {\n    deleteKnowledgebase(id: $id) { deletedId }\n  }\n": typeof types.ConsoleDeleteKnowledgebaseDocument,
    "\n  mutation ConsoleUpdateKnowledgebase($id: Int!, $input: KnowledgebaseInput!) {\n    updateKnowledgebase(id: $id, input: $input) { id name description chunkMaxTokens chunkOverlapTokens }\n  }\n": typeof types.ConsoleUpdateKnowledgebaseDocument,
    "\n  query ConsoleKnowledgebase($id: Int!) {\n    knowledgebase(id: $id) {\n      id name description status assistantsCount chunkMaxTokens chunkOverlapTokens\n      documents {\n        id name type status stage pagesDone pagesTotal chunkCount failureReason fileName url sizeBytes createdAt\n      }\n    }\n  }\n": typeof types.ConsoleKnowledgebaseDocument,
    "\n  mutation ConsoleCreateDocument($knowledgebaseId: Int!, $input: CreateDocumentInput!) {\n    createDocument(knowledgebaseId: $knowledgebaseId, input: $input) { id }\n  }\n": typeof types.ConsoleCreateDocumentDocument,
    "\n  mutation ConsoleDeleteDocument($id: Int!) {\n    deleteDocument(id: $id) { deletedId }\n  }\n": typeof types.ConsoleDeleteDocumentDocument,
    "\n  subscription ConsoleKnowledgebaseStatus($id: Int!) {\n    knowledgebaseStatus(id: $id) {\n      status\n      document { documentId status stage pagesDone pagesTotal chunkCount failureReason }\n    }\n  }\n": typeof types.ConsoleKnowledgebaseStatusDocument,
    "\n  query ConsoleSearchKnowledgebase($id: Int!, $query: String!) {\n    searchKnowledgebase(id: $id, query: $query, limit: 8) { chunkId content documentName relevance source }\n  }\n": typeof types.ConsoleSearchKnowledgebaseDocument,
    "\n  mutation ConsoleReprocessDocument($id: Int!) {\n    reprocessDocument(id: $id) { id status stage failureReason }\n  }\n": typeof types.ConsoleReprocessDocumentDocument,
    "\n  query ConsoleDocumentPassages($id: Int!, $offset: Int!, $limit: Int!) {\n    document(id: $id) { id name chunkCount passages(offset: $offset, limit: $limit) { id ordinal content tokenCount source } }\n  }\n": typeof types.ConsoleDocumentPassagesDocument,
    "\n  subscription ConsoleBalance {\n    balanceChanged { id balance }\n  }\n": typeof types.ConsoleBalanceDocument,
    "\n  query ConsoleLedger($accountId: Int, $page: Int) {\n    ledgerEntries(accountId: $accountId, page: $page, perPage: 25) {\n      items { id kind amount balanceAfter description pending callId createdAt }\n      pageInfo { currentPage lastPage total }\n    }\n  }\n": typeof types.ConsoleLedgerDocument,
    "\n  query ConsoleTeam {\n    viewer { id role }\n    members { id name email role createdAt }\n    invitations { id email role expiresAt createdAt emailStatus emailError emailSentAt }\n    invitationEmailEnabled\n  }\n": typeof types.ConsoleTeamDocument,
    "\n  mutation ConsoleInviteMember($input: InviteMemberInput!) {\n    inviteMember(input: $input) { token path invitation { id emailStatus } }\n  }\n": typeof types.ConsoleInviteMemberDocument,
    "\n  mutation ConsoleResendInvitationEmail($id: Int!) {\n    resendInvitationEmail(id: $id) { path invitation { id emailStatus } }\n  }\n": typeof types.ConsoleResendInvitationEmailDocument,
    "\n  mutation ConsoleRevokeInvitation($id: Int!) {\n    revokeInvitation(id: $id)\n  }\n": typeof types.ConsoleRevokeInvitationDocument,
    "\n  mutation ConsoleChangeMemberRole($input: ChangeMemberRoleInput!) {\n    changeMemberRole(input: $input) { id role }\n  }\n": typeof types.ConsoleChangeMemberRoleDocument,
    "\n  mutation ConsoleRemoveMember($userId: Int!) {\n    removeMember(userId: $userId)\n  }\n": typeof types.ConsoleRemoveMemberDocument,
    "\n  mutation ConsoleResetMemberPassword($userId: Int!) {\n    resetMemberPassword(userId: $userId) { path expiresAt emailStatus }\n  }\n": typeof types.ConsoleResetMemberPasswordDocument,
    "\n  query ConsoleInvitationLink($token: String!) {\n    invitationLink(token: $token) { kind email role accountName expiresAt }\n  }\n": typeof types.ConsoleInvitationLinkDocument,
    "\n  mutation ConsoleAcceptInvitation($input: AcceptInvitationInput!) {\n    acceptInvitation(input: $input) {\n      token\n      expiresAt\n      viewer { id email role account { id isOperator } }\n    }\n  }\n": typeof types.ConsoleAcceptInvitationDocument,
    "\n  fragment ConsoleTestScenarioFields on TestScenario {\n    id assistantId name channel script persona goal variables turnLimit criteria checks toolResults\n    useRealTools expectedReplies sourceCallId sourceConversationId updatedAt\n  }\n": typeof types.ConsoleTestScenarioFieldsFragmentDoc,
    "\n  fragment ConsoleTestResultFields on TestScenarioResult {\n    id scenarioId scenarioName position status endedBy turnLatencies cost error functionCalls callId\n    transcript { role content latencyMs }\n    checks { kind description passed detail }\n    judge { criterion passed reasoning }\n    divergences { turn expected actual }\n  }\n": typeof types.ConsoleTestResultFieldsFragmentDoc,
    "\n    fragment ConsoleTestRunFields on TestRun {\n      id suiteId status concurrency total done passed failed errored cost error createdAt startedAt finishedAt\n      results { ...ConsoleTestResultFields }\n    }\n  ": typeof types.ConsoleTestRunFieldsFragmentDoc,
    "\n    query ConsoleTestsScreen($assistantId: Int!) {\n      assistant(id: $assistantId) { id name }\n      testScenarios(assistantId: $assistantId) { ...ConsoleTestScenarioFields }\n      testSuites { id name scenarioIds updatedAt }\n    }\n  ": typeof types.ConsoleTestsScreenDocument,
    "\n    query ConsoleTestScenario($id: Int!) {\n      testScenario(id: $id) { ...ConsoleTestScenarioFields }\n    }\n  ": typeof types.ConsoleTestScenarioDocument,
    "\n  mutation ConsoleCreateTestScenario($input: CreateTestScenarioInput!) {\n    createTestScenario(input: $input) { id }\n  }\n": typeof types.ConsoleCreateTestScenarioDocument,
    "\n  mutation ConsoleUpdateTestScenario($id: Int!, $input: UpdateTestScenarioInput!) {\n    updateTestScenario(id: $id, input: $input) { id }\n  }\n": typeof types.ConsoleUpdateTestScenarioDocument,
    "\n  mutation ConsoleDeleteTestScenario($id: Int!) {\n    deleteTestScenario(id: $id)\n  }\n": typeof types.ConsoleDeleteTestScenarioDocument,
    "\n  mutation ConsoleCreateTestSuite($input: TestSuiteInput!) {\n    createTestSuite(input: $input) { id }\n  }\n": typeof types.ConsoleCreateTestSuiteDocument,
    "\n  mutation ConsoleUpdateTestSuite($id: Int!, $input: TestSuiteInput!) {\n    updateTestSuite(id: $id, input: $input) { id }\n  }\n": typeof types.ConsoleUpdateTestSuiteDocument,
    "\n  mutation ConsoleDeleteTestSuite($id: Int!) {\n    deleteTestSuite(id: $id)\n  }\n": typeof types.ConsoleDeleteTestSuiteDocument,
    "\n  query ConsoleTestSuiteEstimate($suiteId: Int!) {\n    testSuiteEstimate(suiteId: $suiteId) { scenarios replies modelRequests price }\n  }\n": typeof types.ConsoleTestSuiteEstimateDocument,
    "\n  query ConsoleTestRuns($suiteId: Int!) {\n    testRuns(suiteId: $suiteId, limit: 20) { id status total done passed failed errored cost createdAt }\n  }\n": typeof types.ConsoleTestRunsDocument,
    "\n  mutation ConsoleRunTestSuite($suiteId: Int!, $concurrency: Int) {\n    runTestSuite(suiteId: $suiteId, concurrency: $concurrency) { id }\n  }\n": typeof types.ConsoleRunTestSuiteDocument,
    "\n    subscription ConsoleTestRunUpdated($id: Int!) {\n      testRunUpdated(id: $id, includeCurrent: true) { ...ConsoleTestRunFields }\n    }\n  ": typeof types.ConsoleTestRunUpdatedDocument,
    "\n    query ConsoleCompareTestRuns($a: Int!, $b: Int!) {\n      compareTestRuns(a: $a, b: $b) {\n        unchanged\n        before { id status passed failed errored total createdAt }\n        after { id status passed failed errored total createdAt }\n        changed {\n          scenarioId scenarioName\n          before { ...ConsoleTestResultFields }\n          after { ...ConsoleTestResultFields }\n        }\n      }\n    }\n  ": typeof types.ConsoleCompareTestRunsDocument,
    "\n  query ConsoleWebhookDeliveries($page: Int, $filter: WebhookDeliveryFilter) {\n    webhookDeliveries(page: $page, perPage: 20, filter: $filter) {\n      items { id webhookId type url status attempts nextAttemptAt lastStatusCode lastError deliveredAt createdAt }\n      pageInfo { currentPage lastPage total }\n    }\n  }\n": typeof types.ConsoleWebhookDeliveriesDocument,
    "\n  mutation ConsoleRedeliverWebhook($id: Int!) {\n    redeliverWebhook(id: $id) { id status attempts }\n  }\n": typeof types.ConsoleRedeliverWebhookDocument,
    "\n  mutation ConsoleSendTestWebhook($url: String) {\n    sendTestWebhook(url: $url) { id status }\n  }\n": typeof types.ConsoleSendTestWebhookDocument,
    "\n  query ConsoleWebhookSigningSecrets {\n    webhookSigningSecrets { id createdAt expiresAt }\n  }\n": typeof types.ConsoleWebhookSigningSecretsDocument,
    "\n  mutation ConsoleRotateWebhookSecret($overlapSeconds: Int) {\n    rotateWebhookSecret(overlapSeconds: $overlapSeconds) { secret createdAt previousExpiresAt }\n  }\n": typeof types.ConsoleRotateWebhookSecretDocument,
};
const documents: Documents = {
    "\n  mutation ConsoleLogin($input: LoginInput!) {\n    login(input: $input) {\n      token\n      expiresAt\n      viewer { id email name account { id name balance timezone isOperator } }\n    }\n  }\n": types.ConsoleLoginDocument,
    "\n  mutation ConsoleLogout {\n    logout { revoked }\n  }\n": types.ConsoleLogoutDocument,
    "\n  query ConsoleViewer {\n    viewer { id email name account { id name balance timezone isOperator } }\n  }\n": types.ConsoleViewerDocument,
    "\n  query ConsoleViewerRole {\n    viewer { id role }\n  }\n": types.ConsoleViewerRoleDocument,
    "\n  query ConsoleChatModels {\n    aiModels(kind: llm) { id available }\n  }\n": types.ConsoleChatModelsDocument,
    "\n  query ConsoleCalendarConnections {\n    calendarConnections { id name provider url readUrls username eventTypeId status lastError checkedAt createdAt }\n  }\n": types.ConsoleCalendarConnectionsDocument,
    "\n  query ConsoleUnreadConversationCount {\n    unreadConversationCount\n  }\n": types.ConsoleUnreadConversationCountDocument,
    "\n  subscription ConsoleConversationActivity {\n    conversationActivity {\n      kind\n      conversation { id assistantId channel aiDisabled waitingForHuman customerIdentifier origin updatedAt unread lastMessageAt status assignee { id name } lastMessage { id role content } visitor { pageUrl browser country } }\n      message { id role content createdAt }\n      note { id conversationId content createdAt author { id name } }\n    }\n  }\n": types.ConsoleConversationActivityDocument,
    "\n  query ConsoleAvailableSlots($appointmentTypeId: Int!, $from: DateTime!, $to: DateTime!) {\n    availableSlots(appointmentTypeId: $appointmentTypeId, from: $from, to: $to) { start end }\n  }\n": types.ConsoleAvailableSlotsDocument,
    "\n  query ConsoleAssistantNames {\n    assistants(perPage: 100) { items { id name } }\n  }\n": types.ConsoleAssistantNamesDocument,
    "\n  mutation ConsoleCreateTestScenarioFromCall($callId: Int!) {\n    createTestScenarioFromCall(callId: $callId) { id assistantId }\n  }\n": types.ConsoleCreateTestScenarioFromCallDocument,
    "\n  mutation ConsoleCreateTestScenarioFromConversation($conversationId: String!) {\n    createTestScenarioFromConversation(conversationId: $conversationId) { id assistantId }\n  }\n": types.ConsoleCreateTestScenarioFromConversationDocument,
    "\n  query ConsolePhoneNumbers {\n    phoneNumbers { id phoneNumber label kind typeLabel region smsCapable subscriptionStatus releaseRequestedAt }\n  }\n": types.ConsolePhoneNumbersDocument,
    "\n  mutation ConsoleAddPhoneNumber($input: AddPhoneNumberInput!) {\n    addPhoneNumber(input: $input) { id }\n  }\n": types.ConsoleAddPhoneNumberDocument,
    "\n  mutation ConsoleReleasePhoneNumber($id: Int!) {\n    releasePhoneNumber(id: $id) { phoneNumber { id } }\n  }\n": types.ConsoleReleasePhoneNumberDocument,
    "\n  query ConsoleApiKeys {\n    apiKeys { id name createdAt lastUsedAt }\n  }\n": types.ConsoleApiKeysDocument,
    "\n  mutation ConsoleCreateApiKey($name: String!) {\n    createApiKey(input: { name: $name }) { token apiKey { id } }\n  }\n": types.ConsoleCreateApiKeyDocument,
    "\n  mutation ConsoleDeleteApiKey($id: Int!) {\n    deleteApiKey(id: $id) { deletedId }\n  }\n": types.ConsoleDeleteApiKeyDocument,
    "\n  query ConsolePlatformAccounts($page: Int, $search: String) {\n    platformAccounts(page: $page, perPage: 25, search: $search) {\n      items { id name ownerEmail balance suspended isOperator createdAt }\n      pageInfo { currentPage lastPage total }\n    }\n  }\n": types.ConsolePlatformAccountsDocument,
    "\n  mutation ConsoleCreatePlatformAccount($input: CreatePlatformAccountInput!) {\n    createPlatformAccount(input: $input) { id }\n  }\n": types.ConsoleCreatePlatformAccountDocument,
    "\n  mutation ConsoleCreditAccount($accountId: Int!, $amount: Decimal!, $note: String) {\n    creditAccount(accountId: $accountId, amount: $amount, note: $note) { id balance }\n  }\n": types.ConsoleCreditAccountDocument,
    "\n  mutation ConsoleSuspendAccount($accountId: Int!, $suspended: Boolean!) {\n    suspendAccount(accountId: $accountId, suspended: $suspended) { id suspended }\n  }\n": types.ConsoleSuspendAccountDocument,
    "\n  fragment ConsoleAppointmentFields on Appointment {\n    id status startsAt endsAt timezone customerName customerPhone customerEmail notes\n    appointmentTypeId appointmentTypeName connectionId provider assistantId callId conversationId createdAt updatedAt\n    cancelledAt\n  }\n": types.ConsoleAppointmentFieldsFragmentDoc,
    "\n    query ConsoleAppointments($page: Int, $filter: AppointmentFilter) {\n      appointments(page: $page, perPage: 20, filter: $filter) {\n        items { ...ConsoleAppointmentFields }\n        pageInfo { currentPage lastPage total }\n      }\n    }\n  ": types.ConsoleAppointmentsDocument,
    "\n    mutation ConsoleCancelAppointment($id: Int!) {\n      cancelAppointment(id: $id) { ...ConsoleAppointmentFields }\n    }\n  ": types.ConsoleCancelAppointmentDocument,
    "\n    mutation ConsoleRescheduleAppointment($id: Int!, $startsAt: DateTime!) {\n      rescheduleAppointment(id: $id, startsAt: $startsAt) { ...ConsoleAppointmentFields }\n    }\n  ": types.ConsoleRescheduleAppointmentDocument,
    "\n  query ConsoleAssistant($id: Int!) {\n    assistant(id: $id) {\n      id uuid name type mode status language timezone\n      systemPrompt initialMessage llmTemperature\n      voiceId speechSpeed voiceStability voiceSimilarity ambientSound ambientSoundVolume enableNoiseCancellation\n      maxDuration maxSilenceDuration waitForCustomer allowInterruptions interruptSensitivity minInterruptWords\n      endpointType endpointSensitivity reengagementInterval endCallOnVoicemail record phoneNumberId\n      knowledgebaseId knowledgebaseMode tools variables\n      postCallEvaluation postCallSchema\n      webhookUrl isWebhookActive sendWebhookOnlyOnCompleted includeRecordingInWebhook inboundWebhookUrl\n      widgetSettings allowedOrigins\n      redactPii redactRecordings\n    }\n  }\n": types.ConsoleAssistantDocument,
    "\n  query ConsoleAssistantChoices {\n    voices { id name gender supportedModes }\n    knowledgebases { id name }\n    phoneNumbers { id phoneNumber label }\n  }\n": types.ConsoleAssistantChoicesDocument,
    "\n  mutation ConsoleCreateAssistant($input: CreateAssistantInput!) {\n    createAssistant(input: $input) { id webhookSigningSecret }\n  }\n": types.ConsoleCreateAssistantDocument,
    "\n  mutation ConsoleUpdateAssistant($id: Int!, $input: UpdateAssistantInput!) {\n    updateAssistant(id: $id, input: $input) { id updatedAt webhookSigningSecret }\n  }\n": types.ConsoleUpdateAssistantDocument,
    "\n  mutation ConsoleDeleteAssistant($id: Int!) {\n    deleteAssistant(id: $id) { deletedId }\n  }\n": types.ConsoleDeleteAssistantDocument,
    "\n  mutation ConsoleStartTest($assistantId: Int!) {\n    startTestConversation(input: { assistantId: $assistantId }) {\n      id\n      messages { id role content }\n    }\n  }\n": types.ConsoleStartTestDocument,
    "\n  mutation ConsoleSendTest($conversationId: ID!, $message: String!) {\n    sendTestMessage(input: { conversationId: $conversationId, message: $message }) { reply }\n  }\n": types.ConsoleSendTestDocument,
    "\n  query ConsoleAppointmentTypes {\n    appointmentTypes { id connectionId name durationMinutes timezone }\n  }\n": types.ConsoleAppointmentTypesDocument,
    "\n  query ConsoleAssistantCalendar($id: Int!) {\n    assistant(id: $id) { id appointmentTypeIds }\n  }\n": types.ConsoleAssistantCalendarDocument,
    "\n  query ConsoleAssistantDefaults {\n    assistantDefaults {\n      type mode status timezone systemPrompt initialMessage llmTemperature\n      speechSpeed voiceStability voiceSimilarity ambientSound ambientSoundVolume enableNoiseCancellation\n      maxDuration maxSilenceDuration waitForCustomer allowInterruptions interruptSensitivity minInterruptWords\n      endpointType endpointSensitivity reengagementInterval endCallOnVoicemail record\n      knowledgebaseMode tools variables postCallEvaluation postCallSchema\n      isWebhookActive sendWebhookOnlyOnCompleted includeRecordingInWebhook widgetSettings allowedOrigins\n    }\n  }\n": types.ConsoleAssistantDefaultsDocument,
    "\n  query ConsoleAssistants($page: Int, $search: String) {\n    assistants(page: $page, perPage: 20, search: $search) {\n      items { id uuid name type mode status updatedAt phoneNumber { phoneNumber } }\n      pageInfo { currentPage lastPage total }\n    }\n  }\n": types.ConsoleAssistantsDocument,
    "\n  query ConsoleCalendarsScreen {\n    calendarConnections { id name provider url readUrls username eventTypeId status lastError checkedAt createdAt }\n    appointmentTypes {\n      id connectionId name durationMinutes bufferBeforeMinutes bufferAfterMinutes minimumNoticeMinutes\n      horizonDays timezone slotGranularityMinutes maxPerDay createdAt\n      businessHours {\n        mon { start end } tue { start end } wed { start end } thu { start end }\n        fri { start end } sat { start end } sun { start end }\n      }\n    }\n  }\n": types.ConsoleCalendarsScreenDocument,
    "\n  mutation ConsoleCreateCalendarConnection($input: CreateCalendarConnectionInput!) {\n    createCalendarConnection(input: $input) { id status }\n  }\n": types.ConsoleCreateCalendarConnectionDocument,
    "\n  mutation ConsoleUpdateCalendarConnection($id: Int!, $input: UpdateCalendarConnectionInput!) {\n    updateCalendarConnection(id: $id, input: $input) { id status lastError }\n  }\n": types.ConsoleUpdateCalendarConnectionDocument,
    "\n  mutation ConsoleDeleteCalendarConnection($id: Int!) {\n    deleteCalendarConnection(id: $id)\n  }\n": types.ConsoleDeleteCalendarConnectionDocument,
    "\n  mutation ConsoleCreateAppointmentType($input: CreateAppointmentTypeInput!) {\n    createAppointmentType(input: $input) { id }\n  }\n": types.ConsoleCreateAppointmentTypeDocument,
    "\n  mutation ConsoleDeleteAppointmentType($id: Int!) {\n    deleteAppointmentType(id: $id)\n  }\n": types.ConsoleDeleteAppointmentTypeDocument,
    "\n  mutation ConsoleStartCalendarOAuth($provider: CalendarOAuthProvider!, $name: String!, $connectionId: Int) {\n    startCalendarOAuth(provider: $provider, name: $name, connectionId: $connectionId) { authorizationUrl }\n  }\n": types.ConsoleStartCalendarOAuthDocument,
    "\n  query ConsoleCalls($page: Int, $filter: CallFilter) {\n    calls(page: $page, perPage: 20, filter: $filter) {\n      items {\n        id type status assistantName clientPhoneNumber assistantPhoneNumber campaignName duration totalCost createdAt\n      }\n      pageInfo { currentPage lastPage total }\n    }\n  }\n": types.ConsoleCallsDocument,
    "\n  query ConsoleCall($id: Int!) {\n    call(id: $id) {\n      id type status assistantName clientPhoneNumber assistantPhoneNumber campaignName duration totalCost\n      createdAt startedAt endedAt endReason answeredBy transcript evaluation webhookResponse recordingUrl recordingStatus variables\n      assistantId activeAssistantId handoffCount\n      turns {\n        id speaker text heardText interrupted startMs endMs\n        speechEndedAt transcriptAt firstTokenAt firstAudioAt playedAt\n        functionCalls { name arguments result error durationMs }\n      }\n      latency { turns firstAudioP50Ms firstAudioP95Ms }\n    }\n  }\n": types.ConsoleCallDocument,
    "\n  query ConsoleCallsScreenChoices {\n    assistants(perPage: 100) { items { id name } }\n    campaigns(perPage: 100) { items { id name } }\n    phoneNumbers { id phoneNumber label }\n  }\n": types.ConsoleCallsScreenChoicesDocument,
    "\n  mutation ConsoleStartTestPhoneCall($input: StartCallInput!) {\n    startCall(input: $input) { id }\n  }\n": types.ConsoleStartTestPhoneCallDocument,
    "\n  mutation ConsoleSimulateInboundCall($input: SimulateInboundCallInput!) {\n    simulateInboundCall(input: $input) { id status endReason }\n  }\n": types.ConsoleSimulateInboundCallDocument,
    "\n  mutation ConsoleTakeOverCall($callId: Int!, $phoneNumber: String!) {\n    takeOverCall(callId: $callId, phoneNumber: $phoneNumber) { id clientPhoneNumber }\n  }\n": types.ConsoleTakeOverCallDocument,
    "\n  subscription ConsoleCallStatus($callId: Int, $includeCurrent: Boolean) {\n    callStatusChanged(callId: $callId, includeCurrent: $includeCurrent) {\n      callId\n      status\n      call { id type status assistantName clientPhoneNumber assistantPhoneNumber campaignName duration totalCost createdAt }\n    }\n  }\n": types.ConsoleCallStatusDocument,
    "\n  subscription ConsoleCallTranscript($callId: Int!) {\n    callTranscript(callId: $callId) { id speaker text }\n  }\n": types.ConsoleCallTranscriptDocument,
    "\n  query ConsoleCampaigns {\n    campaigns(perPage: 100) {\n      items {\n        id name status maxConcurrentCalls assistantId\n        callingWindow { start end timezone }\n        retry { maxRetries intervalMinutes }\n        phoneNumbers { id }\n        progress { callsRunning withinCallingWindow leads { total completed processing scheduled rescheduled reachedMaxRetries blacklisted created } }\n      }\n    }\n  }\n": types.ConsoleCampaignsDocument,
    "\n  query ConsoleCampaignChoices {\n    assistants(perPage: 100, type: outbound) { items { id name } }\n    phoneNumbers { id phoneNumber label }\n  }\n": types.ConsoleCampaignChoicesDocument,
    "\n  mutation ConsoleCreateCampaign($input: CreateCampaignInput!) {\n    createCampaign(input: $input) { id }\n  }\n": types.ConsoleCreateCampaignDocument,
    "\n  mutation ConsoleUpdateCampaign($id: Int!, $input: UpdateCampaignInput!) {\n    updateCampaign(id: $id, input: $input) { id status }\n  }\n": types.ConsoleUpdateCampaignDocument,
    "\n  mutation ConsoleDeleteCampaign($id: Int!) {\n    deleteCampaign(id: $id) { deletedId }\n  }\n": types.ConsoleDeleteCampaignDocument,
    "\n  mutation ConsoleDeleteLead($id: Int!) {\n    deleteLead(id: $id) { deletedId }\n  }\n": types.ConsoleDeleteLeadDocument,
    "\n  subscription ConsoleCampaignProgress($campaignId: Int!) {\n    campaignProgress(campaignId: $campaignId) {\n      campaignId status callsRunning withinCallingWindow\n      leads { total completed processing scheduled rescheduled reachedMaxRetries blacklisted created }\n    }\n  }\n": types.ConsoleCampaignProgressDocument,
    "\n  query ConsoleLeads($campaignId: Int, $page: Int) {\n    leads(campaignId: $campaignId, page: $page, perPage: 20) {\n      items { id phoneNumber status attempts nextAttemptAt variables }\n      pageInfo { currentPage lastPage total }\n    }\n  }\n": types.ConsoleLeadsDocument,
    "\n  mutation ConsoleCreateLead($input: CreateLeadInput!) {\n    createLead(input: $input) { id }\n  }\n": types.ConsoleCreateLeadDocument,
    "\n  mutation ConsoleExportCustomerData($input: CustomerDataInput!) {\n    exportCustomerData(input: $input) { id kind state identifierKind stepsDone stepsTotal counts error downloadUrl expiresAt }\n  }\n": types.ConsoleExportCustomerDataDocument,
    "\n  mutation ConsoleEraseCustomerData($input: CustomerDataInput!) {\n    eraseCustomerData(input: $input) { id kind state identifierKind stepsDone stepsTotal counts error downloadUrl expiresAt }\n  }\n": types.ConsoleEraseCustomerDataDocument,
    "\n  query ConsoleCustomerDataJob($id: Int!) {\n    customerDataJob(id: $id) { id kind state identifierKind stepsDone stepsTotal counts error downloadUrl expiresAt }\n  }\n": types.ConsoleCustomerDataJobDocument,
    "\n  fragment ConsoleErasedEventLeftFields on ErasedEventLeft {\n    id appointmentId provider externalId startsAt reason failure retriedByJobId handledAt handledBy\n  }\n": types.ConsoleErasedEventLeftFieldsFragmentDoc,
    "\n    query ConsoleCustomerDataEventsLeft($id: Int!) {\n      customerDataJob(id: $id) { id externalEventsLeftDetails { ...ConsoleErasedEventLeftFields } }\n    }\n  ": types.ConsoleCustomerDataEventsLeftDocument,
    "\n    mutation ConsoleMarkErasedEventLeftHandled($id: Int!) {\n      markErasedEventLeftHandled(id: $id) { ...ConsoleErasedEventLeftFields }\n    }\n  ": types.ConsoleMarkErasedEventLeftHandledDocument,
    "\n  query ConsoleDataRetention {\n    dataRetention { transcriptDays recordingDays messageDays callTurnDays webhookLogDays textDays auditLogDays }\n  }\n": types.ConsoleDataRetentionDocument,
    "\n  mutation ConsoleSetDataRetention($input: DataRetentionInput!) {\n    setDataRetention(input: $input) { transcriptDays recordingDays messageDays callTurnDays webhookLogDays textDays auditLogDays }\n  }\n": types.ConsoleSetDataRetentionDocument,
    "\n  query ConsoleAuditLog($after: String) {\n    auditLog(first: 25, after: $after) {\n      entries { id action actorKind actorId targetType targetId details ip at }\n      nextCursor\n    }\n  }\n": types.ConsoleAuditLogDocument,
    "\n  query ConsoleAuditLogExport($after: String) {\n    auditLog(first: 100, after: $after) {\n      entries { id action actorKind actorId userId targetType targetId details ip at }\n      nextCursor\n    }\n  }\n": types.ConsoleAuditLogExportDocument,
    "\n  query ConsoleConversations(\n    $page: Int, $channels: [ConversationChannel!], $unreadOnly: Boolean, $status: ConversationStatus,\n    $waitingForHuman: Boolean, $assignedToMe: Boolean, $unassigned: Boolean, $assistantId: Int, $search: String\n  ) {\n    conversations(\n      page: $page, perPage: 30, channels: $channels, unreadOnly: $unreadOnly, status: $status,\n      waitingForHuman: $waitingForHuman, assignedToMe: $assignedToMe, unassigned: $unassigned,\n      assistantId: $assistantId, search: $search\n    ) {\n      items { id assistantId channel aiDisabled waitingForHuman customerIdentifier origin updatedAt unread lastMessageAt status assignee { id name } lastMessage { id role content } }\n      pageInfo { currentPage lastPage total }\n    }\n  }\n": types.ConsoleConversationsDocument,
    "\n  query ConsoleWaitingForHuman {\n    conversations(waitingForHuman: true, perPage: 1) { pageInfo { total } }\n  }\n": types.ConsoleWaitingForHumanDocument,
    "\n  query ConsoleConversation($id: ID!) {\n    conversation(id: $id) {\n      id assistantId channel aiDisabled waitingForHuman customerIdentifier origin updatedAt status resolvedAt\n      assignee { id name }\n      visitor { pageUrl browser country }\n      messages { id role content createdAt visitor { pageUrl browser country } }\n      notes { id content createdAt author { id name } }\n    }\n  }\n": types.ConsoleConversationDocument,
    "\n  subscription ConsoleConversationMessage($conversationId: ID!) {\n    conversationMessageAdded(conversationId: $conversationId) { id role content createdAt visitor { pageUrl browser country } }\n  }\n": types.ConsoleConversationMessageDocument,
    "\n  mutation ConsoleTakeOver($id: ID!) {\n    takeOverConversation(id: $id) { id aiDisabled waitingForHuman }\n  }\n": types.ConsoleTakeOverDocument,
    "\n  mutation ConsoleHandBack($id: ID!) {\n    handBackConversation(id: $id) { id aiDisabled waitingForHuman }\n  }\n": types.ConsoleHandBackDocument,
    "\n  mutation ConsoleSendOperatorMessage($conversationId: ID!, $content: String!) {\n    sendOperatorMessage(input: { conversationId: $conversationId, content: $content }) { id role content createdAt }\n  }\n": types.ConsoleSendOperatorMessageDocument,
    "\n  mutation ConsoleMarkRead($id: ID!) {\n    markConversationRead(id: $id) { id unread }\n  }\n": types.ConsoleMarkReadDocument,
    "\n  query ConsoleInboxViewer {\n    viewer { id name }\n    members { id name }\n    assistants(perPage: 100) { items { id name } }\n  }\n": types.ConsoleInboxViewerDocument,
    "\n  mutation ConsoleResolveConversation($id: ID!) {\n    resolveConversation(id: $id) { id status resolvedAt }\n  }\n": types.ConsoleResolveConversationDocument,
    "\n  mutation ConsoleReopenConversation($id: ID!) {\n    reopenConversation(id: $id) { id status resolvedAt }\n  }\n": types.ConsoleReopenConversationDocument,
    "\n  mutation ConsoleAssignConversation($id: ID!, $userId: Int) {\n    assignConversation(id: $id, userId: $userId) { id assignee { id name } }\n  }\n": types.ConsoleAssignConversationDocument,
    "\n  mutation ConsoleAddConversationNote($conversationId: ID!, $content: String!) {\n    addConversationNote(input: { conversationId: $conversationId, content: $content }) {\n      id conversationId content createdAt author { id name }\n    }\n  }\n": types.ConsoleAddConversationNoteDocument,
    "\n  query ConsoleInsightsSetup {\n    viewer { id account { id timezone } }\n    assistants(perPage: 100) { items { id name } }\n  }\n": types.ConsoleInsightsSetupDocument,
    "\n  query ConsoleInsights($period: InsightsPeriod!, $assistantId: Int) {\n    insights(period: $period, assistantId: $assistantId) {\n      from to timezone bucket calls finishedCalls answeredCalls answerRate conversations minutes cost\n      evaluatedCalls judgedCalls successfulCalls successRate measuredTurns averageTurnLatencyMs p95TurnLatencyMs\n      transfers bookings\n      endedReasons { status reason calls }\n      series { start calls answeredCalls conversations minutes cost bookings }\n    }\n  }\n": types.ConsoleInsightsDocument,
    "\n  query ConsoleKnowledgebases {\n    knowledgebases { id name description status documentsCount assistantsCount }\n  }\n": types.ConsoleKnowledgebasesDocument,
    "\n  mutation ConsoleCreateKnowledgebase($input: KnowledgebaseInput!) {\n    createKnowledgebase(input: $input) { id }\n  }\n": types.ConsoleCreateKnowledgebaseDocument,
    "\n  mutation ConsoleDeleteKnowledgebase($id: Int!) {\n    deleteKnowledgebase(id: $id) { deletedId }\n  }\n": types.ConsoleDeleteKnowledgebaseDocument,
    "\n  mutation ConsoleUpdateKnowledgebase($id: Int!, $input: KnowledgebaseInput!) {\n    updateKnowledgebase(id: $id, input: $input) { id name description chunkMaxTokens chunkOverlapTokens }\n  }\n": types.ConsoleUpdateKnowledgebaseDocument,
    "\n  query ConsoleKnowledgebase($id: Int!) {\n    knowledgebase(id: $id) {\n      id name description status assistantsCount chunkMaxTokens chunkOverlapTokens\n      documents {\n        id name type status stage pagesDone pagesTotal chunkCount failureReason fileName url sizeBytes createdAt\n      }\n    }\n  }\n": types.ConsoleKnowledgebaseDocument,
    "\n  mutation ConsoleCreateDocument($knowledgebaseId: Int!, $input: CreateDocumentInput!) {\n    createDocument(knowledgebaseId: $knowledgebaseId, input: $input) { id }\n  }\n": types.ConsoleCreateDocumentDocument,
    "\n  mutation ConsoleDeleteDocument($id: Int!) {\n    deleteDocument(id: $id) { deletedId }\n  }\n": types.ConsoleDeleteDocumentDocument,
    "\n  subscription ConsoleKnowledgebaseStatus($id: Int!) {\n    knowledgebaseStatus(id: $id) {\n      status\n      document { documentId status stage pagesDone pagesTotal chunkCount failureReason }\n    }\n  }\n": types.ConsoleKnowledgebaseStatusDocument,
    "\n  query ConsoleSearchKnowledgebase($id: Int!, $query: String!) {\n    searchKnowledgebase(id: $id, query: $query, limit: 8) { chunkId content documentName relevance source }\n  }\n": types.ConsoleSearchKnowledgebaseDocument,
    "\n  mutation ConsoleReprocessDocument($id: Int!) {\n    reprocessDocument(id: $id) { id status stage failureReason }\n  }\n": types.ConsoleReprocessDocumentDocument,
    "\n  query ConsoleDocumentPassages($id: Int!, $offset: Int!, $limit: Int!) {\n    document(id: $id) { id name chunkCount passages(offset: $offset, limit: $limit) { id ordinal content tokenCount source } }\n  }\n": types.ConsoleDocumentPassagesDocument,
    "\n  subscription ConsoleBalance {\n    balanceChanged { id balance }\n  }\n": types.ConsoleBalanceDocument,
    "\n  query ConsoleLedger($accountId: Int, $page: Int) {\n    ledgerEntries(accountId: $accountId, page: $page, perPage: 25) {\n      items { id kind amount balanceAfter description pending callId createdAt }\n      pageInfo { currentPage lastPage total }\n    }\n  }\n": types.ConsoleLedgerDocument,
    "\n  query ConsoleTeam {\n    viewer { id role }\n    members { id name email role createdAt }\n    invitations { id email role expiresAt createdAt emailStatus emailError emailSentAt }\n    invitationEmailEnabled\n  }\n": types.ConsoleTeamDocument,
    "\n  mutation ConsoleInviteMember($input: InviteMemberInput!) {\n    inviteMember(input: $input) { token path invitation { id emailStatus } }\n  }\n": types.ConsoleInviteMemberDocument,
    "\n  mutation ConsoleResendInvitationEmail($id: Int!) {\n    resendInvitationEmail(id: $id) { path invitation { id emailStatus } }\n  }\n": types.ConsoleResendInvitationEmailDocument,
    "\n  mutation ConsoleRevokeInvitation($id: Int!) {\n    revokeInvitation(id: $id)\n  }\n": types.ConsoleRevokeInvitationDocument,
    "\n  mutation ConsoleChangeMemberRole($input: ChangeMemberRoleInput!) {\n    changeMemberRole(input: $input) { id role }\n  }\n": types.ConsoleChangeMemberRoleDocument,
    "\n  mutation ConsoleRemoveMember($userId: Int!) {\n    removeMember(userId: $userId)\n  }\n": types.ConsoleRemoveMemberDocument,
    "\n  mutation ConsoleResetMemberPassword($userId: Int!) {\n    resetMemberPassword(userId: $userId) { path expiresAt emailStatus }\n  }\n": types.ConsoleResetMemberPasswordDocument,
    "\n  query ConsoleInvitationLink($token: String!) {\n    invitationLink(token: $token) { kind email role accountName expiresAt }\n  }\n": types.ConsoleInvitationLinkDocument,
    "\n  mutation ConsoleAcceptInvitation($input: AcceptInvitationInput!) {\n    acceptInvitation(input: $input) {\n      token\n      expiresAt\n      viewer { id email role account { id isOperator } }\n    }\n  }\n": types.ConsoleAcceptInvitationDocument,
    "\n  fragment ConsoleTestScenarioFields on TestScenario {\n    id assistantId name channel script persona goal variables turnLimit criteria checks toolResults\n    useRealTools expectedReplies sourceCallId sourceConversationId updatedAt\n  }\n": types.ConsoleTestScenarioFieldsFragmentDoc,
    "\n  fragment ConsoleTestResultFields on TestScenarioResult {\n    id scenarioId scenarioName position status endedBy turnLatencies cost error functionCalls callId\n    transcript { role content latencyMs }\n    checks { kind description passed detail }\n    judge { criterion passed reasoning }\n    divergences { turn expected actual }\n  }\n": types.ConsoleTestResultFieldsFragmentDoc,
    "\n    fragment ConsoleTestRunFields on TestRun {\n      id suiteId status concurrency total done passed failed errored cost error createdAt startedAt finishedAt\n      results { ...ConsoleTestResultFields }\n    }\n  ": types.ConsoleTestRunFieldsFragmentDoc,
    "\n    query ConsoleTestsScreen($assistantId: Int!) {\n      assistant(id: $assistantId) { id name }\n      testScenarios(assistantId: $assistantId) { ...ConsoleTestScenarioFields }\n      testSuites { id name scenarioIds updatedAt }\n    }\n  ": types.ConsoleTestsScreenDocument,
    "\n    query ConsoleTestScenario($id: Int!) {\n      testScenario(id: $id) { ...ConsoleTestScenarioFields }\n    }\n  ": types.ConsoleTestScenarioDocument,
    "\n  mutation ConsoleCreateTestScenario($input: CreateTestScenarioInput!) {\n    createTestScenario(input: $input) { id }\n  }\n": types.ConsoleCreateTestScenarioDocument,
    "\n  mutation ConsoleUpdateTestScenario($id: Int!, $input: UpdateTestScenarioInput!) {\n    updateTestScenario(id: $id, input: $input) { id }\n  }\n": types.ConsoleUpdateTestScenarioDocument,
    "\n  mutation ConsoleDeleteTestScenario($id: Int!) {\n    deleteTestScenario(id: $id)\n  }\n": types.ConsoleDeleteTestScenarioDocument,
    "\n  mutation ConsoleCreateTestSuite($input: TestSuiteInput!) {\n    createTestSuite(input: $input) { id }\n  }\n": types.ConsoleCreateTestSuiteDocument,
    "\n  mutation ConsoleUpdateTestSuite($id: Int!, $input: TestSuiteInput!) {\n    updateTestSuite(id: $id, input: $input) { id }\n  }\n": types.ConsoleUpdateTestSuiteDocument,
    "\n  mutation ConsoleDeleteTestSuite($id: Int!) {\n    deleteTestSuite(id: $id)\n  }\n": types.ConsoleDeleteTestSuiteDocument,
    "\n  query ConsoleTestSuiteEstimate($suiteId: Int!) {\n    testSuiteEstimate(suiteId: $suiteId) { scenarios replies modelRequests price }\n  }\n": types.ConsoleTestSuiteEstimateDocument,
    "\n  query ConsoleTestRuns($suiteId: Int!) {\n    testRuns(suiteId: $suiteId, limit: 20) { id status total done passed failed errored cost createdAt }\n  }\n": types.ConsoleTestRunsDocument,
    "\n  mutation ConsoleRunTestSuite($suiteId: Int!, $concurrency: Int) {\n    runTestSuite(suiteId: $suiteId, concurrency: $concurrency) { id }\n  }\n": types.ConsoleRunTestSuiteDocument,
    "\n    subscription ConsoleTestRunUpdated($id: Int!) {\n      testRunUpdated(id: $id, includeCurrent: true) { ...ConsoleTestRunFields }\n    }\n  ": types.ConsoleTestRunUpdatedDocument,
    "\n    query ConsoleCompareTestRuns($a: Int!, $b: Int!) {\n      compareTestRuns(a: $a, b: $b) {\n        unchanged\n        before { id status passed failed errored total createdAt }\n        after { id status passed failed errored total createdAt }\n        changed {\n          scenarioId scenarioName\n          before { ...ConsoleTestResultFields }\n          after { ...ConsoleTestResultFields }\n        }\n      }\n    }\n  ": types.ConsoleCompareTestRunsDocument,
    "\n  query ConsoleWebhookDeliveries($page: Int, $filter: WebhookDeliveryFilter) {\n    webhookDeliveries(page: $page, perPage: 20, filter: $filter) {\n      items { id webhookId type url status attempts nextAttemptAt lastStatusCode lastError deliveredAt createdAt }\n      pageInfo { currentPage lastPage total }\n    }\n  }\n": types.ConsoleWebhookDeliveriesDocument,
    "\n  mutation ConsoleRedeliverWebhook($id: Int!) {\n    redeliverWebhook(id: $id) { id status attempts }\n  }\n": types.ConsoleRedeliverWebhookDocument,
    "\n  mutation ConsoleSendTestWebhook($url: String) {\n    sendTestWebhook(url: $url) { id status }\n  }\n": types.ConsoleSendTestWebhookDocument,
    "\n  query ConsoleWebhookSigningSecrets {\n    webhookSigningSecrets { id createdAt expiresAt }\n  }\n": types.ConsoleWebhookSigningSecretsDocument,
    "\n  mutation ConsoleRotateWebhookSecret($overlapSeconds: Int) {\n    rotateWebhookSecret(overlapSeconds: $overlapSeconds) { secret createdAt previousExpiresAt }\n  }\n": types.ConsoleRotateWebhookSecretDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleLogin($input: LoginInput!) {\n    login(input: $input) {\n      token\n      expiresAt\n      viewer { id email name account { id name balance timezone isOperator } }\n    }\n  }\n"): typeof import('./graphql.ts').ConsoleLoginDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleLogout {\n    logout { revoked }\n  }\n"): typeof import('./graphql.ts').ConsoleLogoutDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleViewer {\n    viewer { id email name account { id name balance timezone isOperator } }\n  }\n"): typeof import('./graphql.ts').ConsoleViewerDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleViewerRole {\n    viewer { id role }\n  }\n"): typeof import('./graphql.ts').ConsoleViewerRoleDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleChatModels {\n    aiModels(kind: llm) { id available }\n  }\n"): typeof import('./graphql.ts').ConsoleChatModelsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleCalendarConnections {\n    calendarConnections { id name provider url readUrls username eventTypeId status lastError checkedAt createdAt }\n  }\n"): typeof import('./graphql.ts').ConsoleCalendarConnectionsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleUnreadConversationCount {\n    unreadConversationCount\n  }\n"): typeof import('./graphql.ts').ConsoleUnreadConversationCountDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription ConsoleConversationActivity {\n    conversationActivity {\n      kind\n      conversation { id assistantId channel aiDisabled waitingForHuman customerIdentifier origin updatedAt unread lastMessageAt status assignee { id name } lastMessage { id role content } visitor { pageUrl browser country } }\n      message { id role content createdAt }\n      note { id conversationId content createdAt author { id name } }\n    }\n  }\n"): typeof import('./graphql.ts').ConsoleConversationActivityDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleAvailableSlots($appointmentTypeId: Int!, $from: DateTime!, $to: DateTime!) {\n    availableSlots(appointmentTypeId: $appointmentTypeId, from: $from, to: $to) { start end }\n  }\n"): typeof import('./graphql.ts').ConsoleAvailableSlotsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleAssistantNames {\n    assistants(perPage: 100) { items { id name } }\n  }\n"): typeof import('./graphql.ts').ConsoleAssistantNamesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleCreateTestScenarioFromCall($callId: Int!) {\n    createTestScenarioFromCall(callId: $callId) { id assistantId }\n  }\n"): typeof import('./graphql.ts').ConsoleCreateTestScenarioFromCallDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleCreateTestScenarioFromConversation($conversationId: String!) {\n    createTestScenarioFromConversation(conversationId: $conversationId) { id assistantId }\n  }\n"): typeof import('./graphql.ts').ConsoleCreateTestScenarioFromConversationDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsolePhoneNumbers {\n    phoneNumbers { id phoneNumber label kind typeLabel region smsCapable subscriptionStatus releaseRequestedAt }\n  }\n"): typeof import('./graphql.ts').ConsolePhoneNumbersDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleAddPhoneNumber($input: AddPhoneNumberInput!) {\n    addPhoneNumber(input: $input) { id }\n  }\n"): typeof import('./graphql.ts').ConsoleAddPhoneNumberDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleReleasePhoneNumber($id: Int!) {\n    releasePhoneNumber(id: $id) { phoneNumber { id } }\n  }\n"): typeof import('./graphql.ts').ConsoleReleasePhoneNumberDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleApiKeys {\n    apiKeys { id name createdAt lastUsedAt }\n  }\n"): typeof import('./graphql.ts').ConsoleApiKeysDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleCreateApiKey($name: String!) {\n    createApiKey(input: { name: $name }) { token apiKey { id } }\n  }\n"): typeof import('./graphql.ts').ConsoleCreateApiKeyDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleDeleteApiKey($id: Int!) {\n    deleteApiKey(id: $id) { deletedId }\n  }\n"): typeof import('./graphql.ts').ConsoleDeleteApiKeyDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsolePlatformAccounts($page: Int, $search: String) {\n    platformAccounts(page: $page, perPage: 25, search: $search) {\n      items { id name ownerEmail balance suspended isOperator createdAt }\n      pageInfo { currentPage lastPage total }\n    }\n  }\n"): typeof import('./graphql.ts').ConsolePlatformAccountsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleCreatePlatformAccount($input: CreatePlatformAccountInput!) {\n    createPlatformAccount(input: $input) { id }\n  }\n"): typeof import('./graphql.ts').ConsoleCreatePlatformAccountDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleCreditAccount($accountId: Int!, $amount: Decimal!, $note: String) {\n    creditAccount(accountId: $accountId, amount: $amount, note: $note) { id balance }\n  }\n"): typeof import('./graphql.ts').ConsoleCreditAccountDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleSuspendAccount($accountId: Int!, $suspended: Boolean!) {\n    suspendAccount(accountId: $accountId, suspended: $suspended) { id suspended }\n  }\n"): typeof import('./graphql.ts').ConsoleSuspendAccountDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ConsoleAppointmentFields on Appointment {\n    id status startsAt endsAt timezone customerName customerPhone customerEmail notes\n    appointmentTypeId appointmentTypeName connectionId provider assistantId callId conversationId createdAt updatedAt\n    cancelledAt\n  }\n"): typeof import('./graphql.ts').ConsoleAppointmentFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    query ConsoleAppointments($page: Int, $filter: AppointmentFilter) {\n      appointments(page: $page, perPage: 20, filter: $filter) {\n        items { ...ConsoleAppointmentFields }\n        pageInfo { currentPage lastPage total }\n      }\n    }\n  "): typeof import('./graphql.ts').ConsoleAppointmentsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    mutation ConsoleCancelAppointment($id: Int!) {\n      cancelAppointment(id: $id) { ...ConsoleAppointmentFields }\n    }\n  "): typeof import('./graphql.ts').ConsoleCancelAppointmentDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    mutation ConsoleRescheduleAppointment($id: Int!, $startsAt: DateTime!) {\n      rescheduleAppointment(id: $id, startsAt: $startsAt) { ...ConsoleAppointmentFields }\n    }\n  "): typeof import('./graphql.ts').ConsoleRescheduleAppointmentDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleAssistant($id: Int!) {\n    assistant(id: $id) {\n      id uuid name type mode status language timezone\n      systemPrompt initialMessage llmTemperature\n      voiceId speechSpeed voiceStability voiceSimilarity ambientSound ambientSoundVolume enableNoiseCancellation\n      maxDuration maxSilenceDuration waitForCustomer allowInterruptions interruptSensitivity minInterruptWords\n      endpointType endpointSensitivity reengagementInterval endCallOnVoicemail record phoneNumberId\n      knowledgebaseId knowledgebaseMode tools variables\n      postCallEvaluation postCallSchema\n      webhookUrl isWebhookActive sendWebhookOnlyOnCompleted includeRecordingInWebhook inboundWebhookUrl\n      widgetSettings allowedOrigins\n      redactPii redactRecordings\n    }\n  }\n"): typeof import('./graphql.ts').ConsoleAssistantDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleAssistantChoices {\n    voices { id name gender supportedModes }\n    knowledgebases { id name }\n    phoneNumbers { id phoneNumber label }\n  }\n"): typeof import('./graphql.ts').ConsoleAssistantChoicesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleCreateAssistant($input: CreateAssistantInput!) {\n    createAssistant(input: $input) { id webhookSigningSecret }\n  }\n"): typeof import('./graphql.ts').ConsoleCreateAssistantDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleUpdateAssistant($id: Int!, $input: UpdateAssistantInput!) {\n    updateAssistant(id: $id, input: $input) { id updatedAt webhookSigningSecret }\n  }\n"): typeof import('./graphql.ts').ConsoleUpdateAssistantDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleDeleteAssistant($id: Int!) {\n    deleteAssistant(id: $id) { deletedId }\n  }\n"): typeof import('./graphql.ts').ConsoleDeleteAssistantDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleStartTest($assistantId: Int!) {\n    startTestConversation(input: { assistantId: $assistantId }) {\n      id\n      messages { id role content }\n    }\n  }\n"): typeof import('./graphql.ts').ConsoleStartTestDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleSendTest($conversationId: ID!, $message: String!) {\n    sendTestMessage(input: { conversationId: $conversationId, message: $message }) { reply }\n  }\n"): typeof import('./graphql.ts').ConsoleSendTestDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleAppointmentTypes {\n    appointmentTypes { id connectionId name durationMinutes timezone }\n  }\n"): typeof import('./graphql.ts').ConsoleAppointmentTypesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleAssistantCalendar($id: Int!) {\n    assistant(id: $id) { id appointmentTypeIds }\n  }\n"): typeof import('./graphql.ts').ConsoleAssistantCalendarDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleAssistantDefaults {\n    assistantDefaults {\n      type mode status timezone systemPrompt initialMessage llmTemperature\n      speechSpeed voiceStability voiceSimilarity ambientSound ambientSoundVolume enableNoiseCancellation\n      maxDuration maxSilenceDuration waitForCustomer allowInterruptions interruptSensitivity minInterruptWords\n      endpointType endpointSensitivity reengagementInterval endCallOnVoicemail record\n      knowledgebaseMode tools variables postCallEvaluation postCallSchema\n      isWebhookActive sendWebhookOnlyOnCompleted includeRecordingInWebhook widgetSettings allowedOrigins\n    }\n  }\n"): typeof import('./graphql.ts').ConsoleAssistantDefaultsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleAssistants($page: Int, $search: String) {\n    assistants(page: $page, perPage: 20, search: $search) {\n      items { id uuid name type mode status updatedAt phoneNumber { phoneNumber } }\n      pageInfo { currentPage lastPage total }\n    }\n  }\n"): typeof import('./graphql.ts').ConsoleAssistantsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleCalendarsScreen {\n    calendarConnections { id name provider url readUrls username eventTypeId status lastError checkedAt createdAt }\n    appointmentTypes {\n      id connectionId name durationMinutes bufferBeforeMinutes bufferAfterMinutes minimumNoticeMinutes\n      horizonDays timezone slotGranularityMinutes maxPerDay createdAt\n      businessHours {\n        mon { start end } tue { start end } wed { start end } thu { start end }\n        fri { start end } sat { start end } sun { start end }\n      }\n    }\n  }\n"): typeof import('./graphql.ts').ConsoleCalendarsScreenDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleCreateCalendarConnection($input: CreateCalendarConnectionInput!) {\n    createCalendarConnection(input: $input) { id status }\n  }\n"): typeof import('./graphql.ts').ConsoleCreateCalendarConnectionDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleUpdateCalendarConnection($id: Int!, $input: UpdateCalendarConnectionInput!) {\n    updateCalendarConnection(id: $id, input: $input) { id status lastError }\n  }\n"): typeof import('./graphql.ts').ConsoleUpdateCalendarConnectionDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleDeleteCalendarConnection($id: Int!) {\n    deleteCalendarConnection(id: $id)\n  }\n"): typeof import('./graphql.ts').ConsoleDeleteCalendarConnectionDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleCreateAppointmentType($input: CreateAppointmentTypeInput!) {\n    createAppointmentType(input: $input) { id }\n  }\n"): typeof import('./graphql.ts').ConsoleCreateAppointmentTypeDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleDeleteAppointmentType($id: Int!) {\n    deleteAppointmentType(id: $id)\n  }\n"): typeof import('./graphql.ts').ConsoleDeleteAppointmentTypeDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleStartCalendarOAuth($provider: CalendarOAuthProvider!, $name: String!, $connectionId: Int) {\n    startCalendarOAuth(provider: $provider, name: $name, connectionId: $connectionId) { authorizationUrl }\n  }\n"): typeof import('./graphql.ts').ConsoleStartCalendarOAuthDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleCalls($page: Int, $filter: CallFilter) {\n    calls(page: $page, perPage: 20, filter: $filter) {\n      items {\n        id type status assistantName clientPhoneNumber assistantPhoneNumber campaignName duration totalCost createdAt\n      }\n      pageInfo { currentPage lastPage total }\n    }\n  }\n"): typeof import('./graphql.ts').ConsoleCallsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleCall($id: Int!) {\n    call(id: $id) {\n      id type status assistantName clientPhoneNumber assistantPhoneNumber campaignName duration totalCost\n      createdAt startedAt endedAt endReason answeredBy transcript evaluation webhookResponse recordingUrl recordingStatus variables\n      assistantId activeAssistantId handoffCount\n      turns {\n        id speaker text heardText interrupted startMs endMs\n        speechEndedAt transcriptAt firstTokenAt firstAudioAt playedAt\n        functionCalls { name arguments result error durationMs }\n      }\n      latency { turns firstAudioP50Ms firstAudioP95Ms }\n    }\n  }\n"): typeof import('./graphql.ts').ConsoleCallDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleCallsScreenChoices {\n    assistants(perPage: 100) { items { id name } }\n    campaigns(perPage: 100) { items { id name } }\n    phoneNumbers { id phoneNumber label }\n  }\n"): typeof import('./graphql.ts').ConsoleCallsScreenChoicesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleStartTestPhoneCall($input: StartCallInput!) {\n    startCall(input: $input) { id }\n  }\n"): typeof import('./graphql.ts').ConsoleStartTestPhoneCallDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleSimulateInboundCall($input: SimulateInboundCallInput!) {\n    simulateInboundCall(input: $input) { id status endReason }\n  }\n"): typeof import('./graphql.ts').ConsoleSimulateInboundCallDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleTakeOverCall($callId: Int!, $phoneNumber: String!) {\n    takeOverCall(callId: $callId, phoneNumber: $phoneNumber) { id clientPhoneNumber }\n  }\n"): typeof import('./graphql.ts').ConsoleTakeOverCallDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription ConsoleCallStatus($callId: Int, $includeCurrent: Boolean) {\n    callStatusChanged(callId: $callId, includeCurrent: $includeCurrent) {\n      callId\n      status\n      call { id type status assistantName clientPhoneNumber assistantPhoneNumber campaignName duration totalCost createdAt }\n    }\n  }\n"): typeof import('./graphql.ts').ConsoleCallStatusDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription ConsoleCallTranscript($callId: Int!) {\n    callTranscript(callId: $callId) { id speaker text }\n  }\n"): typeof import('./graphql.ts').ConsoleCallTranscriptDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleCampaigns {\n    campaigns(perPage: 100) {\n      items {\n        id name status maxConcurrentCalls assistantId\n        callingWindow { start end timezone }\n        retry { maxRetries intervalMinutes }\n        phoneNumbers { id }\n        progress { callsRunning withinCallingWindow leads { total completed processing scheduled rescheduled reachedMaxRetries blacklisted created } }\n      }\n    }\n  }\n"): typeof import('./graphql.ts').ConsoleCampaignsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleCampaignChoices {\n    assistants(perPage: 100, type: outbound) { items { id name } }\n    phoneNumbers { id phoneNumber label }\n  }\n"): typeof import('./graphql.ts').ConsoleCampaignChoicesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleCreateCampaign($input: CreateCampaignInput!) {\n    createCampaign(input: $input) { id }\n  }\n"): typeof import('./graphql.ts').ConsoleCreateCampaignDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleUpdateCampaign($id: Int!, $input: UpdateCampaignInput!) {\n    updateCampaign(id: $id, input: $input) { id status }\n  }\n"): typeof import('./graphql.ts').ConsoleUpdateCampaignDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleDeleteCampaign($id: Int!) {\n    deleteCampaign(id: $id) { deletedId }\n  }\n"): typeof import('./graphql.ts').ConsoleDeleteCampaignDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleDeleteLead($id: Int!) {\n    deleteLead(id: $id) { deletedId }\n  }\n"): typeof import('./graphql.ts').ConsoleDeleteLeadDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription ConsoleCampaignProgress($campaignId: Int!) {\n    campaignProgress(campaignId: $campaignId) {\n      campaignId status callsRunning withinCallingWindow\n      leads { total completed processing scheduled rescheduled reachedMaxRetries blacklisted created }\n    }\n  }\n"): typeof import('./graphql.ts').ConsoleCampaignProgressDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleLeads($campaignId: Int, $page: Int) {\n    leads(campaignId: $campaignId, page: $page, perPage: 20) {\n      items { id phoneNumber status attempts nextAttemptAt variables }\n      pageInfo { currentPage lastPage total }\n    }\n  }\n"): typeof import('./graphql.ts').ConsoleLeadsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleCreateLead($input: CreateLeadInput!) {\n    createLead(input: $input) { id }\n  }\n"): typeof import('./graphql.ts').ConsoleCreateLeadDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleExportCustomerData($input: CustomerDataInput!) {\n    exportCustomerData(input: $input) { id kind state identifierKind stepsDone stepsTotal counts error downloadUrl expiresAt }\n  }\n"): typeof import('./graphql.ts').ConsoleExportCustomerDataDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleEraseCustomerData($input: CustomerDataInput!) {\n    eraseCustomerData(input: $input) { id kind state identifierKind stepsDone stepsTotal counts error downloadUrl expiresAt }\n  }\n"): typeof import('./graphql.ts').ConsoleEraseCustomerDataDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleCustomerDataJob($id: Int!) {\n    customerDataJob(id: $id) { id kind state identifierKind stepsDone stepsTotal counts error downloadUrl expiresAt }\n  }\n"): typeof import('./graphql.ts').ConsoleCustomerDataJobDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ConsoleErasedEventLeftFields on ErasedEventLeft {\n    id appointmentId provider externalId startsAt reason failure retriedByJobId handledAt handledBy\n  }\n"): typeof import('./graphql.ts').ConsoleErasedEventLeftFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    query ConsoleCustomerDataEventsLeft($id: Int!) {\n      customerDataJob(id: $id) { id externalEventsLeftDetails { ...ConsoleErasedEventLeftFields } }\n    }\n  "): typeof import('./graphql.ts').ConsoleCustomerDataEventsLeftDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    mutation ConsoleMarkErasedEventLeftHandled($id: Int!) {\n      markErasedEventLeftHandled(id: $id) { ...ConsoleErasedEventLeftFields }\n    }\n  "): typeof import('./graphql.ts').ConsoleMarkErasedEventLeftHandledDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleDataRetention {\n    dataRetention { transcriptDays recordingDays messageDays callTurnDays webhookLogDays textDays auditLogDays }\n  }\n"): typeof import('./graphql.ts').ConsoleDataRetentionDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleSetDataRetention($input: DataRetentionInput!) {\n    setDataRetention(input: $input) { transcriptDays recordingDays messageDays callTurnDays webhookLogDays textDays auditLogDays }\n  }\n"): typeof import('./graphql.ts').ConsoleSetDataRetentionDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleAuditLog($after: String) {\n    auditLog(first: 25, after: $after) {\n      entries { id action actorKind actorId targetType targetId details ip at }\n      nextCursor\n    }\n  }\n"): typeof import('./graphql.ts').ConsoleAuditLogDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleAuditLogExport($after: String) {\n    auditLog(first: 100, after: $after) {\n      entries { id action actorKind actorId userId targetType targetId details ip at }\n      nextCursor\n    }\n  }\n"): typeof import('./graphql.ts').ConsoleAuditLogExportDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleConversations(\n    $page: Int, $channels: [ConversationChannel!], $unreadOnly: Boolean, $status: ConversationStatus,\n    $waitingForHuman: Boolean, $assignedToMe: Boolean, $unassigned: Boolean, $assistantId: Int, $search: String\n  ) {\n    conversations(\n      page: $page, perPage: 30, channels: $channels, unreadOnly: $unreadOnly, status: $status,\n      waitingForHuman: $waitingForHuman, assignedToMe: $assignedToMe, unassigned: $unassigned,\n      assistantId: $assistantId, search: $search\n    ) {\n      items { id assistantId channel aiDisabled waitingForHuman customerIdentifier origin updatedAt unread lastMessageAt status assignee { id name } lastMessage { id role content } }\n      pageInfo { currentPage lastPage total }\n    }\n  }\n"): typeof import('./graphql.ts').ConsoleConversationsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleWaitingForHuman {\n    conversations(waitingForHuman: true, perPage: 1) { pageInfo { total } }\n  }\n"): typeof import('./graphql.ts').ConsoleWaitingForHumanDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleConversation($id: ID!) {\n    conversation(id: $id) {\n      id assistantId channel aiDisabled waitingForHuman customerIdentifier origin updatedAt status resolvedAt\n      assignee { id name }\n      visitor { pageUrl browser country }\n      messages { id role content createdAt visitor { pageUrl browser country } }\n      notes { id content createdAt author { id name } }\n    }\n  }\n"): typeof import('./graphql.ts').ConsoleConversationDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription ConsoleConversationMessage($conversationId: ID!) {\n    conversationMessageAdded(conversationId: $conversationId) { id role content createdAt visitor { pageUrl browser country } }\n  }\n"): typeof import('./graphql.ts').ConsoleConversationMessageDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleTakeOver($id: ID!) {\n    takeOverConversation(id: $id) { id aiDisabled waitingForHuman }\n  }\n"): typeof import('./graphql.ts').ConsoleTakeOverDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleHandBack($id: ID!) {\n    handBackConversation(id: $id) { id aiDisabled waitingForHuman }\n  }\n"): typeof import('./graphql.ts').ConsoleHandBackDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleSendOperatorMessage($conversationId: ID!, $content: String!) {\n    sendOperatorMessage(input: { conversationId: $conversationId, content: $content }) { id role content createdAt }\n  }\n"): typeof import('./graphql.ts').ConsoleSendOperatorMessageDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleMarkRead($id: ID!) {\n    markConversationRead(id: $id) { id unread }\n  }\n"): typeof import('./graphql.ts').ConsoleMarkReadDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleInboxViewer {\n    viewer { id name }\n    members { id name }\n    assistants(perPage: 100) { items { id name } }\n  }\n"): typeof import('./graphql.ts').ConsoleInboxViewerDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleResolveConversation($id: ID!) {\n    resolveConversation(id: $id) { id status resolvedAt }\n  }\n"): typeof import('./graphql.ts').ConsoleResolveConversationDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleReopenConversation($id: ID!) {\n    reopenConversation(id: $id) { id status resolvedAt }\n  }\n"): typeof import('./graphql.ts').ConsoleReopenConversationDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleAssignConversation($id: ID!, $userId: Int) {\n    assignConversation(id: $id, userId: $userId) { id assignee { id name } }\n  }\n"): typeof import('./graphql.ts').ConsoleAssignConversationDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleAddConversationNote($conversationId: ID!, $content: String!) {\n    addConversationNote(input: { conversationId: $conversationId, content: $content }) {\n      id conversationId content createdAt author { id name }\n    }\n  }\n"): typeof import('./graphql.ts').ConsoleAddConversationNoteDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleInsightsSetup {\n    viewer { id account { id timezone } }\n    assistants(perPage: 100) { items { id name } }\n  }\n"): typeof import('./graphql.ts').ConsoleInsightsSetupDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleInsights($period: InsightsPeriod!, $assistantId: Int) {\n    insights(period: $period, assistantId: $assistantId) {\n      from to timezone bucket calls finishedCalls answeredCalls answerRate conversations minutes cost\n      evaluatedCalls judgedCalls successfulCalls successRate measuredTurns averageTurnLatencyMs p95TurnLatencyMs\n      transfers bookings\n      endedReasons { status reason calls }\n      series { start calls answeredCalls conversations minutes cost bookings }\n    }\n  }\n"): typeof import('./graphql.ts').ConsoleInsightsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleKnowledgebases {\n    knowledgebases { id name description status documentsCount assistantsCount }\n  }\n"): typeof import('./graphql.ts').ConsoleKnowledgebasesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleCreateKnowledgebase($input: KnowledgebaseInput!) {\n    createKnowledgebase(input: $input) { id }\n  }\n"): typeof import('./graphql.ts').ConsoleCreateKnowledgebaseDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleDeleteKnowledgebase($id: Int!) {\n    deleteKnowledgebase(id: $id) { deletedId }\n  }\n"): typeof import('./graphql.ts').ConsoleDeleteKnowledgebaseDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleUpdateKnowledgebase($id: Int!, $input: KnowledgebaseInput!) {\n    updateKnowledgebase(id: $id, input: $input) { id name description chunkMaxTokens chunkOverlapTokens }\n  }\n"): typeof import('./graphql.ts').ConsoleUpdateKnowledgebaseDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleKnowledgebase($id: Int!) {\n    knowledgebase(id: $id) {\n      id name description status assistantsCount chunkMaxTokens chunkOverlapTokens\n      documents {\n        id name type status stage pagesDone pagesTotal chunkCount failureReason fileName url sizeBytes createdAt\n      }\n    }\n  }\n"): typeof import('./graphql.ts').ConsoleKnowledgebaseDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleCreateDocument($knowledgebaseId: Int!, $input: CreateDocumentInput!) {\n    createDocument(knowledgebaseId: $knowledgebaseId, input: $input) { id }\n  }\n"): typeof import('./graphql.ts').ConsoleCreateDocumentDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleDeleteDocument($id: Int!) {\n    deleteDocument(id: $id) { deletedId }\n  }\n"): typeof import('./graphql.ts').ConsoleDeleteDocumentDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription ConsoleKnowledgebaseStatus($id: Int!) {\n    knowledgebaseStatus(id: $id) {\n      status\n      document { documentId status stage pagesDone pagesTotal chunkCount failureReason }\n    }\n  }\n"): typeof import('./graphql.ts').ConsoleKnowledgebaseStatusDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleSearchKnowledgebase($id: Int!, $query: String!) {\n    searchKnowledgebase(id: $id, query: $query, limit: 8) { chunkId content documentName relevance source }\n  }\n"): typeof import('./graphql.ts').ConsoleSearchKnowledgebaseDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleReprocessDocument($id: Int!) {\n    reprocessDocument(id: $id) { id status stage failureReason }\n  }\n"): typeof import('./graphql.ts').ConsoleReprocessDocumentDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleDocumentPassages($id: Int!, $offset: Int!, $limit: Int!) {\n    document(id: $id) { id name chunkCount passages(offset: $offset, limit: $limit) { id ordinal content tokenCount source } }\n  }\n"): typeof import('./graphql.ts').ConsoleDocumentPassagesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription ConsoleBalance {\n    balanceChanged { id balance }\n  }\n"): typeof import('./graphql.ts').ConsoleBalanceDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleLedger($accountId: Int, $page: Int) {\n    ledgerEntries(accountId: $accountId, page: $page, perPage: 25) {\n      items { id kind amount balanceAfter description pending callId createdAt }\n      pageInfo { currentPage lastPage total }\n    }\n  }\n"): typeof import('./graphql.ts').ConsoleLedgerDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleTeam {\n    viewer { id role }\n    members { id name email role createdAt }\n    invitations { id email role expiresAt createdAt emailStatus emailError emailSentAt }\n    invitationEmailEnabled\n  }\n"): typeof import('./graphql.ts').ConsoleTeamDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleInviteMember($input: InviteMemberInput!) {\n    inviteMember(input: $input) { token path invitation { id emailStatus } }\n  }\n"): typeof import('./graphql.ts').ConsoleInviteMemberDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleResendInvitationEmail($id: Int!) {\n    resendInvitationEmail(id: $id) { path invitation { id emailStatus } }\n  }\n"): typeof import('./graphql.ts').ConsoleResendInvitationEmailDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleRevokeInvitation($id: Int!) {\n    revokeInvitation(id: $id)\n  }\n"): typeof import('./graphql.ts').ConsoleRevokeInvitationDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleChangeMemberRole($input: ChangeMemberRoleInput!) {\n    changeMemberRole(input: $input) { id role }\n  }\n"): typeof import('./graphql.ts').ConsoleChangeMemberRoleDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleRemoveMember($userId: Int!) {\n    removeMember(userId: $userId)\n  }\n"): typeof import('./graphql.ts').ConsoleRemoveMemberDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleResetMemberPassword($userId: Int!) {\n    resetMemberPassword(userId: $userId) { path expiresAt emailStatus }\n  }\n"): typeof import('./graphql.ts').ConsoleResetMemberPasswordDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleInvitationLink($token: String!) {\n    invitationLink(token: $token) { kind email role accountName expiresAt }\n  }\n"): typeof import('./graphql.ts').ConsoleInvitationLinkDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleAcceptInvitation($input: AcceptInvitationInput!) {\n    acceptInvitation(input: $input) {\n      token\n      expiresAt\n      viewer { id email role account { id isOperator } }\n    }\n  }\n"): typeof import('./graphql.ts').ConsoleAcceptInvitationDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ConsoleTestScenarioFields on TestScenario {\n    id assistantId name channel script persona goal variables turnLimit criteria checks toolResults\n    useRealTools expectedReplies sourceCallId sourceConversationId updatedAt\n  }\n"): typeof import('./graphql.ts').ConsoleTestScenarioFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ConsoleTestResultFields on TestScenarioResult {\n    id scenarioId scenarioName position status endedBy turnLatencies cost error functionCalls callId\n    transcript { role content latencyMs }\n    checks { kind description passed detail }\n    judge { criterion passed reasoning }\n    divergences { turn expected actual }\n  }\n"): typeof import('./graphql.ts').ConsoleTestResultFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    fragment ConsoleTestRunFields on TestRun {\n      id suiteId status concurrency total done passed failed errored cost error createdAt startedAt finishedAt\n      results { ...ConsoleTestResultFields }\n    }\n  "): typeof import('./graphql.ts').ConsoleTestRunFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    query ConsoleTestsScreen($assistantId: Int!) {\n      assistant(id: $assistantId) { id name }\n      testScenarios(assistantId: $assistantId) { ...ConsoleTestScenarioFields }\n      testSuites { id name scenarioIds updatedAt }\n    }\n  "): typeof import('./graphql.ts').ConsoleTestsScreenDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    query ConsoleTestScenario($id: Int!) {\n      testScenario(id: $id) { ...ConsoleTestScenarioFields }\n    }\n  "): typeof import('./graphql.ts').ConsoleTestScenarioDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleCreateTestScenario($input: CreateTestScenarioInput!) {\n    createTestScenario(input: $input) { id }\n  }\n"): typeof import('./graphql.ts').ConsoleCreateTestScenarioDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleUpdateTestScenario($id: Int!, $input: UpdateTestScenarioInput!) {\n    updateTestScenario(id: $id, input: $input) { id }\n  }\n"): typeof import('./graphql.ts').ConsoleUpdateTestScenarioDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleDeleteTestScenario($id: Int!) {\n    deleteTestScenario(id: $id)\n  }\n"): typeof import('./graphql.ts').ConsoleDeleteTestScenarioDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleCreateTestSuite($input: TestSuiteInput!) {\n    createTestSuite(input: $input) { id }\n  }\n"): typeof import('./graphql.ts').ConsoleCreateTestSuiteDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleUpdateTestSuite($id: Int!, $input: TestSuiteInput!) {\n    updateTestSuite(id: $id, input: $input) { id }\n  }\n"): typeof import('./graphql.ts').ConsoleUpdateTestSuiteDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleDeleteTestSuite($id: Int!) {\n    deleteTestSuite(id: $id)\n  }\n"): typeof import('./graphql.ts').ConsoleDeleteTestSuiteDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleTestSuiteEstimate($suiteId: Int!) {\n    testSuiteEstimate(suiteId: $suiteId) { scenarios replies modelRequests price }\n  }\n"): typeof import('./graphql.ts').ConsoleTestSuiteEstimateDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleTestRuns($suiteId: Int!) {\n    testRuns(suiteId: $suiteId, limit: 20) { id status total done passed failed errored cost createdAt }\n  }\n"): typeof import('./graphql.ts').ConsoleTestRunsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleRunTestSuite($suiteId: Int!, $concurrency: Int) {\n    runTestSuite(suiteId: $suiteId, concurrency: $concurrency) { id }\n  }\n"): typeof import('./graphql.ts').ConsoleRunTestSuiteDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    subscription ConsoleTestRunUpdated($id: Int!) {\n      testRunUpdated(id: $id, includeCurrent: true) { ...ConsoleTestRunFields }\n    }\n  "): typeof import('./graphql.ts').ConsoleTestRunUpdatedDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    query ConsoleCompareTestRuns($a: Int!, $b: Int!) {\n      compareTestRuns(a: $a, b: $b) {\n        unchanged\n        before { id status passed failed errored total createdAt }\n        after { id status passed failed errored total createdAt }\n        changed {\n          scenarioId scenarioName\n          before { ...ConsoleTestResultFields }\n          after { ...ConsoleTestResultFields }\n        }\n      }\n    }\n  "): typeof import('./graphql.ts').ConsoleCompareTestRunsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleWebhookDeliveries($page: Int, $filter: WebhookDeliveryFilter) {\n    webhookDeliveries(page: $page, perPage: 20, filter: $filter) {\n      items { id webhookId type url status attempts nextAttemptAt lastStatusCode lastError deliveredAt createdAt }\n      pageInfo { currentPage lastPage total }\n    }\n  }\n"): typeof import('./graphql.ts').ConsoleWebhookDeliveriesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleRedeliverWebhook($id: Int!) {\n    redeliverWebhook(id: $id) { id status attempts }\n  }\n"): typeof import('./graphql.ts').ConsoleRedeliverWebhookDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleSendTestWebhook($url: String) {\n    sendTestWebhook(url: $url) { id status }\n  }\n"): typeof import('./graphql.ts').ConsoleSendTestWebhookDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleWebhookSigningSecrets {\n    webhookSigningSecrets { id createdAt expiresAt }\n  }\n"): typeof import('./graphql.ts').ConsoleWebhookSigningSecretsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleRotateWebhookSecret($overlapSeconds: Int) {\n    rotateWebhookSecret(overlapSeconds: $overlapSeconds) { secret createdAt previousExpiresAt }\n  }\n"): typeof import('./graphql.ts').ConsoleRotateWebhookSecretDocument;


export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}
