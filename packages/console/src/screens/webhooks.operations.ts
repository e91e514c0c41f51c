import { graphql } from "../api/graphql.ts";

export const WebhookDeliveriesQuery = graphql(`
  query ConsoleWebhookDeliveries($page: Int, $filter: WebhookDeliveryFilter) {
    webhookDeliveries(page: $page, perPage: 20, filter: $filter) {
      items { id webhookId type url status attempts nextAttemptAt lastStatusCode lastError deliveredAt createdAt }
      pageInfo { currentPage lastPage total }
    }
  }
`);

export const RedeliverWebhookMutation = graphql(`
  mutation ConsoleRedeliverWebhook($id: Int!) {
    redeliverWebhook(id: $id) { id status attempts }
  }
`);

export const SendTestWebhookMutation = graphql(`
  mutation ConsoleSendTestWebhook($url: String) {
    sendTestWebhook(url: $url) { id status }
  }
`);

export const WebhookSigningSecretsQuery = graphql(`
  query ConsoleWebhookSigningSecrets {
    webhookSigningSecrets { id createdAt expiresAt }
  }
`);

export const RotateWebhookSecretMutation = graphql(`
  mutation ConsoleRotateWebhookSecret($overlapSeconds: Int) {
    rotateWebhookSecret(overlapSeconds: $overlapSeconds) { secret createdAt previousExpiresAt }
  }
`);
