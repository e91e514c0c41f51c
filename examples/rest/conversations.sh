#!/usr/bin/env sh
# The public widget API: no credential, only the assistant's UUID.
# Usage: VOXGATE_URL=http://127.0.0.1:4000 ASSISTANT_UUID=... ./conversations.sh
set -eu
: "${VOXGATE_URL:=http://127.0.0.1:4000}"

echo "# The assistant's widget settings"
curl -sS "$VOXGATE_URL/api/widget/assistants/$ASSISTANT_UUID"
echo

echo "# Start a conversation (201); Origin must be allowed when the assistant lists origins"
started=$(curl -sS -X POST "$VOXGATE_URL/api/widget/assistants/$ASSISTANT_UUID/conversations" \
  -H "Content-Type: application/json" -H "Origin: https://shop.example" \
  -d '{"variables": {"customer_name": "Grace"}}')
echo "$started"
conversation=$(printf '%s' "$started" | sed -n 's/.*"conversation_id":"\([^"]*\)".*/\1/p')

echo "# Send a message (costs 0.01 to the assistant's owner)"
curl -sS -X POST "$VOXGATE_URL/api/conversations/$conversation/messages" \
  -H "Content-Type: application/json" -d '{"message": "Where is my order?"}'
echo

echo "# Restore the session: the history, oldest first"
curl -sS "$VOXGATE_URL/api/conversations/$conversation/messages"
echo
