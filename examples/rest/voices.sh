#!/usr/bin/env bash
# Voices over the REST API. Usage: VOXGATE_TOKEN=vgk_... ./voices.sh [base-url]
set -euo pipefail
BASE="${1:-http://127.0.0.1:4000}/api"
AUTH=(-H "Authorization: Bearer ${VOXGATE_TOKEN:?set VOXGATE_TOKEN to an API key or session token}")

# Every voice the account may use: public ones and its own (a plain array).
curl -sS "${AUTH[@]}" "$BASE/user/assistants/voices"
echo

# Voices for a realtime (dualplex) assistant speaking language 1.
curl -sS "${AUTH[@]}" "$BASE/user/assistants/voices?mode=dualplex&language_id=1"
echo
