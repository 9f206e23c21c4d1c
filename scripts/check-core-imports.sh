#!/bin/sh
# Domain packages under core/ never depend on the workflow engine: neither
# workflows/ nor the Temporal SDK, directly or through another package. Each
# domain hides Temporal behind a small interface of its own, and only the
# composition root (core/app and its test helpers under it) wires the engine
# in. Test files are not checked: a domain's test may drive the real engine.
set -eu
go=${GO:-go}
module=$($go list -m)
# Listed first, so that a package go cannot load fails the check too.
deps=$($go list -f '{{.ImportPath}}{{range .Deps}} {{.}}{{end}}' ./core/...)
violations=$(printf '%s\n' "$deps" | awk -v mod="$module" '
	$1 == mod "/core/app" || index($1, mod "/core/app/") == 1 { next }
	{
		for (i = 2; i <= NF; i++) {
			if ($i ~ /^go\.temporal\.io\// || $i == mod "/workflows" || index($i, mod "/workflows/") == 1) {
				print "  " $1 " depends on " $i
				next
			}
		}
	}')
if [ -n "$violations" ]; then
	echo "core/ packages other than core/app must not depend on workflows/ or the Temporal SDK:" >&2
	echo "$violations" >&2
	exit 1
fi
