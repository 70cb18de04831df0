#!/usr/bin/env bash
# Replays docker/Dockerfile without a Docker engine, on a clean copy, and starts what it builds:
#   1. static: multi-stage on one Node major (the one this machine runs), non-root USER,
#      HEALTHCHECK, STOPSIGNAL SIGTERM, exec-form CMD, NODE_ENV=production, VOLUME, EXPOSE;
#      .dockerignore keeps every git-ignored file out; compose has no literal secret and the
#      same probe as the image.
#   2. build: the files .dockerignore lets into the context go to a temp dir; each stage's
#      COPY and RUN instructions are replayed in order (apt-get lines: the tools must exist).
#   3. runtime: exactly what the last stage COPYs, nothing dev-only in it, started with the
#      image's CMD and ENV as an unprivileged user (when run as root) that may write only
#      data/, once on the default SQLite file and once on a throwaway MariaDB database
#      (migrated first by `npm run migration:run`, as a one-off job would).
#   4. each start: the HEALTHCHECK command fails before the start and passes within 60 s;
#      /v1 answers 401 without a key and 200 with one; after SIGTERM readiness answers 503 and
#      the process exits 0 within the compose file's stop_grace_period.
# Reads the Dockerfile, so it cannot drift from it: an instruction it cannot replay fails it.
# Exit status 0 only when every step passed. Takes about 2 minutes on 2 cores, nearly all of it
# npm ci compiling better-sqlite3 from source. Touches nothing in the repository.
set -euo pipefail
umask 022

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dockerfile="$repo/docker/Dockerfile"
compose="$repo/docker/docker-compose.yml"
mariadb_url="${TEST_MARIADB_URL:-mariadb://root@127.0.0.1:3306}"
ready_bound=60
# npm reads its configuration and cache from HOME; CI may run without one.
home="${HOME:-$(getent passwd "$(id -u)" | cut -d: -f6)}"

started=$SECONDS
work=$(mktemp -d "${TMPDIR:-/tmp}/check-image.XXXXXX")
chmod 755 "$work"
service_pid=""
database=""

say() { printf 'check-image: %s\n' "$*"; }
fail() {
  printf 'check-image: FAILED: %s\n' "$*" >&2
  exit 1
}

mariadb_sql() {
  node -e '
const u = new URL(process.argv[1]);
const args = [`--host=${u.hostname}`, `--port=${u.port || 3306}`, `--user=${decodeURIComponent(u.username)}`];
if (u.password) args.push(`--password=${decodeURIComponent(u.password)}`);
const sql = ["--batch", "--skip-column-names", "-e", process.argv[2]];
require("child_process").execFileSync("mariadb", [...args, ...sql], { stdio: "inherit" });
' "$mariadb_url" "$1"
}

