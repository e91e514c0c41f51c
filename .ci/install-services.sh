#!/usr/bin/env bash
# Installs (never starts) the services the server's integration tests use:
#   - PostgreSQL 15 server + client (Debian packages)
#   - pgvector for PostgreSQL 15, built from Debian's source package
#     (bookworm ships no pgvector binary for PG 15)
#   - redis-server
#   - chromium (for browser tests)
#   - radicale (a CalDAV server for calendar tests)
#   - espeak-ng and sox (speech and noise for the voice detector tests)
#
# Run as root on Debian bookworm. Idempotent: when everything is already
# present it only checks files and exits (well under 2 s, no network).
# Needs only the Debian mirror configured in /etc/apt/sources.list*.
#
# Environment overrides (optional):
#   DEBIAN_MIRROR          mirror URI for the pgvector source (default: the one apt uses for bookworm)
#   PGVECTOR_SOURCE_SUITE  Debian suite to take the pgvector source from (default: trixie)
set -euo pipefail

PG_MAJOR=15
PG_BIN="/usr/lib/postgresql/${PG_MAJOR}/bin"
PGVECTOR_SOURCE_SUITE="${PGVECTOR_SOURCE_SUITE:-trixie}"
POLICY_RC=/usr/sbin/policy-rc.d

log() { printf '[install-services] %s\n' "$*"; }
die() { printf '[install-services] ERROR: %s\n' "$*" >&2; exit 1; }

[[ "$(id -u)" -eq 0 ]] || die "must run as root"
command -v apt-get >/dev/null || die "apt-get not found (Debian required)"

# ---------------------------------------------------------------------------
# What is missing?
# ---------------------------------------------------------------------------
pg_ext_dir() {
  local sharedir="/usr/share/postgresql/${PG_MAJOR}"
  if [[ -x "${PG_BIN}/pg_config" ]]; then
    sharedir="$("${PG_BIN}/pg_config" --sharedir)"
  fi
  printf '%s/extension\n' "$sharedir"
}
pg_lib_dir() {
  if [[ -x "${PG_BIN}/pg_config" ]]; then
    "${PG_BIN}/pg_config" --pkglibdir
  else
    printf '/usr/lib/postgresql/%s/lib\n' "$PG_MAJOR"
  fi
}

need_pg=0
for b in initdb pg_ctl postgres psql; do
  [[ -x "${PG_BIN}/${b}" ]] || need_pg=1
done
command -v psql >/dev/null || need_pg=1

need_vector=0
if [[ ! -f "$(pg_ext_dir)/vector.control" || ! -f "$(pg_lib_dir)/vector.so" ]]; then
  need_vector=1
fi

need_redis=0
command -v redis-server >/dev/null || [[ -x /usr/bin/redis-server ]] || need_redis=1
command -v redis-cli >/dev/null || [[ -x /usr/bin/redis-cli ]] || need_redis=1

need_chromium=0
[[ -x /usr/bin/chromium ]] || need_chromium=1

need_radicale=0
command -v radicale >/dev/null || [[ -x /usr/bin/radicale ]] || need_radicale=1

need_speech=0
command -v espeak-ng >/dev/null && command -v sox >/dev/null || need_speech=1

if (( need_pg + need_vector + need_redis + need_chromium + need_radicale + need_speech == 0 )); then
  log "postgresql-${PG_MAJOR}, pgvector, redis-server, chromium, radicale, espeak-ng, sox: already installed"
  exit 0
fi

# ---------------------------------------------------------------------------
# Scratch space, and a policy-rc.d that keeps package scripts from starting
# services (restored on exit).
# ---------------------------------------------------------------------------
WORK="$(mktemp -d /tmp/voxgate-install-services.XXXXXX)"
POLICY_BACKUP=""
POLICY_INSTALLED=0
cleanup() {
  local rc=$?
  if (( POLICY_INSTALLED )); then
    if [[ -n "$POLICY_BACKUP" ]]; then
      mv -f "$POLICY_BACKUP" "$POLICY_RC"
    else
      rm -f "$POLICY_RC"
    fi
  fi
  rm -rf "$WORK"
  exit "$rc"
}
trap cleanup EXIT

if [[ -e "$POLICY_RC" ]]; then
  POLICY_BACKUP="$WORK/policy-rc.d.orig"
  cp -p "$POLICY_RC" "$POLICY_BACKUP"
fi
printf '#!/bin/sh\nexit 101\n' >"$POLICY_RC"
chmod 0755 "$POLICY_RC"
POLICY_INSTALLED=1

export DEBIAN_FRONTEND=noninteractive
APT_INSTALL=(apt-get install -y -qq --no-install-recommends
  -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold)

run_quiet() { # run_quiet <logname> cmd...: hide output unless it fails
  local logf="$WORK/$1.log"; shift
  if ! "$@" >"$logf" 2>&1; then
    printf '[install-services] command failed: %s\n' "$*" >&2
    tail -n 40 "$logf" >&2
    return 1
  fi
}

stop_pg_clusters() { # stop Debian-managed clusters that are running
  command -v pg_lsclusters >/dev/null || return 0
  local ver name _port status _rest
  while read -r ver name _port status _rest; do
    if [[ "$status" == online* ]]; then
      log "stopping running cluster ${ver}/${name}"
      pg_ctlcluster "$ver" "$name" stop -m fast || true
    fi
  done < <(pg_lsclusters --no-header 2>/dev/null || true)
}

# ---------------------------------------------------------------------------
# Packages
# ---------------------------------------------------------------------------
log "apt-get update"
run_quiet apt-update apt-get update -qq

