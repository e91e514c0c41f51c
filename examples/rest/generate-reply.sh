#!/usr/bin/env sh
# Ask an assistant to answer a customer of your integration.
# Usage: VOXGATE_URL=http://127.0.0.1:4000 VOXGATE_TOKEN=vgk_... ASSISTANT_ID=1 ./generate-reply.sh
set -eu
: "${VOXGATE_URL:=http://127.0.0.1:4000}"
: "${ASSISTANT_ID:=1}"

# The same customer_identifier continues the same conversation; variables are kept for later calls.
curl -sS -i -X POST "$VOXGATE_URL/api/ai/generate-reply" \
  -H "Authorization: Bearer $VOXGATE_TOKEN" \
  -H "Content-Type: application/json" \
  -d "{
    \"assistant_id\": $ASSISTANT_ID,
    \"customer_identifier\": \"+33612345678\",
    \"message\": \"Hello, are you open on Sunday?\",
    \"variables\": { \"customer_name\": \"Ada\" }
  }"
# 200 {"success":true,"conversation_id":"…","customer_identifier":"+33612345678","reply":"…","function_calls":[],"ai_disabled":false}
# The response headers RateLimit-Limit / RateLimit-Remaining / RateLimit-Reset tell how many calls are left this minute.
