/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
/** Only an active campaign places calls. */
export type CampaignStatus =
  | 'active'
  | 'completed'
  | 'draft'
  | 'paused';

export type CreateCampaignInput = {
  /** An assistant of the account. */
  assistantId?: number | null | undefined;
  /** HH:MM, after the start (default 17:00). */
  callingWindowEnd?: string | null | undefined;
  /** HH:MM (default 09:00). */
  callingWindowStart?: string | null | undefined;
  /** 1 to 50 (default 1): calls of the campaign running at once. */
  maxConcurrentCalls?: number | null | undefined;
  /** 0 to 10 (default 2). */
  maxRetries?: number | null | undefined;
  name: string;
  /** The rotation in calling order; replaces the whole rotation on update. */
  phoneNumberIds?: Array<number> | null | undefined;
  /** 5 to 10080 (default 60). */
  retryIntervalMinutes?: number | null | undefined;
  /** Default draft. */
  status?: CampaignStatus | null | undefined;
  /** IANA zone of the calling window (default UTC). */
  timezone?: string | null | undefined;
};

export type ExampleViewerQueryVariables = Exact<{ [key: string]: never; }>;


export type ExampleViewerQuery = { viewer: { email: string, account: { name: string, balance: string } } };

export type ExampleCreateCampaignMutationVariables = Exact<{
  input: CreateCampaignInput;
}>;


export type ExampleCreateCampaignMutation = { createCampaign: { id: number, name: string } };

export type ExampleCampaignProgressSubscriptionVariables = Exact<{
  campaignId: number;
}>;


export type ExampleCampaignProgressSubscription = { campaignProgress: { campaignId: number, status: CampaignStatus, leads: { total: number } } };

export class TypedDocumentString<TResult, TVariables>
  extends String
  implements DocumentTypeDecoration<TResult, TVariables>
{
  __apiType?: NonNullable<DocumentTypeDecoration<TResult, TVariables>['__apiType']>;
  private value: string;
  public __meta__?: Record<string, any> | undefined;

  constructor(value: string, __meta__?: Record<string, any> | undefined) {
    super(value);
    this.value = value;
    this.__meta__ = __meta__;
  }

  override toString(): string & DocumentTypeDecoration<TResult, TVariables> {
    return this.value;
  }
}

export const ExampleViewerDocument = new TypedDocumentString(`
    query ExampleViewer {
  viewer {
    email
    account {
      name
      balance
    }
  }
}
    `) as unknown as TypedDocumentString<ExampleViewerQuery, ExampleViewerQueryVariables>;
export const ExampleCreateCampaignDocument = new TypedDocumentString(`
    mutation ExampleCreateCampaign($input: CreateCampaignInput!) {
  createCampaign(input: $input) {
    id
    name
  }
}
    `) as unknown as TypedDocumentString<ExampleCreateCampaignMutation, ExampleCreateCampaignMutationVariables>;
export const ExampleCampaignProgressDocument = new TypedDocumentString(`
    subscription ExampleCampaignProgress($campaignId: Int!) {
  campaignProgress(campaignId: $campaignId) {
    campaignId
    status
    leads {
      total
    }
  }
}
    `) as unknown as TypedDocumentString<ExampleCampaignProgressSubscription, ExampleCampaignProgressSubscriptionVariables>;