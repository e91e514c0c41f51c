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
    "\n      mutation RestGenerateReply($input: GenerateReplyInput!) {\n        generateReply(input: $input) {\n          conversationId customerIdentifier reply functionCalls { ...RestFunctionCall } aiDisabled\n        }\n      }\n    ": typeof types.RestGenerateReplyDocument,
    "\n      mutation RestCreateApiKey($input: CreateApiKeyInput!) {\n        createApiKey(input: $input) { token apiKey { name createdAt } }\n      }\n    ": typeof types.RestCreateApiKeyDocument,
    "\n      query RestApiKeys { apiKeys { id name lastUsedAt createdAt } }\n    ": typeof types.RestApiKeysDocument,
    "\n      mutation RestDeleteApiKey($id: Int!) { deleteApiKey(id: $id) { deletedId } }\n    ": typeof types.RestDeleteApiKeyDocument,
    "\n  fragment RestAppointment on Appointment {\n    id status startsAt endsAt timezone customerName customerPhone customerEmail notes appointmentTypeId\n    appointmentTypeName connectionId provider assistantId callId conversationId createdAt updatedAt cancelledAt\n  }\n": typeof types.RestAppointmentFragmentDoc,
    "\n      mutation RestBookAppointment($input: BookAppointmentInput!) { bookAppointment(input: $input) { ...RestAppointment } }\n    ": typeof types.RestBookAppointmentDocument,
    "\n      query RestAppointments($page: Int, $perPage: Int, $filter: AppointmentFilter) {\n        appointments(page: $page, perPage: $perPage, filter: $filter) {\n          items { ...RestAppointment }\n          pageInfo { total currentPage perPage lastPage }\n        }\n      }\n    ": typeof types.RestAppointmentsDocument,
    "\n      query RestAppointment($id: Int!) { appointment(id: $id) { ...RestAppointment } }\n    ": typeof types.RestAppointmentDocument,
    "\n      mutation RestRescheduleAppointment($id: Int!, $startsAt: DateTime!) {\n        rescheduleAppointment(id: $id, startsAt: $startsAt) { ...RestAppointment }\n      }\n    ": typeof types.RestRescheduleAppointmentDocument,
    "\n      mutation RestCancelAppointment($id: Int!) { cancelAppointment(id: $id) { ...RestAppointment } }\n    ": typeof types.RestCancelAppointmentDocument,
    "\n  fragment RestAssistant on Assistant {\n    id userId phoneNumberId engineId synthesizerId transcriberId voiceId instanceId name variables\n    postCallEvaluation fillers postCallSchema tools isWebhookActive webhookUrl inboundWebhookUrl language\n    type status maxDuration record initialMessage systemPrompt flowsPlatformId timezone createdAt updatedAt\n    deletedAt maxSilenceDuration reengagementInterval endCallOnVoicemail llmTemperature voiceStability\n    voiceSimilarity speechSpeed ambientSoundVolume allowInterruptions enableNoiseCancellation waitForCustomer\n    endpointSensitivity interruptSensitivity endpointType mode languageId transcriberProviderId\n    synthesizerProviderId llmModelId multimodalModelId ambientSound uuid sendWebhookOnlyOnCompleted\n    includeRecordingInWebhook fillerConfig knowledgebaseId knowledgebaseMode minInterruptWords widgetSettings\n  }\n": typeof types.RestAssistantFragmentDoc,
    "\n      query RestAssistants($page: Int, $perPage: Int) {\n        assistants(page: $page, perPage: $perPage) {\n          items { ...RestAssistant }\n          pageInfo { total currentPage perPage lastPage }\n        }\n      }\n    ": typeof types.RestAssistantsDocument,
    "\n      mutation RestLogin($input: LoginInput!) {\n        login(input: $input) { token tokenType expiresAt viewer { id name email } }\n      }\n    ": typeof types.RestLoginDocument,
    "\n      mutation RestLogout { logout { revoked } }\n    ": typeof types.RestLogoutDocument,
    "\n  fragment RestCallFields on Call {\n    id assistantName campaignName type duration assistantPhoneNumber clientPhoneNumber status\n    transcript variables evaluation webhookResponse carrierCost totalCost answeredBy recordingUrl\n    createdAt updatedAt\n  }\n": typeof types.RestCallFieldsFragmentDoc,
    "\n      query RestCalls($page: Int, $perPage: Int, $filter: CallFilter) {\n        calls(page: $page, perPage: $perPage, filter: $filter) {\n          items { ...RestCallFields }\n          pageInfo { total currentPage perPage lastPage }\n        }\n      }\n    ": typeof types.RestCallsDocument,
    "\n      mutation RestMakeCall($input: StartCallInput!) { startCall(input: $input) { ...RestCallFields } }\n    ": typeof types.RestMakeCallDocument,
    "\n  fragment RestFunctionCall on FunctionCall { name arguments result error durationMs }\n": typeof types.RestFunctionCallFragmentDoc,
    "\n  fragment RestWidgetFunctionCall on WidgetFunctionCall { name succeeded }\n": typeof types.RestWidgetFunctionCallFragmentDoc,
    "\n      query RestConversationMessages($id: ID!) {\n        widgetConversation(id: $id) {\n          id\n          messages { id role content functionCalls { ...RestWidgetFunctionCall } createdAt }\n        }\n      }\n    ": typeof types.RestConversationMessagesDocument,
    "\n      mutation RestSendConversationMessage($input: SendWidgetMessageInput!) {\n        sendWidgetMessage(input: $input) { reply functionCalls { ...RestWidgetFunctionCall } }\n      }\n    ": typeof types.RestSendConversationMessageDocument,
    "\n  fragment RestErasedEventLeft on ErasedEventLeft {\n    id appointmentId connectionId provider externalId startsAt reason failure retriedByJobId handledAt handledBy\n  }\n": typeof types.RestErasedEventLeftFragmentDoc,
    "\n  fragment RestCustomerDataJob on CustomerDataJob {\n    id kind state identifierKind identifierHash requestedBy stepsDone stepsTotal progress counts error\n    archiveBytes downloadUrl expiresAt createdAt finishedAt\n    externalEventsLeftDetails { ...RestErasedEventLeft }\n  }\n": typeof types.RestCustomerDataJobFragmentDoc,
    "\n      mutation RestExportCustomerData($input: CustomerDataInput!) {\n        exportCustomerData(input: $input) { ...RestCustomerDataJob }\n      }\n    ": typeof types.RestExportCustomerDataDocument,
    "\n      mutation RestEraseCustomerData($input: CustomerDataInput!) {\n        eraseCustomerData(input: $input) { ...RestCustomerDataJob }\n      }\n    ": typeof types.RestEraseCustomerDataDocument,
    "\n      query RestCustomerDataJob($id: Int!) { customerDataJob(id: $id) { ...RestCustomerDataJob } }\n    ": typeof types.RestCustomerDataJobDocument,
    "\n      mutation RestMarkErasedEventLeftHandled($id: Int!) {\n        markErasedEventLeftHandled(id: $id) { ...RestErasedEventLeft }\n      }\n    ": typeof types.RestMarkErasedEventLeftHandledDocument,
    "\n  fragment RestDocument on Document {\n    id name description type typeLabel status statusLabel failureReason createdAt updatedAt\n  }\n": typeof types.RestDocumentFragmentDoc,
    "query RestKnowledgebases {\n      knowledgebases { id name description status statusLabel documentsCount assistantsCount createdAt updatedAt }\n    }\n    ": typeof types.RestKnowledgebasesDocument,
    "query RestDocuments($knowledgebaseId: Int!) {\n      documents(knowledgebaseId: $knowledgebaseId) { ...RestDocument }\n    }\n    ": typeof types.RestDocumentsDocument,
    "mutation RestCreateDocument($knowledgebaseId: Int!, $input: CreateDocumentInput!) {\n      createDocument(knowledgebaseId: $knowledgebaseId, input: $input) { ...RestDocument }\n    }\n    ": typeof types.RestCreateDocumentDocument,
    "query RestDocument($id: Int!, $knowledgebaseId: Int!) {\n      document(id: $id, knowledgebaseId: $knowledgebaseId) { ...RestDocument }\n    }\n    ": typeof types.RestDocumentDocument,
    "mutation RestUpdateDocument($id: Int!, $knowledgebaseId: Int!, $input: UpdateDocumentInput!) {\n      updateDocument(id: $id, knowledgebaseId: $knowledgebaseId, input: $input) { ...RestDocument }\n    }\n    ": typeof types.RestUpdateDocumentDocument,
    "mutation RestDeleteDocument($id: Int!, $knowledgebaseId: Int!) {\n      deleteDocument(id: $id, knowledgebaseId: $knowledgebaseId) { deletedId }\n    }\n    ": typeof types.RestDeleteDocumentDocument,
    "\n  fragment RestLead on Lead {\n    id campaignId phoneNumber variables status createdAt updatedAt campaign { id name }\n    secondaryContacts { id phoneNumber variables status createdAt updatedAt }\n  }\n": typeof types.RestLeadFragmentDoc,
    "\n      mutation RestCreateLead($input: CreateLeadInput!) { createLead(input: $input) { ...RestLead } }\n    ": typeof types.RestCreateLeadDocument,
    "\n      query RestLeads($page: Int, $perPage: Int, $campaignId: Int, $status: LeadStatus) {\n        leads(page: $page, perPage: $perPage, campaignId: $campaignId, status: $status) {\n          items { ...RestLead }\n          pageInfo { total currentPage perPage lastPage }\n        }\n      }\n    ": typeof types.RestLeadsDocument,
    "\n      mutation RestDeleteLead($id: Int!) { deleteLead(id: $id) { deletedId } }\n    ": typeof types.RestDeleteLeadDocument,
    "\n      query RestPhoneNumbers($smsReadyOnly: Boolean) {\n        phoneNumbers(smsReadyOnly: $smsReadyOnly) {\n          id phoneNumber countryCode kind typeLabel smsCapable region hasActiveSubscription createdAt\n        }\n      }\n    ": typeof types.RestPhoneNumbersDocument,
    "\n      mutation RestReleasePhoneNumber($id: Int!) {\n        releasePhoneNumber(id: $id) { releasedNow releasesAt }\n      }\n    ": typeof types.RestReleasePhoneNumberDocument,
    "\n      query RestVoices($mode: AssistantMode, $languageId: Int) {\n        voices(mode: $mode, languageId: $languageId) { id name languageId gender }\n      }\n    ": typeof types.RestVoicesDocument,
    "\n      query RestWidgetAssistant($uuid: String!) {\n        widgetAssistant(uuid: $uuid) { uuid name initialMessage widgetSettings { theme color position voice } }\n      }\n    ": typeof types.RestWidgetAssistantDocument,
    "\n      mutation RestStartWidgetConversation($input: StartWidgetConversationInput!) {\n        startWidgetConversation(input: $input) { conversationId initialMessage createdAt }\n      }\n    ": typeof types.RestStartWidgetConversationDocument,
    "\n      mutation RestStartWidgetWebCall($input: StartWidgetWebCallInput!) {\n        startWidgetWebCall(input: $input) { callId token expiresAt socketPath sampleRate }\n      }\n    ": typeof types.RestStartWidgetWebCallDocument,
};
const documents: Documents = {
    "\n      mutation RestGenerateReply($input: GenerateReplyInput!) {\n        generateReply(input: $input) {\n          conversationId customerIdentifier reply functionCalls { ...RestFunctionCall } aiDisabled\n        }\n      }\n    ": types.RestGenerateReplyDocument,
    "\n      mutation RestCreateApiKey($input: CreateApiKeyInput!) {\n        createApiKey(input: $input) { token apiKey { name createdAt } }\n      }\n    ": types.RestCreateApiKeyDocument,
    "\n      query RestApiKeys { apiKeys { id name lastUsedAt createdAt } }\n    ": types.RestApiKeysDocument,
    "\n      mutation RestDeleteApiKey($id: Int!) { deleteApiKey(id: $id) { deletedId } }\n    ": types.RestDeleteApiKeyDocument,
    "\n  fragment RestAppointment on Appointment {\n    id status startsAt endsAt timezone customerName customerPhone customerEmail notes appointmentTypeId\n    appointmentTypeName connectionId provider assistantId callId conversationId createdAt updatedAt cancelledAt\n  }\n": types.RestAppointmentFragmentDoc,
    "\n      mutation RestBookAppointment($input: BookAppointmentInput!) { bookAppointment(input: $input) { ...RestAppointment } }\n    ": types.RestBookAppointmentDocument,
    "\n      query RestAppointments($page: Int, $perPage: Int, $filter: AppointmentFilter) {\n        appointments(page: $page, perPage: $perPage, filter: $filter) {\n          items { ...RestAppointment }\n          pageInfo { total currentPage perPage lastPage }\n        }\n      }\n    ": types.RestAppointmentsDocument,
    "\n      query RestAppointment($id: Int!) { appointment(id: $id) { ...RestAppointment } }\n    ": types.RestAppointmentDocument,
    "\n      mutation RestRescheduleAppointment($id: Int!, $startsAt: DateTime!) {\n        rescheduleAppointment(id: $id, startsAt: $startsAt) { ...RestAppointment }\n      }\n    ": types.RestRescheduleAppointmentDocument,
    "\n      mutation RestCancelAppointment($id: Int!) { cancelAppointment(id: $id) { ...RestAppointment } }\n    ": types.RestCancelAppointmentDocument,
    "\n  fragment RestAssistant on Assistant {\n    id userId phoneNumberId engineId synthesizerId transcriberId voiceId instanceId name variables\n    postCallEvaluation fillers postCallSchema tools isWebhookActive webhookUrl inboundWebhookUrl language\n    type status maxDuration record initialMessage systemPrompt flowsPlatformId timezone createdAt updatedAt\n    deletedAt maxSilenceDuration reengagementInterval endCallOnVoicemail llmTemperature voiceStability\n    voiceSimilarity speechSpeed ambientSoundVolume allowInterruptions enableNoiseCancellation waitForCustomer\n    endpointSensitivity interruptSensitivity endpointType mode languageId transcriberProviderId\n    synthesizerProviderId llmModelId multimodalModelId ambientSound uuid sendWebhookOnlyOnCompleted\n    includeRecordingInWebhook fillerConfig knowledgebaseId knowledgebaseMode minInterruptWords widgetSettings\n  }\n": types.RestAssistantFragmentDoc,
    "\n      query RestAssistants($page: Int, $perPage: Int) {\n        assistants(page: $page, perPage: $perPage) {\n          items { ...RestAssistant }\n          pageInfo { total currentPage perPage lastPage }\n        }\n      }\n    ": types.RestAssistantsDocument,
    "\n      mutation RestLogin($input: LoginInput!) {\n        login(input: $input) { token tokenType expiresAt viewer { id name email } }\n      }\n    ": types.RestLoginDocument,
    "\n      mutation RestLogout { logout { revoked } }\n    ": types.RestLogoutDocument,
    "\n  fragment RestCallFields on Call {\n    id assistantName campaignName type duration assistantPhoneNumber clientPhoneNumber status\n    transcript variables evaluation webhookResponse carrierCost totalCost answeredBy recordingUrl\n    createdAt updatedAt\n  }\n": types.RestCallFieldsFragmentDoc,
    "\n      query RestCalls($page: Int, $perPage: Int, $filter: CallFilter) {\n        calls(page: $page, perPage: $perPage, filter: $filter) {\n          items { ...RestCallFields }\n          pageInfo { total currentPage perPage lastPage }\n        }\n      }\n    ": types.RestCallsDocument,
    "\n      mutation RestMakeCall($input: StartCallInput!) { startCall(input: $input) { ...RestCallFields } }\n    ": types.RestMakeCallDocument,
    "\n  fragment RestFunctionCall on FunctionCall { name arguments result error durationMs }\n": types.RestFunctionCallFragmentDoc,
    "\n  fragment RestWidgetFunctionCall on WidgetFunctionCall { name succeeded }\n": types.RestWidgetFunctionCallFragmentDoc,
    "\n      query RestConversationMessages($id: ID!) {\n        widgetConversation(id: $id) {\n          id\n          messages { id role content functionCalls { ...RestWidgetFunctionCall } createdAt }\n        }\n      }\n    ": types.RestConversationMessagesDocument,
    "\n      mutation RestSendConversationMessage($input: SendWidgetMessageInput!) {\n        sendWidgetMessage(input: $input) { reply functionCalls { ...RestWidgetFunctionCall } }\n      }\n    ": types.RestSendConversationMessageDocument,
    "\n  fragment RestErasedEventLeft on ErasedEventLeft {\n    id appointmentId connectionId provider externalId startsAt reason failure retriedByJobId handledAt handledBy\n  }\n": types.RestErasedEventLeftFragmentDoc,
    "\n  fragment RestCustomerDataJob on CustomerDataJob {\n    id kind state identifierKind identifierHash requestedBy stepsDone stepsTotal progress counts error\n    archiveBytes downloadUrl expiresAt createdAt finishedAt\n    externalEventsLeftDetails { ...RestErasedEventLeft }\n  }\n": types.RestCustomerDataJobFragmentDoc,
    "\n      mutation RestExportCustomerData($input: CustomerDataInput!) {\n        exportCustomerData(input: $input) { ...RestCustomerDataJob }\n      }\n    ": types.RestExportCustomerDataDocument,
    "\n      mutation RestEraseCustomerData($input: CustomerDataInput!) {\n        eraseCustomerData(input: $input) { ...RestCustomerDataJob }\n      }\n    ": types.RestEraseCustomerDataDocument,
    "\n      query RestCustomerDataJob($id: Int!) { customerDataJob(id: $id) { ...RestCustomerDataJob } }\n    ": types.RestCustomerDataJobDocument,
    "\n      mutation RestMarkErasedEventLeftHandled($id: Int!) {\n        markErasedEventLeftHandled(id: $id) { ...RestErasedEventLeft }\n      }\n    ": types.RestMarkErasedEventLeftHandledDocument,
    "\n  fragment RestDocument on Document {\n    id name description type typeLabel status statusLabel failureReason createdAt updatedAt\n  }\n": types.RestDocumentFragmentDoc,
    "query RestKnowledgebases {\n      knowledgebases { id name description status statusLabel documentsCount assistantsCount createdAt updatedAt }\n    }\n    ": types.RestKnowledgebasesDocument,
    "query RestDocuments($knowledgebaseId: Int!) {\n      documents(knowledgebaseId: $knowledgebaseId) { ...RestDocument }\n    }\n    ": types.RestDocumentsDocument,
    "mutation RestCreateDocument($knowledgebaseId: Int!, $input: CreateDocumentInput!) {\n      createDocument(knowledgebaseId: $knowledgebaseId, input: $input) { ...RestDocument }\n    }\n    ": types.RestCreateDocumentDocument,
    "query RestDocument($id: Int!, $knowledgebaseId: Int!) {\n      document(id: $id, knowledgebaseId: $knowledgebaseId) { ...RestDocument }\n    }\n    ": types.RestDocumentDocument,
    "mutation RestUpdateDocument($id: Int!, $knowledgebaseId: Int!, $input: UpdateDocumentInput!) {\n      updateDocument(id: $id, knowledgebaseId: $knowledgebaseId, input: $input) { ...RestDocument }\n    }\n    ": types.RestUpdateDocumentDocument,
    "mutation RestDeleteDocument($id: Int!, $knowledgebaseId: Int!) {\n      deleteDocument(id: $id, knowledgebaseId: $knowledgebaseId) { deletedId }\n    }\n    ": types.RestDeleteDocumentDocument,
    "\n  fragment RestLead on Lead {\n    id campaignId phoneNumber variables status createdAt updatedAt campaign { id name }\n    secondaryContacts { id phoneNumber variables status createdAt updatedAt }\n  }\n": types.RestLeadFragmentDoc,
    "\n      mutation RestCreateLead($input: CreateLeadInput!) { createLead(input: $input) { ...RestLead } }\n    ": types.RestCreateLeadDocument,
    "\n      query RestLeads($page: Int, $perPage: Int, $campaignId: Int, $status: LeadStatus) {\n        leads(page: $page, perPage: $perPage, campaignId: $campaignId, status: $status) {\n          items { ...RestLead }\n          pageInfo { total currentPage perPage lastPage }\n        }\n      }\n    ": types.RestLeadsDocument,
    "\n      mutation RestDeleteLead($id: Int!) { deleteLead(id: $id) { deletedId } }\n    ": types.RestDeleteLeadDocument,
    "\n      query RestPhoneNumbers($smsReadyOnly: Boolean) {\n        phoneNumbers(smsReadyOnly: $smsReadyOnly) {\n          id phoneNumber countryCode kind typeLabel smsCapable region hasActiveSubscription createdAt\n        }\n      }\n    ": types.RestPhoneNumbersDocument,
    "\n      mutation RestReleasePhoneNumber($id: Int!) {\n        releasePhoneNumber(id: $id) { releasedNow releasesAt }\n      }\n    ": types.RestReleasePhoneNumberDocument,
    "\n      query RestVoices($mode: AssistantMode, $languageId: Int) {\n        voices(mode: $mode, languageId: $languageId) { id name languageId gender }\n      }\n    ": types.RestVoicesDocument,
    "\n      query RestWidgetAssistant($uuid: String!) {\n        widgetAssistant(uuid: $uuid) { uuid name initialMessage widgetSettings { theme color position voice } }\n      }\n    ": types.RestWidgetAssistantDocument,
    "\n      mutation RestStartWidgetConversation($input: StartWidgetConversationInput!) {\n        startWidgetConversation(input: $input) { conversationId initialMessage createdAt }\n      }\n    ": types.RestStartWidgetConversationDocument,
    "\n      mutation RestStartWidgetWebCall($input: StartWidgetWebCallInput!) {\n        startWidgetWebCall(input: $input) { callId token expiresAt socketPath sampleRate }\n      }\n    ": types.RestStartWidgetWebCallDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation RestGenerateReply($input: GenerateReplyInput!) {\n        generateReply(input: $input) {\n          conversationId customerIdentifier reply functionCalls { ...RestFunctionCall } aiDisabled\n        }\n      }\n    "): typeof import('./graphql.ts').RestGenerateReplyDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation RestCreateApiKey($input: CreateApiKeyInput!) {\n        createApiKey(input: $input) { token apiKey { name createdAt } }\n      }\n    "): typeof import('./graphql.ts').RestCreateApiKeyDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query RestApiKeys { apiKeys { id name lastUsedAt createdAt } }\n    "): typeof import('./graphql.ts').RestApiKeysDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation RestDeleteApiKey($id: Int!) { deleteApiKey(id: $id) { deletedId } }\n    "): typeof import('./graphql.ts').RestDeleteApiKeyDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment RestAppointment on Appointment {\n    id status startsAt endsAt timezone customerName customerPhone customerEmail notes appointmentTypeId\n    appointmentTypeName connectionId provider assistantId callId conversationId createdAt updatedAt cancelledAt\n  }\n"): typeof import('./graphql.ts').RestAppointmentFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation RestBookAppointment($input: BookAppointmentInput!) { bookAppointment(input: $input) { ...RestAppointment } }\n    "): typeof import('./graphql.ts').RestBookAppointmentDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query RestAppointments($page: Int, $perPage: Int, $filter: AppointmentFilter) {\n        appointments(page: $page, perPage: $perPage, filter: $filter) {\n          items { ...RestAppointment }\n          pageInfo { total currentPage perPage lastPage }\n        }\n      }\n    "): typeof import('./graphql.ts').RestAppointmentsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query RestAppointment($id: Int!) { appointment(id: $id) { ...RestAppointment } }\n    "): typeof import('./graphql.ts').RestAppointmentDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation RestRescheduleAppointment($id: Int!, $startsAt: DateTime!) {\n        rescheduleAppointment(id: $id, startsAt: $startsAt) { ...RestAppointment }\n      }\n    "): typeof import('./graphql.ts').RestRescheduleAppointmentDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation RestCancelAppointment($id: Int!) { cancelAppointment(id: $id) { ...RestAppointment } }\n    "): typeof import('./graphql.ts').RestCancelAppointmentDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment RestAssistant on Assistant {\n    id userId phoneNumberId engineId synthesizerId transcriberId voiceId instanceId name variables\n    postCallEvaluation fillers postCallSchema tools isWebhookActive webhookUrl inboundWebhookUrl language\n    type status maxDuration record initialMessage systemPrompt flowsPlatformId timezone createdAt updatedAt\n    deletedAt maxSilenceDuration reengagementInterval endCallOnVoicemail llmTemperature voiceStability\n    voiceSimilarity speechSpeed ambientSoundVolume allowInterruptions enableNoiseCancellation waitForCustomer\n    endpointSensitivity interruptSensitivity endpointType mode languageId transcriberProviderId\n    synthesizerProviderId llmModelId multimodalModelId ambientSound uuid sendWebhookOnlyOnCompleted\n    includeRecordingInWebhook fillerConfig knowledgebaseId knowledgebaseMode minInterruptWords widgetSettings\n  }\n"): typeof import('./graphql.ts').RestAssistantFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query RestAssistants($page: Int, $perPage: Int) {\n        assistants(page: $page, perPage: $perPage) {\n          items { ...RestAssistant }\n          pageInfo { total currentPage perPage lastPage }\n        }\n      }\n    "): typeof import('./graphql.ts').RestAssistantsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation RestLogin($input: LoginInput!) {\n        login(input: $input) { token tokenType expiresAt viewer { id name email } }\n      }\n    "): typeof import('./graphql.ts').RestLoginDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation RestLogout { logout { revoked } }\n    "): typeof import('./graphql.ts').RestLogoutDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment RestCallFields on Call {\n    id assistantName campaignName type duration assistantPhoneNumber clientPhoneNumber status\n    transcript variables evaluation webhookResponse carrierCost totalCost answeredBy recordingUrl\n    createdAt updatedAt\n  }\n"): typeof import('./graphql.ts').RestCallFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query RestCalls($page: Int, $perPage: Int, $filter: CallFilter) {\n        calls(page: $page, perPage: $perPage, filter: $filter) {\n          items { ...RestCallFields }\n          pageInfo { total currentPage perPage lastPage }\n        }\n      }\n    "): typeof import('./graphql.ts').RestCallsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation RestMakeCall($input: StartCallInput!) { startCall(input: $input) { ...RestCallFields } }\n    "): typeof import('./graphql.ts').RestMakeCallDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment RestFunctionCall on FunctionCall { name arguments result error durationMs }\n"): typeof import('./graphql.ts').RestFunctionCallFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment RestWidgetFunctionCall on WidgetFunctionCall { name succeeded }\n"): typeof import('./graphql.ts').RestWidgetFunctionCallFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query RestConversationMessages($id: ID!) {\n        widgetConversation(id: $id) {\n          id\n          messages { id role content functionCalls { ...RestWidgetFunctionCall } createdAt }\n        }\n      }\n    "): typeof import('./graphql.ts').RestConversationMessagesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation RestSendConversationMessage($input: SendWidgetMessageInput!) {\n        sendWidgetMessage(input: $input) { reply functionCalls { ...RestWidgetFunctionCall } }\n      }\n    "): typeof import('./graphql.ts').RestSendConversationMessageDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment RestErasedEventLeft on ErasedEventLeft {\n    id appointmentId connectionId provider externalId startsAt reason failure retriedByJobId handledAt handledBy\n  }\n"): typeof import('./graphql.ts').RestErasedEventLeftFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment RestCustomerDataJob on CustomerDataJob {\n    id kind state identifierKind identifierHash requestedBy stepsDone stepsTotal progress counts error\n    archiveBytes downloadUrl expiresAt createdAt finishedAt\n    externalEventsLeftDetails { ...RestErasedEventLeft }\n  }\n"): typeof import('./graphql.ts').RestCustomerDataJobFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation RestExportCustomerData($input: CustomerDataInput!) {\n        exportCustomerData(input: $input) { ...RestCustomerDataJob }\n      }\n    "): typeof import('./graphql.ts').RestExportCustomerDataDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation RestEraseCustomerData($input: CustomerDataInput!) {\n        eraseCustomerData(input: $input) { ...RestCustomerDataJob }\n      }\n    "): typeof import('./graphql.ts').RestEraseCustomerDataDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query RestCustomerDataJob($id: Int!) { customerDataJob(id: $id) { ...RestCustomerDataJob } }\n    "): typeof import('./graphql.ts').RestCustomerDataJobDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation RestMarkErasedEventLeftHandled($id: Int!) {\n        markErasedEventLeftHandled(id: $id) { ...RestErasedEventLeft }\n      }\n    "): typeof import('./graphql.ts').RestMarkErasedEventLeftHandledDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment RestDocument on Document {\n    id name description type typeLabel status statusLabel failureReason createdAt updatedAt\n  }\n"): typeof import('./graphql.ts').RestDocumentFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query RestKnowledgebases {\n      knowledgebases { id name description status statusLabel documentsCount assistantsCount createdAt updatedAt }\n    }\n    "): typeof import('./graphql.ts').RestKnowledgebasesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query RestDocuments($knowledgebaseId: Int!) {\n      documents(knowledgebaseId: $knowledgebaseId) { ...RestDocument }\n    }\n    "): typeof import('./graphql.ts').RestDocumentsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation RestCreateDocument($knowledgebaseId: Int!, $input: CreateDocumentInput!) {\n      createDocument(knowledgebaseId: $knowledgebaseId, input: $input) { ...RestDocument }\n    }\n    "): typeof import('./graphql.ts').RestCreateDocumentDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query RestDocument($id: Int!, $knowledgebaseId: Int!) {\n      document(id: $id, knowledgebaseId: $knowledgebaseId) { ...RestDocument }\n    }\n    "): typeof import('./graphql.ts').RestDocumentDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation RestUpdateDocument($id: Int!, $knowledgebaseId: Int!, $input: UpdateDocumentInput!) {\n      updateDocument(id: $id, knowledgebaseId: $knowledgebaseId, input: $input) { ...RestDocument }\n    }\n    "): typeof import('./graphql.ts').RestUpdateDocumentDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation RestDeleteDocument($id: Int!, $knowledgebaseId: Int!) {\n      deleteDocument(id: $id, knowledgebaseId: $knowledgebaseId) { deletedId }\n    }\n    "): typeof import('./graphql.ts').RestDeleteDocumentDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment RestLead on Lead {\n    id campaignId phoneNumber variables status createdAt updatedAt campaign { id name }\n    secondaryContacts { id phoneNumber variables status createdAt updatedAt }\n  }\n"): typeof import('./graphql.ts').RestLeadFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation RestCreateLead($input: CreateLeadInput!) { createLead(input: $input) { ...RestLead } }\n    "): typeof import('./graphql.ts').RestCreateLeadDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query RestLeads($page: Int, $perPage: Int, $campaignId: Int, $status: LeadStatus) {\n        leads(page: $page, perPage: $perPage, campaignId: $campaignId, status: $status) {\n          items { ...RestLead }\n          pageInfo { total currentPage perPage lastPage }\n        }\n      }\n    "): typeof import('./graphql.ts').RestLeadsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation RestDeleteLead($id: Int!) { deleteLead(id: $id) { deletedId } }\n    "): typeof import('./graphql.ts').RestDeleteLeadDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query RestPhoneNumbers($smsReadyOnly: Boolean) {\n        phoneNumbers(smsReadyOnly: $smsReadyOnly) {\n          id phoneNumber countryCode kind typeLabel smsCapable region hasActiveSubscription createdAt\n        }\n      }\n    "): typeof import('./graphql.ts').RestPhoneNumbersDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation RestReleasePhoneNumber($id: Int!) {\n        releasePhoneNumber(id: $id) { releasedNow releasesAt }\n      }\n    "): typeof import('./graphql.ts').RestReleasePhoneNumberDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query RestVoices($mode: AssistantMode, $languageId: Int) {\n        voices(mode: $mode, languageId: $languageId) { id name languageId gender }\n      }\n    "): typeof import('./graphql.ts').RestVoicesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query RestWidgetAssistant($uuid: String!) {\n        widgetAssistant(uuid: $uuid) { uuid name initialMessage widgetSettings { theme color position voice } }\n      }\n    "): typeof import('./graphql.ts').RestWidgetAssistantDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation RestStartWidgetConversation($input: StartWidgetConversationInput!) {\n        startWidgetConversation(input: $input) { conversationId initialMessage createdAt }\n      }\n    "): typeof import('./graphql.ts').RestStartWidgetConversationDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation RestStartWidgetWebCall($input: StartWidgetWebCallInput!) {\n        startWidgetWebCall(input: $input) { callId token expiresAt socketPath sampleRate }\n      }\n    "): typeof import('./graphql.ts').RestStartWidgetWebCallDocument;


export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}
