#!/usr/bin/env bash
# Leads over the REST API. Usage: VOXGATE_TOKEN=vgk_... ./leads.sh [base-url] [campaign-id]
set -euo pipefail
BASE="${1:-http://127.0.0.1:4000}/api"
AUTH=(-H "Authorization: Bearer ${VOXGATE_TOKEN:?set VOXGATE_TOKEN to an API key or session token}")
CAMPAIGN_ID="${2:-1}"

# Create a lead with a secondary contact (201). allow_dupplicate is spelled so.
curl -sS "${AUTH[@]}" -H 'Content-Type: application/json' -d "{
  \"phone_number\": \"+14155550123\",
  \"campaign_id\": $CAMPAIGN_ID,
  \"variables\": {\"customer_name\": \"Ada Lovelace\", \"email\": \"ada@example.com\"},
  \"allow_dupplicate\": false,
  \"secondary_contacts\": [{\"phone_number\": \"+14155550124\", \"variables\": {\"relation\": \"office\"}}]
}" "$BASE/user/lead"
echo

# Leads of the campaign that are still new.
curl -sS "${AUTH[@]}" "$BASE/user/leads?campaign_id=$CAMPAIGN_ID&status=created"
echo

# Delete lead 1.
curl -sS "${AUTH[@]}" -X DELETE "$BASE/user/leads/1"
echo
