import { graphql } from "../api/graphql.ts";

export const CampaignsQuery = graphql(`
  query ConsoleCampaigns {
    campaigns(perPage: 100) {
      items {
        id name status maxConcurrentCalls assistantId
        callingWindow { start end timezone }
        retry { maxRetries intervalMinutes }
        phoneNumbers { id }
        progress { callsRunning withinCallingWindow leads { total completed processing scheduled rescheduled reachedMaxRetries blacklisted created } }
      }
    }
  }
`);

export const CampaignChoicesQuery = graphql(`
  query ConsoleCampaignChoices {
    assistants(perPage: 100, type: outbound) { items { id name } }
    phoneNumbers { id phoneNumber label }
  }
`);

export const CreateCampaignMutation = graphql(`
  mutation ConsoleCreateCampaign($input: CreateCampaignInput!) {
    createCampaign(input: $input) { id }
  }
`);

export const UpdateCampaignMutation = graphql(`
  mutation ConsoleUpdateCampaign($id: Int!, $input: UpdateCampaignInput!) {
    updateCampaign(id: $id, input: $input) { id status }
  }
`);

export const DeleteCampaignMutation = graphql(`
  mutation ConsoleDeleteCampaign($id: Int!) {
    deleteCampaign(id: $id) { deletedId }
  }
`);

export const DeleteLeadMutation = graphql(`
  mutation ConsoleDeleteLead($id: Int!) {
    deleteLead(id: $id) { deletedId }
  }
`);

export const CampaignProgressSubscription = graphql(`
  subscription ConsoleCampaignProgress($campaignId: Int!) {
    campaignProgress(campaignId: $campaignId) {
      campaignId status callsRunning withinCallingWindow
      leads { total completed processing scheduled rescheduled reachedMaxRetries blacklisted created }
    }
  }
`);

export const LeadsQuery = graphql(`
  query ConsoleLeads($campaignId: Int, $page: Int) {
    leads(campaignId: $campaignId, page: $page, perPage: 20) {
      items { id phoneNumber status attempts nextAttemptAt variables }
      pageInfo { currentPage lastPage total }
    }
  }
`);

export const CreateLeadMutation = graphql(`
  mutation ConsoleCreateLead($input: CreateLeadInput!) {
    createLead(input: $input) { id }
  }
`);
