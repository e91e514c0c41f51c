#!/usr/bin/env bash
# Assistants over the REST API. Usage: VOXGATE_TOKEN=vgk_... ./assistants.sh [base-url]
set -euo pipefail
BASE="${1:-http://127.0.0.1:4000}/api"
AUTH=(-H "Authorization: Bearer ${VOXGATE_TOKEN:?set VOXGATE_TOKEN to an API key or session token}")

# First page, 10 assistants (the default).
curl -sS "${AUTH[@]}" "$BASE/user/assistants/get"
echo

# Page 2 with 5 per page.
curl -sS "${AUTH[@]}" "$BASE/user/assistants/get?per_page=5&page=2"
echo
