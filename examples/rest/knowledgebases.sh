#!/bin/sh
# Knowledge bases over the legacy REST API. Usage: BASE=http://127.0.0.1:4000/api TOKEN=vgk_... KB=1 ./knowledgebases.sh
set -eu
auth="Authorization: Bearer ${TOKEN}"

curl -sS -H "$auth" "$BASE/user/knowledgebases"

# A PDF upload (multipart, at most 20 MB).
curl -sS -H "$auth" -F name="Manual" -F description="Product manual" -F type=pdf -F file=@manual.pdf \
  "$BASE/user/knowledgebases/$KB/documents"

# A website: the main URL and up to 5 same-site links.
curl -sS -H "$auth" -H "Content-Type: application/json" \
  -d '{"name":"Help centre","type":"website","url":"https://example.com/help","relative_links_limit":5}' \
  "$BASE/user/knowledgebases/$KB/documents"

# Exactly these pages.
curl -sS -H "$auth" -H "Content-Type: application/json" \
  -d '{"name":"Pricing","type":"website","links":[{"link":"https://example.com/pricing"}]}' \
  "$BASE/user/knowledgebases/$KB/documents"

curl -sS -H "$auth" "$BASE/user/knowledgebases/$KB/documents"
curl -sS -X PUT -H "$auth" -H "Content-Type: application/json" -d '{"name":"Manual v2"}' \
  "$BASE/user/knowledgebases/$KB/documents/1"
curl -sS -X DELETE -H "$auth" "$BASE/user/knowledgebases/$KB/documents/1"
