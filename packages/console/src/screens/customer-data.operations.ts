import { graphql } from "../api/graphql.ts";

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
