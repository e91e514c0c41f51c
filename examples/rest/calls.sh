#!/usr/bin/env bash
# Calls over the REST API: place one with the first assistant, then list. Usage: VOXGATE_TOKEN=vgk_... ./calls.sh
# The simulated carrier (the default) answers any number; see docs/calls.md for its test numbers.
source "$(dirname "$0")/lib.sh"

assistants=$(call GET "/user/assistants/get?per_page=1")
assistant_id=$(field "$assistants" data.0.id)
call POST /user/make_call "{\"assistant_id\": $assistant_id, \"phone_number\": \"+14155550199\"}"

call GET "/user/calls?per_page=5"
call GET "/user/calls?type=outbound&status=initiated&date_from=2026-01-01"
