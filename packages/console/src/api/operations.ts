import { graphql } from "./graphql.ts";

// The app shell's own operations: sign-in and out, the viewer, and what the navigation and banners ask
// (the unread badge, the chat model and calendar checks). Each screen's documents live beside it
// (src/screens/*.operations.ts), so they travel in its chunk, not in the entry every page loads.

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

export const ChatModelsQuery = graphql(`
  query ConsoleChatModels {
    aiModels(kind: llm) { id available }
  }
`);

export const CalendarConnectionsQuery = graphql(`
  query ConsoleCalendarConnections {
    calendarConnections { id name provider url readUrls username eventTypeId status lastError checkedAt createdAt }
  }
`);

export const UnreadConversationCountQuery = graphql(`
  query ConsoleUnreadConversationCount {
    unreadConversationCount
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

// Two screen chunks send these (Appointments and Calendars the slots; Appointments and Tests the assistant
// names). A module of their own would be a third chunk, an extra request for a few hundred bytes.
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
