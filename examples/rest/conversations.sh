#!/usr/bin/env bash
# The public widget API: no credential, only the assistant's UUID (what a website's widget does).
# Usage: VOXGATE_TOKEN=vgk_... ./conversations.sh   (the token only looks up the first assistant's UUID;
#        or give VOXGATE_ASSISTANT_UUID=... instead)
source "$(dirname "$0")/lib.sh"

if [ -z "${VOXGATE_ASSISTANT_UUID:-}" ]; then
  VOXGATE_ASSISTANT_UUID=$(field "$(call GET "/user/assistants/get?per_page=1")" data.0.uuid)
fi
public_call GET "/widget/assistants/$VOXGATE_ASSISTANT_UUID"

started=$(public_call POST "/widget/assistants/$VOXGATE_ASSISTANT_UUID/conversations" '{"variables": {"name": "Ada"}}')
echo "$started"
conversation=$(field "$started" conversation_id)

public_call POST "/conversations/$conversation/messages" '{"message": "Hello!"}'
public_call GET "/conversations/$conversation/messages"
