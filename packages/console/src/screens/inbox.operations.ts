import { graphql } from "../api/graphql.ts";

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

export const MarkConversationReadMutation = graphql(`
  mutation ConsoleMarkRead($id: ID!) {
    markConversationRead(id: $id) { id unread }
  }
`);

export const InboxViewerQuery = graphql(`
  query ConsoleInboxViewer {
    viewer { id name }
    members { id name }
    assistants(perPage: 100) { items { id name } }
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
