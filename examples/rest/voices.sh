#!/usr/bin/env bash
# Voices over the REST API. Usage: VOXGATE_TOKEN=vgk_... ./voices.sh
source "$(dirname "$0")/lib.sh"

call GET /user/assistants/voices
call GET "/user/assistants/voices?mode=pipeline"
