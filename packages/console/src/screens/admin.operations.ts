import { graphql } from "../api/graphql.ts";

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
