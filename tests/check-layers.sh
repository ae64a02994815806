#!/usr/bin/env bash
# Fails when a source file includes a header of a layer above its own (docs/architecture.md):
# each folder under src/ is a layer, and a layer includes only itself and the layers below.
set -u
cd "$(dirname "$0")/../src" || exit 1
# Lowest first.
LAYERS=(base parse io column codec func format exec storage backup sql interp server cli)
rank() { local i; for i in "${!LAYERS[@]}"; do [ "${LAYERS[$i]}" = "$1" ] && { echo "$i"; return; }; done; echo -1; }
bad=0; files=0
while IFS= read -r f; do
  layer=${f%%/*}
  own=$(rank "$layer")
  if [ "$own" -lt 0 ]; then echo "layer check: $f is in an unknown layer '$layer' (add it to tests/check-layers.sh and docs/architecture.md)"; bad=$((bad+1)); continue; fi
  files=$((files+1))
  while IFS= read -r inc; do
    to=${inc%%/*}
    r=$(rank "$to")
    [ "$r" -lt 0 ] && continue
    if [ "$r" -gt "$own" ]; then
      echo "layer check: $f ($layer) includes $inc ($to is above $layer)"
      bad=$((bad+1))
    fi
  done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
done < <(find . -name '*.[ch]' | sed 's|^\./||' | sort)
echo "layers: $((files)) files checked, $bad violations"
echo "$((bad == 0 ? 1 : 0)) passed, $((bad == 0 ? 0 : 1)) failed"
[ "$bad" -eq 0 ]
