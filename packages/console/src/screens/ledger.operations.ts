import { graphql } from "../api/graphql.ts";

export const BalanceSubscription = graphql(`
  subscription ConsoleBalance {
    balanceChanged { id balance }
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
