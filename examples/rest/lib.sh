# Shared by every script here (sourced, not run). One convention for all of them:
#   VOXGATE_URL    the server, default http://127.0.0.1:4000 (what `npm start` serves)
#   VOXGATE_TOKEN  an API key (the first `npm start` prints the demo account's) or a session token
# Ids the scripts need are looked up through the API, so each runs as is against a fresh `npm start`.
set -euo pipefail
VOXGATE_URL="${VOXGATE_URL:-http://127.0.0.1:4000}"
API="$VOXGATE_URL/api"

# call METHOD PATH [JSON-BODY]: prints the answer; an HTTP error status stops the script (its body printed).
call() {
  local method=$1 path=$2
  local args=(-sS --fail-with-body -X "$method" -H "Authorization: Bearer ${VOXGATE_TOKEN:?set VOXGATE_TOKEN to an API key}")
  if [ $# -ge 3 ]; then args+=(-H 'Content-Type: application/json' -d "$3"); fi
  curl "${args[@]}" "$API$path"
  echo
}

# public_call METHOD PATH [JSON-BODY]: the same without a credential (the widget's endpoints).
public_call() {
  local method=$1 path=$2
  local args=(-sS --fail-with-body -X "$method")
  if [ $# -ge 3 ]; then args+=(-H 'Content-Type: application/json' -d "$3"); fi
  curl "${args[@]}" "$API$path"
  echo
}

# graphql QUERY [VARIABLES-JSON]: one GraphQL operation with the token; prints the answer.
graphql() {
  local body
  body=$(node -e 'console.log(JSON.stringify({query: process.argv[1], variables: JSON.parse(process.argv[2])}))' "$1" "${2:-{\}}")
  curl -sS --fail-with-body -H "Authorization: Bearer ${VOXGATE_TOKEN:?set VOXGATE_TOKEN to an API key}" \
    -H 'Content-Type: application/json' -d "$body" "$VOXGATE_URL/graphql"
  echo
}

# field JSON PATH: one value of an answer, by dotted path (`data.0.id`); empty when absent.
field() {
  node -e 'let v = JSON.parse(process.argv[1]); for (const k of process.argv[2].split(".")) v = v?.[k]; process.stdout.write(v == null ? "" : String(v))' "$1" "$2"
}
