import { graphql } from "../api/graphql.ts";

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

export const AppointmentTypesQuery = graphql(`
  query ConsoleAppointmentTypes {
    appointmentTypes { id connectionId name durationMinutes timezone }
  }
`);

export const AssistantCalendarQuery = graphql(`
  query ConsoleAssistantCalendar($id: Int!) {
    assistant(id: $id) { id appointmentTypeIds }
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
