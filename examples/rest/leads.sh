#!/usr/bin/env bash
# Leads over the REST API, in a campaign created over GraphQL. Usage: VOXGATE_TOKEN=vgk_... ./leads.sh
source "$(dirname "$0")/lib.sh"

campaign=$(graphql 'mutation ($input: CreateCampaignInput!) { createCampaign(input: $input) { id } }' \
  '{"input": {"name": "Example campaign"}}')
campaign_id=$(field "$campaign" data.createCampaign.id)

lead=$(call POST /user/lead "{
  \"phone_number\": \"+14155550123\",
  \"campaign_id\": $campaign_id,
  \"variables\": {\"name\": \"Ada\"},
  \"secondary_contacts\": [{\"phone_number\": \"+14155550124\", \"variables\": {\"relation\": \"office\"}}]
}")
echo "$lead"

call GET "/user/leads?campaign_id=$campaign_id&status=created"
call DELETE "/user/leads/$(field "$lead" data.id)"
