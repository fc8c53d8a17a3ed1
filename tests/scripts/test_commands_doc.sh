#!/bin/sh
# docs/commands.md is generated from the grammar: it must be in step with it.
# If this fails, run `make docs` and commit the result.
set -e
root=$(cd "$(dirname "$0")/../.." && pwd)
"$1" commands | diff -u "$root/docs/commands.md" -
