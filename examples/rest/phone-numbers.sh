#!/usr/bin/env bash
# Phone numbers over the REST API. Usage: VOXGATE_TOKEN=vgk_... ./phone-numbers.sh [base-url] [number-id]
set -euo pipefail
BASE="${1:-http://127.0.0.1:4000}/api"
AUTH=(-H "Authorization: Bearer ${VOXGATE_TOKEN:?set VOXGATE_TOKEN to an API key or session token}")
NUMBER_ID="${2:-1}"

# Every number of the account.
curl -sS "${AUTH[@]}" "$BASE/user/phone-numbers/all"
echo

# Legacy list: SMS-capable numbers with an active subscription.
curl -sS "${AUTH[@]}" "$BASE/user/phone-numbers"
echo

# Release a number. A dedicated number stays active until the end of its billing period.
curl -sS "${AUTH[@]}" -X DELETE "$BASE/user/phone-numbers/$NUMBER_ID"
echo
