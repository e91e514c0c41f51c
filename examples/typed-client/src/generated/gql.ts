/* eslint-disable */
import * as types from './graphql.ts';



/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  query ExampleViewer { viewer { email account { name balance } } }\n": typeof types.ExampleViewerDocument,
    "\n  mutation ExampleCreateCampaign($input: CreateCampaignInput!) { createCampaign(input: $input) { id name } }\n": typeof types.ExampleCreateCampaignDocument,
    "\n  subscription ExampleCampaignProgress($campaignId: Int!) {\n    campaignProgress(campaignId: $campaignId) { campaignId status leads { total } }\n  }\n": typeof types.ExampleCampaignProgressDocument,
};
const documents: Documents = {
    "\n  query ExampleViewer { viewer { email account { name balance } } }\n": types.ExampleViewerDocument,
    "\n  mutation ExampleCreateCampaign($input: CreateCampaignInput!) { createCampaign(input: $input) { id name } }\n": types.ExampleCreateCampaignDocument,
    "\n  subscription ExampleCampaignProgress($campaignId: Int!) {\n    campaignProgress(campaignId: $campaignId) { campaignId status leads { total } }\n  }\n": types.ExampleCampaignProgressDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ExampleViewer { viewer { email account { name balance } } }\n"): typeof import('./graphql.ts').ExampleViewerDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ExampleCreateCampaign($input: CreateCampaignInput!) { createCampaign(input: $input) { id name } }\n"): typeof import('./graphql.ts').ExampleCreateCampaignDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription ExampleCampaignProgress($campaignId: Int!) {\n    campaignProgress(campaignId: $campaignId) { campaignId status leads { total } }\n  }\n"): typeof import('./graphql.ts').ExampleCampaignProgressDocument;


export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}
