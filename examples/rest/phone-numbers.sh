#!/usr/bin/env bash
# Phone numbers over the REST API. Usage: VOXGATE_TOKEN=vgk_... ./phone-numbers.sh
# Releasing one is not undoable: it runs only with VOXGATE_RELEASE_NUMBER_ID=<id>.
source "$(dirname "$0")/lib.sh"

call GET /user/phone-numbers/all
call GET /user/phone-numbers # legacy: SMS-capable numbers with an active subscription
if [ -n "${VOXGATE_RELEASE_NUMBER_ID:-}" ]; then
  call DELETE "/user/phone-numbers/$VOXGATE_RELEASE_NUMBER_ID"
fi
