#!/usr/bin/env bash
# API keys and login over the REST API. Usage: VOXGATE_TOKEN=vgk_... ./api-keys.sh
# Login and logout run when VOXGATE_EMAIL and VOXGATE_PASSWORD are set (the first start prints the demo's).
source "$(dirname "$0")/lib.sh"

# Create a key: the token is in this answer only.
created=$(call POST /user/api-keys '{"name":"Example key"}')
echo "$created"

# List the keys (never their tokens), then delete the one just created.
keys=$(call GET /user/api-keys)
echo "$keys"
id=$(field "$keys" api_keys.0.id) # newest first
call DELETE "/user/api-keys/$id"

if [ -n "${VOXGATE_EMAIL:-}" ] && [ -n "${VOXGATE_PASSWORD:-}" ]; then
  login=$(public_call POST /login "{\"email\":\"$VOXGATE_EMAIL\",\"password\":\"$VOXGATE_PASSWORD\"}")
  VOXGATE_TOKEN=$(field "$login" token) call POST /logout
fi
