// A typed GraphQL client: every document below is typed by GraphQL Code Generator from
// packages/server/schema.graphql (`pnpm codegen` after editing one), so a misspelt field or a wrong
// variable fails to compile. Same convention as examples/rest: VOXGATE_URL and VOXGATE_TOKEN.
//   VOXGATE_TOKEN=vgk_... pnpm --filter @voxgate/example-typed-client start
import { createClient } from "graphql-ws";
import WebSocket from "ws";
import { graphql } from "./generated/gql.ts";
import type { ExampleCampaignProgressSubscription, TypedDocumentString } from "./generated/graphql.ts";

const url = process.env.VOXGATE_URL ?? "http://127.0.0.1:4000";
const token = process.env.VOXGATE_TOKEN;
if (!token) throw new Error("set VOXGATE_TOKEN to an API key (the first `npm start` prints one)");

const Viewer = graphql(`
  query ExampleViewer { viewer { email account { name balance } } }
`);
const CreateCampaign = graphql(`
  mutation ExampleCreateCampaign($input: CreateCampaignInput!) { createCampaign(input: $input) { id name } }
`);
const Progress = graphql(`
  subscription ExampleCampaignProgress($campaignId: Int!) {
    campaignProgress(campaignId: $campaignId) { campaignId status leads { total } }
  }
`);

/** One query or mutation over HTTP; the result's type comes from the document. */
async function execute<Result, Variables>(
  document: TypedDocumentString<Result, Variables>,
  ...[variables]: Variables extends Record<string, never> ? [] : [Variables]
): Promise<Result> {
  const response = await fetch(`${url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ query: document.toString(), variables }),
  });
  const body = (await response.json()) as { data?: Result; errors?: { message: string }[] };
  if (!body.data || body.errors) throw new Error(body.errors?.map((error) => error.message).join("; "));
  return body.data;
}

const { viewer } = await execute(Viewer);
console.log(`signed in as ${viewer.email} (${viewer.account.name}, balance ${viewer.account.balance})`);

const { createCampaign } = await execute(CreateCampaign, { input: { name: "Typed client example" } });
console.log(`created campaign #${createCampaign.id} "${createCampaign.name}"`);

// The subscription over WebSocket (graphql-ws): campaignProgress answers the current state at once.
const client = createClient({
  url: `${url.replace(/^http/, "ws")}/graphql`,
  webSocketImpl: WebSocket,
  connectionParams: { authorization: `Bearer ${token}` },
});
const subscription = client.iterate<ExampleCampaignProgressSubscription>({
  query: Progress.toString(),
  variables: { campaignId: createCampaign.id },
});
for await (const event of subscription) {
  const progress = event.data?.campaignProgress;
  if (!progress) throw new Error(JSON.stringify(event.errors));
  console.log(`campaign #${progress.campaignId} is ${progress.status} with ${progress.leads.total} leads`);
  break; // one event is enough for the example; `break` ends the subscription
}
await client.dispose();
