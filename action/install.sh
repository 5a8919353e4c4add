#!/usr/bin/env bash
# The worldcook GitHub Action's install step (action.yml).
#
#   install.sh find    which worldcook to run: the project's own (an npm
#                      devDependency, node_modules/.bin/worldcook), else
#                      one on PATH; writes path=… to $GITHUB_OUTPUT, or
#                      build=true when there is none
#   install.sh build   builds worldcook from the action's checkout (the
#                      ref the workflow names) into $RUNNER_TEMP; writes
#                      path=… to $GITHUB_OUTPUT
set -euo pipefail

out=${GITHUB_OUTPUT:?GITHUB_OUTPUT is not set: run this from action.yml, or set it to a file}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

case "${1:-}" in
find)
  for exe in worldcook worldcook.cmd; do
    local_bin="${GITHUB_WORKSPACE:-.}/node_modules/.bin/$exe"
    if [ -x "$local_bin" ]; then
      echo "worldcook: using the project's $local_bin"
      echo "path=$local_bin" >>"$out"
      exit 0
    fi
  done
  if found=$(command -v worldcook); then
    echo "worldcook: using $found"
    echo "path=$found" >>"$out"
    exit 0
  fi
  echo "worldcook: not installed in the project (npm install --save-dev worldcook) nor on PATH; building it from the action's checkout"
  echo "build=true" >>"$out"
  ;;
build)
  dir="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/worldcook-action"
  exe=worldcook
  case "$(go env GOOS)" in windows) exe=worldcook.exe ;; esac
  # An action is fetched without its git history: a release tag it is
  # used at is the version the binary says.
  ldflags=""
  if [[ "${GITHUB_ACTION_REF:-}" =~ ^v[0-9]+\.[0-9]+\.[0-9]+ ]]; then
    ldflags="-X github.com/worldcook/worldcook/cmd.version=$GITHUB_ACTION_REF"
  fi
  # Built as make npm builds the packages' binaries (static, -trimpath).
  (cd "$here" && CGO_ENABLED=0 go build -trimpath -buildvcs=auto -ldflags="-s -w $ldflags" -o "$dir/$exe" .)
  echo "worldcook: built $("$dir/$exe" --version)"
  echo "path=$dir/$exe" >>"$out"
  ;;
*)
  echo "usage: install.sh find|build" >&2
  exit 2
  ;;
esac