pkgs=()
(( need_pg )) && pkgs+=("postgresql-${PG_MAJOR}" "postgresql-client-${PG_MAJOR}")
# Headers and server must be the same minor version: install them together
# (this upgrades an older postgresql-15).
(( need_vector )) && pkgs+=("postgresql-${PG_MAJOR}" "postgresql-server-dev-${PG_MAJOR}" make gcc libc6-dev ca-certificates)
(( need_redis )) && pkgs+=(redis-server redis-tools)
(( need_chromium )) && pkgs+=(chromium)
(( need_radicale )) && pkgs+=(radicale)
(( need_speech )) && pkgs+=(espeak-ng sox)

if (( ${#pkgs[@]} )); then
  stop_pg_clusters
  mapfile -t uniq_pkgs < <(printf '%s\n' "${pkgs[@]}" | sort -u)
  log "apt-get install ${uniq_pkgs[*]}"
  run_quiet apt-install "${APT_INSTALL[@]}" "${uniq_pkgs[@]}"
fi

for b in initdb pg_ctl postgres psql; do
  [[ -x "${PG_BIN}/${b}" ]] || die "${PG_BIN}/${b} missing after install"
done

# ---------------------------------------------------------------------------
# pgvector from Debian's source package
# ---------------------------------------------------------------------------
debian_mirror() {
  if [[ -n "${DEBIAN_MIRROR:-}" ]]; then printf '%s\n' "${DEBIAN_MIRROR%/}"; return; fi
  local codename
  # shellcheck source=/dev/null
  codename="$(. /etc/os-release && printf '%s' "${VERSION_CODENAME:-bookworm}")"
  local uri=""
  # deb822 *.sources files: first enabled "deb" stanza whose Suites list the codename
  shopt -s nullglob
  local f
  for f in /etc/apt/sources.list.d/*.sources; do
    uri="$(awk -v cn="$codename" '
      function flush() {
        if (!found && types ~ /(^|[ \t])deb([ \t]|$)/ && enabled != "no" && uris != "" &&
            (" " suites " ") ~ (" " cn " ")) { n = split(uris, a, /[ \t]+/); print a[1]; found = 1 }
        types = suites = uris = enabled = ""
      }
      /^[ \t]*#/ { next }
      /^[ \t]*$/ { flush(); next }
      { key = tolower($1); val = $0; sub(/^[^:]*:[ \t]*/, "", val); gsub(/\t/, " ", val) }
      key == "types:"   { types = val }
      key == "uris:"    { uris = val }
      key == "suites:"  { suites = val }
      key == "enabled:" { enabled = tolower(val) }
      END { flush() }' "$f")"
    [[ -n "$uri" ]] && break
  done
  # one-line format: deb [opts] URI SUITE COMPONENTS...
  if [[ -z "$uri" ]]; then
    local lists=()
    [[ -f /etc/apt/sources.list ]] && lists+=(/etc/apt/sources.list)
    lists+=(/etc/apt/sources.list.d/*.list)
    if (( ${#lists[@]} )); then
      uri="$(sed -E -e 's/#.*//' -e 's/\[[^]]*\]//' "${lists[@]}" |
        awk -v cn="$codename" '$1 == "deb" && $3 == cn { print $2; exit }')"
    fi
  fi
  shopt -u nullglob
  [[ -n "$uri" ]] || die "cannot find the Debian mirror for ${codename} in /etc/apt/sources.list*; set DEBIAN_MIRROR"
  printf '%s\n' "${uri%/}"
}

if (( need_vector )); then
  mirror="$(debian_mirror)"
  log "fetching pgvector source (${PGVECTOR_SOURCE_SUITE}) from ${mirror}"
  # A private apt configuration: only a deb-src line for the source suite,
  # with its own lists/cache, so the system's apt setup is left untouched.
  mkdir -p "$WORK/apt/lists/partial" "$WORK/apt/cache/archives/partial" "$WORK/apt/parts" "$WORK/src"
  cat >"$WORK/apt/src.sources" <<EOF
Types: deb-src
URIs: ${mirror}
Suites: ${PGVECTOR_SOURCE_SUITE}
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
  SRC_APT=(-o "Dir::Etc::SourceList=$WORK/apt/src.sources"
           -o "Dir::Etc::SourceParts=$WORK/apt/parts"
           -o "Dir::State::Lists=$WORK/apt/lists"
           -o "Dir::Cache=$WORK/apt/cache")
  run_quiet apt-src-update apt-get "${SRC_APT[@]}" update -qq
  chown _apt "$WORK/src" 2>/dev/null || true  # apt downloads as _apt
  # apt-get source checks the files against the signed Sources index.
  (cd "$WORK/src" && run_quiet apt-source apt-get "${SRC_APT[@]}" source --download-only -qq pgvector)
  orig=("$WORK"/src/pgvector_*.orig.tar.*)
  [[ -f "${orig[0]}" ]] || die "pgvector source tarball not downloaded"
  log "building pgvector ($(basename "${orig[0]}"))"
  mkdir -p "$WORK/build"
  tar -xf "${orig[0]}" -C "$WORK/build" --strip-components=1
  # OPTFLAGS="" : portable build (upstream defaults to -march=native), as Debian does.
  run_quiet pgvector-make make -C "$WORK/build" -j"$(nproc)" OPTFLAGS="" PG_CONFIG="${PG_BIN}/pg_config"
  run_quiet pgvector-install make -C "$WORK/build" install OPTFLAGS="" PG_CONFIG="${PG_BIN}/pg_config"
  [[ -f "$(pg_ext_dir)/vector.control" ]] || die "vector.control not installed in $(pg_ext_dir)"
  log "pgvector installed into $(pg_ext_dir)"
fi

# Package scripts were told not to start anything; make sure of it.
stop_pg_clusters
log "done"
