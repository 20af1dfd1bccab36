#!/usr/bin/env bash
# The Shiplog record action's step: the inputs (INPUT_*, SHIPLOG_*) as the shiplog CLI's options. The
# token stays in SHIPLOG_TOKEN (never an argument: a command line is visible to other processes).
set -euo pipefail

cli="${SHIPLOG_CLI:-$GITHUB_ACTION_PATH/../../cli/src/shiplog.ts}"
args=()
[[ -n "${INPUT_VERSION:-}" ]] && args+=(--version "$INPUT_VERSION")
[[ -n "${INPUT_NOTES:-}" ]] && args+=(--notes "$INPUT_NOTES")

case "${INPUT_KIND:-deploy}" in
  deploy)
    args+=(--env "${INPUT_ENVIRONMENT:-production}" --status "${INPUT_STATUS:-success}")
    [[ -n "${INPUT_URL:-}" ]] && args+=(--url "$INPUT_URL")
    ;;
  release)
    while IFS= read -r change; do
      [[ -n "${change// /}" ]] && args+=(--change "$change")
    done <<< "${INPUT_CHANGES:-}"
    ;;
  backup)
    [[ -n "${INPUT_LOCATION:-}" ]] && args+=(--location "$INPUT_LOCATION")
    ;;
  *)
    echo "::error title=Shiplog::kind must be deploy, release or backup, not \"${INPUT_KIND}\"" >&2
    exit 2
    ;;
esac

echo "::add-mask::${SHIPLOG_TOKEN}"
exec node "$cli" "${INPUT_KIND:-deploy}" ${args[@]+"${args[@]}"}
