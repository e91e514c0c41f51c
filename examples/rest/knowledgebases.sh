#!/usr/bin/env bash
# Knowledge bases and documents over the REST API (the knowledge base is created over GraphQL).
# Usage: VOXGATE_TOKEN=vgk_... ./knowledgebases.sh
source "$(dirname "$0")/lib.sh"

kb=$(graphql 'mutation ($input: KnowledgebaseInput!) { createKnowledgebase(input: $input) { id } }' \
  '{"input": {"name": "Example handbook", "description": "Made by examples/rest/knowledgebases.sh"}}')
kb_id=$(field "$kb" data.createKnowledgebase.id)
call GET /user/knowledgebases

# A text file, uploaded as multipart; it is processed in the background (status "processing" first).
file=$(mktemp)
trap 'rm -f "$file"' EXIT
printf 'We are open Monday to Friday, 9:00 to 17:00.\n' >"$file"
document=$(curl -sS --fail-with-body -H "Authorization: Bearer $VOXGATE_TOKEN" \
  -F name="Opening hours" -F type=txt -F "file=@$file;type=text/plain" \
  "$API/user/knowledgebases/$kb_id/documents")
echo "$document"
document_id=$(field "$document" data.id)

call GET "/user/knowledgebases/$kb_id/documents"
call GET "/user/knowledgebases/$kb_id/documents/$document_id"
call PUT "/user/knowledgebases/$kb_id/documents/$document_id" '{"name": "Opening hours (summer)"}'
call DELETE "/user/knowledgebases/$kb_id/documents/$document_id"