cleanup() {
  if [ -n "$service_pid" ] && kill -0 "$service_pid" 2>/dev/null; then
    kill -KILL "$service_pid" 2>/dev/null || true
    wait "$service_pid" 2>/dev/null || true
  fi
  if [ -n "$database" ]; then
    mariadb_sql "DROP DATABASE IF EXISTS \`$database\`" || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# --- reading the Dockerfile ------------------------------------------------------------------

# One line per instruction: "<stage name>\t<KEYWORD>\t<arguments>", continuations joined,
# comments dropped, ARG defaults substituted into FROM.
read_dockerfile() {
  node - "$dockerfile" <<'NODE'
const text = require('fs').readFileSync(process.argv[2], 'utf8');
const args = {};
let stage = null;
let stages = 0;
let pending = '';
for (const raw of text.split(/\r?\n/)) {
  const line = raw.trim();
  if (line.startsWith('#') || (pending === '' && line === '')) continue;
  if (line.endsWith('\\')) {
    pending += line.slice(0, -1) + ' ';
    continue;
  }
  const full = (pending + line).trim();
  pending = '';
  const [, word, rest] = /^(\S+)\s*(.*)$/.exec(full);
  const keyword = word.toUpperCase();
  if (keyword === 'ARG' && stage === null) {
    const [name, value = ''] = rest.split('=');
    args[name.trim()] = value.trim();
    continue;
  }
  if (keyword === 'FROM') {
    const from = rest.replace(/\$\{?(\w+)\}?/g, (_, name) => args[name] ?? '');
    const [image, as, name] = from.split(/\s+/);
    if (!image || (as && (as.toUpperCase() !== 'AS' || !name))) throw new Error(`bad FROM: ${full}`);
    stage = name ?? `stage${stages}`;
    stages += 1;
    console.log(`${stage}\tFROM\t${image}`);
    continue;
  }
  if (stage === null) throw new Error(`instruction before FROM: ${full}`);
  console.log(`${stage}\t${keyword}\t${rest}`);
}
NODE
}

# An exec-form JSON array, one element per NUL-terminated record.
json_words() {
  node -e 'for (const word of JSON.parse(process.argv[1])) process.stdout.write(`${word}\0`)' "$1"
}

instruction() { # instruction STAGE KEYWORD → the arguments of the last such instruction
  awk -F '\t' -v s="$1" -v k="$2" '$1 == s && $2 == k { last = $0; sub(/^[^\t]*\t[^\t]*\t/, "", last) } END { print last }' <<<"$plan"
}

# --- 1. static checks --------------------------------------------------------------------------

say "reading docker/Dockerfile"
plan=$(read_dockerfile) || fail "docker/Dockerfile could not be read"
mapfile -t stages < <(awk -F '\t' '$2 == "FROM" { print $1 }' <<<"$plan")
mapfile -t images < <(awk -F '\t' '$2 == "FROM" { print $3 }' <<<"$plan")
[ "${#stages[@]}" -ge 2 ] || fail "the Dockerfile must be multi-stage (build, then runtime)"
unknown=$(awk -F '\t' '$2 !~ /^(FROM|WORKDIR|ENV|COPY|RUN|USER|VOLUME|EXPOSE|HEALTHCHECK|STOPSIGNAL|CMD)$/ { print $2 }' <<<"$plan")
[ -z "$unknown" ] || fail "check-image.sh cannot replay ${unknown//$'\n'/ }; teach it or avoid it"
final=${stages[-1]}
local_major=$(node -p 'process.versions.node.split(".")[0]')
for image in "${images[@]}"; do
  [[ "$image" =~ ^node:([0-9]+)[-.] ]] || fail "base image $image is not an official node image"
  [ "${BASH_REMATCH[1]}" = "$local_major" ] ||
    fail "base image $image is Node ${BASH_REMATCH[1]}, this machine (which replays it) runs Node $local_major"
done

image_user=$(instruction "$final" USER)
[ -n "$image_user" ] || fail "the runtime stage needs a USER"
[[ "$image_user" =~ ^(root|0)(:.*)?$ ]] && fail "the runtime stage runs as root"
healthcheck=$(instruction "$final" HEALTHCHECK)
[[ "$healthcheck" =~ ^(--[a-z-]+=[^\ ]+\ +)*CMD\ +(\[.*\])$ ]] ||
  fail "the runtime stage needs an exec-form HEALTHCHECK [--option=value...] CMD [...]"
mapfile -d '' -t probe < <(json_words "${BASH_REMATCH[2]}")
[[ "$healthcheck" =~ --timeout=([0-9]+s) ]] && probe_timeout=${BASH_REMATCH[1]} || probe_timeout=30s
[ "$(instruction "$final" STOPSIGNAL)" = "SIGTERM" ] || fail "the runtime stage needs STOPSIGNAL SIGTERM"
cmd_json=$(instruction "$final" CMD)
[[ "$cmd_json" =~ ^\[.*\]$ ]] || fail "CMD must be in exec form, [\"node\", ...], so node gets SIGTERM"
mapfile -d '' -t cmd < <(json_words "$cmd_json")
[ "${cmd[0]}" = "node" ] || fail "CMD must start node itself, found ${cmd[0]}"
grep -qP "^$final\tENV\t(.* )?NODE_ENV=production( |$)" <<<"$plan" || fail "the runtime stage needs ENV NODE_ENV=production"
[ -n "$(instruction "$final" VOLUME)" ] || fail "the runtime stage needs a VOLUME for the SQLite data"
[ -n "$(instruction "$final" EXPOSE)" ] || fail "the runtime stage needs EXPOSE"

grep -q -- '- -e' "$compose" || fail "docker/docker-compose.yml: no node -e healthcheck for the service"
compose_probe=$(grep -A1 -- '- -e' "$compose" | tail -1 | sed -E 's/^ *- *//')
[ "$(node -p 'JSON.parse(process.argv[1])' "$compose_probe")" = "${probe[2]}" ] ||
  fail "the compose healthcheck differs from the Dockerfile's HEALTHCHECK"
if grep -nE '^\s*[A-Z_]*(PASSWORD|API_KEYS)[A-Z_]*:' "$compose" | grep -v '\${'; then
  fail "docker/docker-compose.yml sets a secret literally; take it from the environment"
fi
grace=$(sed -nE 's/^\s*stop_grace_period:\s*([0-9]+)s\s*$/\1/p' "$compose")
[ -n "$grace" ] || fail "docker/docker-compose.yml needs stop_grace_period: <N>s for the service"

# The build context: files git knows (tracked, or new and not ignored) that .dockerignore lets
# through. Everything git ignores (node_modules, dist, data, .env, …) must stay out as well,
# since a real build context is the whole folder.
say "building the context from .dockerignore"
context="$work/context"
mkdir -p "$context"
(
  cd "$repo"
  git ls-files -z --cached --others --exclude-standard
  printf '\1'
  git ls-files -z --others --ignored --exclude-standard --directory
) | node -e '
const fs = require("fs");
const [tracked, ignored] = fs.readFileSync(0, "latin1").split("\x01");
const paths = (list) => list.split("\0").filter(Boolean).map((p) => p.replace(/\/$/, ""));
const rules = fs.readFileSync(process.argv[1], "utf8").split(/\r?\n/)
  .map((line) => line.trim()).filter((line) => line && !line.startsWith("#"))
  .map((line) => {
    const keep = line.startsWith("!");
    const pattern = (keep ? line.slice(1) : line).replace(/^\.?\//, "").replace(/\/$/, "");
    const body = pattern.split(/(\*\*\/|\*\*|\*|\?)/).map((part) =>
      part === "**/" ? "(.*/)?" : part === "**" ? ".*" : part === "*" ? "[^/]*" :
      part === "?" ? "[^/]" : part.replace(/[.+^${}()|[\]\\]/g, "\\$&")).join("");
    return { keep, regex: new RegExp(`^${body}$`) };
  });
// Docker: a pattern also matches every path below a matching folder; the last match decides.
const excluded = (path) => {
  const parents = path.split("/").map((_, i, parts) => parts.slice(0, i + 1).join("/"));
  let out = false;
  for (const rule of rules) if (parents.some((p) => rule.regex.test(p))) out = !rule.keep;
  return out;
};
const leaked = paths(ignored).filter((p) => !excluded(p));
if (leaked.length) {
  console.error(`git-ignored files the build context would take in: ${leaked.join(", ")}`);
  process.exit(1);
}
const root = require("path").dirname(process.argv[1]);
const kept = paths(tracked).filter((p) => fs.existsSync(`${root}/${p}`) && !excluded(p));
process.stdout.write(Buffer.from(kept.join("\0"), "latin1"));
' "$repo/.dockerignore" >"$work/context.list" 2>"$work/context.err" ||
  fail "$(cat "$work/context.err")"
rsync -a --from0 --files-from="$work/context.list" "$repo/" "$context/"
say "context: $(tr -cd '\0' <"$work/context.list" | wc -c) files"

# --- 2. and 3. replaying the stages ------------------------------------------------------------

if [ "$(id -u)" = 0 ]; then
  run_as=(setpriv --reuid=65534 --regid=65534 --clear-groups)
  owner="65534:65534"
else
  run_as=()
  owner="$(id -u):$(id -g)"
fi
declare -A stage_dir stage_workdir
declare -a runtime_env=()

replay_stage() { # replay_stage NAME DIR
  local name=$1 dir=$2 workdir="/" stage keyword rest env=() pairs
  mkdir -p "$dir"
  stage_dir[$name]=$dir
  while IFS=$'\t' read -r stage keyword rest; do
    [ "$stage" = "$name" ] || continue
    case $keyword in
      FROM | USER | VOLUME | EXPOSE | HEALTHCHECK | STOPSIGNAL | CMD) ;;
      WORKDIR)
        workdir=$rest
        stage_workdir[$name]=$rest
        ;;
      ENV)
        [[ "$rest" =~ ^([A-Za-z_][A-Za-z0-9_]*=[^\ \"\']*(\ +|$))+$ ]] || fail "ENV must be KEY=value pairs: $rest"
        read -r -a pairs <<<"$rest"
        env+=("${pairs[@]}")
        ;;
      COPY) copy "$dir" "$workdir" "$rest" ;;
      RUN) run "$dir" "$workdir" "$rest" "${env[@]}" ;;
    esac
  done <<<"$plan"
  [ "$name" != "$final" ] || runtime_env=("${env[@]}")
}

inside() { # inside DIR WORKDIR PATH → PATH of the image mapped into DIR
  local dir=$1 workdir=$2 path=$3
  [[ "$path" = /* ]] || path="${workdir%/}/$path"
  [[ "$path/" = "${workdir%/}/"* ]] || fail "path $path is outside WORKDIR $workdir"
  printf '%s%s' "$dir" "${path#"${workdir%/}"}"
}

copy() { # copy DIR WORKDIR "ARGS": COPY [--from=stage] [--chown=user:group] SRC... DEST
  local dir=$1 workdir=$2 from="" chown="" words source
  read -r -a words <<<"$3"
  while [[ "${words[0]}" = --* ]]; do
    case ${words[0]} in
      --from=*) from=${words[0]#--from=} ;;
      --chown=*) chown=${words[0]#--chown=} ;;
      *) fail "COPY ${words[0]} is not replayed" ;;
    esac
    words=("${words[@]:1}")
  done
  local target=${words[-1]} dest
  dest=$(inside "$dir" "$workdir" "$target")
  unset 'words[-1]'
  for source in "${words[@]}"; do
    if [ -n "$from" ]; then
      [ -n "${stage_dir[$from]:-}" ] || fail "COPY --from=$from: no such earlier stage"
      source=$(inside "${stage_dir[$from]}" "${stage_workdir[$from]:-/}" "$source")
    else
      source="$context/$source"
    fi
    [ -e "$source" ] || fail "COPY: $source is not there (left out by .dockerignore?)"
    if [ -d "$source" ]; then
      mkdir -p "$dest"
      cp -a "$source/." "$dest/"
    elif [[ "$target" = */ || ${#words[@]} -gt 1 || -d "$dest" ]]; then
      mkdir -p "$dest"
      cp -a "$source" "$dest/"
    else
      mkdir -p "$(dirname "$dest")"
      cp -a "$source" "$dest"
    fi
  done
  [ -z "$chown" ] || chown -R "$owner" "$dest"
}

run() { # run DIR WORKDIR "SCRIPT" ENV...: RUN in the stage's WORKDIR, image paths mapped into DIR
  local dir=$1 workdir=$2 text=$3 script=$3
  shift 3
  if [[ "$script" = apt-get* ]]; then
    # System packages of the image: here they must already be installed.
    local package
    for package in $(sed -nE 's/.*apt-get install ([^&]*).*/\1/p' <<<"$script"); do
      [[ "$package" = -* ]] || command -v "$package" >/dev/null || fail "$package is needed to build and missing"
    done
    return
  fi
  # The image's user becomes the one the runtime is replayed as; WORKDIR becomes DIR.
  script=${script//"$image_user:$image_user"/$owner}
  [ "$workdir" = / ] || script=${script//"$workdir"/$dir}
  say "RUN $text"
  (cd "$dir" && env -i PATH="$PATH" HOME="$home" "$@" bash -c "$script") || fail "RUN $text"
}

build_started=$SECONDS
for name in "${stages[@]}"; do
  [ "$name" = "$final" ] || replay_stage "$name" "$work/$name"
done
build_seconds=$((SECONDS - build_started))
runtime="$work/runtime"
replay_stage "$final" "$runtime"
app=$(inside "$runtime" "${stage_workdir[$final]:-/}" "${stage_workdir[$final]:-/}")

# Packages the lock file marks dev-only must not be in the runtime's node_modules.
dev_only=$(node -e '
const lock = require(process.argv[1]);
console.log(Object.entries(lock.packages)
  .filter(([path, meta]) => path && meta.dev && require("fs").existsSync(`${process.argv[2]}/${path}`))
  .map(([path]) => path).slice(0, 5).join(" "));
' "$context/package-lock.json" "$app")
[ -z "$dev_only" ] || fail "the runtime holds dev-only packages: $dev_only"
[ ! -e "$app/src" ] || fail "the runtime holds the TypeScript sources"
[ -e "$app/${cmd[1]}" ] || fail "CMD runs ${cmd[1]}, which the runtime does not hold"
say "runtime: $(du -sh "$app" | cut -f1), no dev dependencies; build took ${build_seconds} s"

# --- 4. starting it ---------------------------------------------------------------------------

mkdir -p "$work/home"
chown "$owner" "$work/home"
api_key=$(node -p 'require("crypto").randomBytes(24).toString("hex")')
port=$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')

# in_image ENV... -- COMMAND...: as the image's user, in WORKDIR, with only the image's ENV.
# It execs, so call it in a subshell: `(in_image …)`, or `in_image … &` whose $! is then the
# command's own process id.
in_image() {
  local env=()
  while [ "$1" != -- ]; do
    env+=("$1")
    shift
  done
  shift
  cd "$app"
  exec "${run_as[@]}" env -i PATH="$PATH" HOME="$work/home" "${runtime_env[@]}" "${env[@]}" "$@"
}

status_of() { # status_of PATH [HEADER] → the HTTP status, 000 when nothing answers
  local header=()
  [ $# -lt 2 ] || header=(-H "$2")
  curl -s -o /dev/null -w '%{http_code}' --max-time 5 "${header[@]}" "http://127.0.0.1:$port$1" || true
}

start_and_stop() { # start_and_stop LABEL ENV...
  local label=$1 log="$work/$1.log" ready=0 start=$SECONDS stop status code
  shift
  local env=(PORT="$port" API_KEYS="$api_key" "$@")
  local probe_env=(PORT="$port")

  if (in_image "${probe_env[@]}" -- timeout "$probe_timeout" "${probe[@]}"); then
    fail "$label: the HEALTHCHECK passes with nothing listening"
  fi
  in_image "${env[@]}" -- "${cmd[@]}" >"$log" 2>&1 &
  service_pid=$!
  while [ $((SECONDS - start)) -lt "$ready_bound" ]; do
    kill -0 "$service_pid" 2>/dev/null || { tail -n 30 "$log" >&2; fail "$label: the service exited during start-up"; }
    if (in_image "${probe_env[@]}" -- timeout "$probe_timeout" "${probe[@]}"); then
      ready=1
      break
    fi
    sleep 1
  done
  [ "$ready" = 1 ] || { tail -n 30 "$log" >&2; fail "$label: HEALTHCHECK did not pass within ${ready_bound} s"; }
  say "$label: ready after $((SECONDS - start)) s"

  code=$(status_of /health)
  [ "$code" = 200 ] || fail "$label: GET /health answered $code"
  code=$(status_of /v1/client/all)
  [ "$code" = 401 ] || fail "$label: GET /v1/client/all without a key answered $code, not 401"
  code=$(status_of /v1/client/all "X-API-Key: $api_key")
  [ "$code" = 200 ] || fail "$label: GET /v1/client/all with a key answered $code, not 200"
  code=$(status_of /v1/client/all "Authorization: Bearer $api_key")
  [ "$code" = 200 ] || fail "$label: GET /v1/client/all with a bearer key answered $code, not 200"

  stop=$SECONDS
  kill -TERM "$service_pid"
  # The signal is handled between two turns of the event loop: allow it a moment, well within
  # the default 5 s drain during which the listener still answers.
  for _ in $(seq 1 20); do
    code=$(status_of /health/ready)
    [ "$code" != 200 ] && break
    sleep 0.1
  done
  [ "$code" = 503 ] || fail "$label: GET /health/ready answered $code after SIGTERM, not 503"
  while kill -0 "$service_pid" 2>/dev/null && [ $((SECONDS - stop)) -le "$grace" ]; do
    sleep 0.2
  done
  if kill -0 "$service_pid" 2>/dev/null; then
    tail -n 30 "$log" >&2
    fail "$label: still running ${grace} s after SIGTERM (the stop_grace_period)"
  fi
  status=0
  wait "$service_pid" || status=$?
  service_pid=""
  [ "$status" = 0 ] || { tail -n 30 "$log" >&2; fail "$label: exited $status after SIGTERM, not 0"; }
  say "$label: SIGTERM → exit 0 in $((SECONDS - stop)) s"
}

# The image's own default: data/invoicing.sqlite under WORKDIR, in the volume.
start_and_stop sqlite
[ -s "$app/data/invoicing.sqlite" ] || fail "sqlite: no database file in the data folder"

if mariadb_sql 'SELECT 1' >/dev/null 2>&1; then
  database="invoicing_test_image_$(node -p 'require("crypto").randomBytes(4).toString("hex")')"
  mariadb_sql "CREATE DATABASE \`$database\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci"
  database_url="${mariadb_url%/}/$database"
  # A migration job needs the database and nothing else, even with NODE_ENV=production.
  (in_image DATABASE_URL="$database_url" -- npm run --silent migration:run) \
    >"$work/migration.log" 2>&1 || { cat "$work/migration.log" >&2; fail "mariadb: npm run migration:run failed"; }
  migrations=$(find "$context/src/database/migrations/mysql" -name '[0-9]*.ts' | wc -l)
  recorded=$(mariadb_sql "SELECT COUNT(*) FROM \`$database\`.migrations")
  if [ "$migrations" -eq 0 ] || [ "$recorded" != "$migrations" ]; then
    fail "mariadb: migration:run recorded $recorded migrations, the sources hold $migrations"
  fi
  start_and_stop mariadb DATABASE_URL="$database_url"
elif [ -n "${CI:-}" ]; then
  fail "MariaDB does not answer at $mariadb_url"
else
  say "MariaDB does not answer at $mariadb_url: its run is left out"
fi

say "OK in $((SECONDS - started)) s"
