import { graphql } from "../api/graphql.ts";

export const PhoneNumbersQuery = graphql(`
  query ConsolePhoneNumbers {
    phoneNumbers { id phoneNumber label kind typeLabel region smsCapable subscriptionStatus releaseRequestedAt }
  }
`);

export const AddPhoneNumberMutation = graphql(`
  mutation ConsoleAddPhoneNumber($input: AddPhoneNumberInput!) {
    addPhoneNumber(input: $input) { id }
  }
`);

export const ReleasePhoneNumberMutation = graphql(`
  mutation ConsoleReleasePhoneNumber($id: Int!) {
    releasePhoneNumber(id: $id) { phoneNumber { id } }
  }
`);

export const ApiKeysQuery = graphql(`
  query ConsoleApiKeys {
    apiKeys { id name createdAt lastUsedAt }
  }
`);

export const CreateApiKeyMutation = graphql(`
  mutation ConsoleCreateApiKey($name: String!) {
    createApiKey(input: { name: $name }) { token apiKey { id } }
  }
`);

export const DeleteApiKeyMutation = graphql(`
  mutation ConsoleDeleteApiKey($id: Int!) {
    deleteApiKey(id: $id) { deletedId }
  }
`);
