#!/usr/bin/env bash
# Assistants over the REST API (created and changed over GraphQL). Usage: VOXGATE_TOKEN=vgk_... ./assistants.sh
source "$(dirname "$0")/lib.sh"

call GET "/user/assistants/get?per_page=5&page=1"
