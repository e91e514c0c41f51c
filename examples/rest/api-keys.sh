#!/usr/bin/env bash
# API keys and login over the REST API. Usage: VOXGATE_TOKEN=vgk_... ./api-keys.sh [base-url]
set -euo pipefail
BASE="${1:-http://127.0.0.1:4000}/api"
AUTH=(-H "Authorization: Bearer ${VOXGATE_TOKEN:?set VOXGATE_TOKEN to an API key or session token}")

# Create a key: the token is in this response only.
curl -sS "${AUTH[@]}" -H 'Content-Type: application/json' -d '{"name":"CRM integration"}' "$BASE/user/api-keys"
echo

# List keys (no tokens).
curl -sS "${AUTH[@]}" "$BASE/user/api-keys"
echo

# Delete key 2.
curl -sS "${AUTH[@]}" -X DELETE "$BASE/user/api-keys/2"
echo

# Log in with email and password for a session token, then log out.
SESSION=$(curl -sS -H 'Content-Type: application/json' \
  -d "{\"email\":\"${VOXGATE_EMAIL:-demo@voxgate.local}\",\"password\":\"${VOXGATE_PASSWORD:?set VOXGATE_PASSWORD}\"}" \
  "$BASE/login" | sed -E 's/.*"token":"([^"]+)".*/\1/')
curl -sS -X POST -H "Authorization: Bearer $SESSION" "$BASE/logout"
echo
