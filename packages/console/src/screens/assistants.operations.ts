import { graphql } from "../api/graphql.ts";

export const AssistantsQuery = graphql(`
  query ConsoleAssistants($page: Int, $search: String) {
    assistants(page: $page, perPage: 20, search: $search) {
      items { id uuid name type mode status updatedAt phoneNumber { phoneNumber } }
      pageInfo { currentPage lastPage total }
    }
  }
`);
