#!/usr/bin/env bash
# Calls over the REST API. Usage: VOXGATE_TOKEN=vgk_... ./calls.sh [base-url]
set -euo pipefail
BASE="${1:-http://127.0.0.1:4000}/api"
AUTH=(-H "Authorization: Bearer ${VOXGATE_TOKEN:?set VOXGATE_TOKEN to an API key or session token}")

# Newest calls, 15 per page.
curl -sS "${AUTH[@]}" "$BASE/user/calls"
echo

# Completed outbound calls of assistant 1 in March 2026 (days in the account's time zone, both included).
curl -sS "${AUTH[@]}" "$BASE/user/calls?status=completed&type=outbound&assistant_id=1&date_from=2026-03-01&date_to=2026-03-31"
echo

# Calls with one client, by number (E.164; + is %2B in a query string).
curl -sS "${AUTH[@]}" "$BASE/user/calls?phone_number=%2B14155550123&per_page=50"
echo
