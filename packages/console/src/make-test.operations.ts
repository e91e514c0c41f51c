import { graphql } from "./api/graphql.ts";

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
