#!/usr/bin/env bash
# Ask the first assistant to answer a customer of your integration (charged per reply).
# Usage: VOXGATE_TOKEN=vgk_... ./generate-reply.sh
source "$(dirname "$0")/lib.sh"

assistants=$(call GET "/user/assistants/get?per_page=1")
assistant_id=$(field "$assistants" data.0.id)
call POST /ai/generate-reply "{
  \"assistant_id\": $assistant_id,
  \"customer_identifier\": \"crm-contact-42\",
  \"message\": \"Hello! What can you do for me?\",
  \"variables\": {\"company\": \"Example Inc.\"}
}"
