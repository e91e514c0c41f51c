import { graphql, withFragments } from "../api/graphql.ts";

export const ExportCustomerDataMutation = graphql(`
  mutation ConsoleExportCustomerData($input: CustomerDataInput!) {
    exportCustomerData(input: $input) { id kind state identifierKind stepsDone stepsTotal counts error downloadUrl expiresAt }
  }
`);

export const EraseCustomerDataMutation = graphql(`
  mutation ConsoleEraseCustomerData($input: CustomerDataInput!) {
    eraseCustomerData(input: $input) { id kind state identifierKind stepsDone stepsTotal counts error downloadUrl expiresAt }
  }
`);

export const CustomerDataJobQuery = graphql(`
  query ConsoleCustomerDataJob($id: Int!) {
    customerDataJob(id: $id) { id kind state identifierKind stepsDone stepsTotal counts error downloadUrl expiresAt }
  }
`);

// What the customer data screen shows of an event an erasure left; each document below sends it with its own text.
export const ErasedEventLeftFields = graphql(`
  fragment ConsoleErasedEventLeftFields on ErasedEventLeft {
    id appointmentId provider externalId startsAt reason failure retriedByJobId handledAt handledBy
  }
`);

/** An erasure's calendar events left for the business to erase (docs/data-governance.md#calendar-events). */
export const CustomerDataEventsLeftQuery = withFragments(
  graphql(`
    query ConsoleCustomerDataEventsLeft($id: Int!) {
      customerDataJob(id: $id) { id externalEventsLeftDetails { ...ConsoleErasedEventLeftFields } }
    }
  `),
  ErasedEventLeftFields,
);

export const MarkErasedEventLeftHandledMutation = withFragments(
  graphql(`
    mutation ConsoleMarkErasedEventLeftHandled($id: Int!) {
      markErasedEventLeftHandled(id: $id) { ...ConsoleErasedEventLeftFields }
    }
  `),
  ErasedEventLeftFields,
);
