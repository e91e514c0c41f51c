import { graphql } from "../api/graphql.ts";

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
