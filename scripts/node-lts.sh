# Sourced: node_lts_bin MAJOR prints the bin/ folder of an official Node.js build of that major line,
# taken from the npm registry's node-linux-<arch> package (no other download source is reachable from
# our machines) and cached in CLINIC_NODE_CACHE between runs. The newest release of the line is used;
# when the registry cannot be asked, the newest cached one.
CLINIC_NODE_CACHE=${CLINIC_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/clinic-api/node}

node_lts_bin() {
  local major="$1" arch pkg version dir tmp tarball
  case "$(uname -m)" in
    x86_64) arch=x64 ;;
    aarch64) arch=arm64 ;;
    *) echo "no official Node.js package for $(uname -m)" >&2; return 1 ;;
  esac
  pkg="node-linux-$arch"
  # With a range, npm view prints one "name@version 'version'" line per match, not in semver order.
  version=$(npm view "$pkg@$major" version --silent 2>/dev/null | grep -oE "[0-9]+\.[0-9]+\.[0-9]+'?$" | tr -d "'" | sort -V | tail -1)
  if [ -z "$version" ]; then
    version=$(ls "$CLINIC_NODE_CACHE" 2>/dev/null | grep "^$major\." | sort -V | tail -1)
    [ -n "$version" ] || { echo "Node.js $major: not cached and the registry did not answer" >&2; return 1; }
  fi
  dir="$CLINIC_NODE_CACHE/$version"
  if [ ! -x "$dir/bin/node" ]; then
    mkdir -p "$CLINIC_NODE_CACHE"
    tmp=$(mktemp -d "$CLINIC_NODE_CACHE/.pack.XXXXXX")
    tarball=$(cd "$tmp" && npm pack "$pkg@$version" --silent 2>/dev/null | tail -1)
    tar xzf "$tmp/$tarball" -C "$tmp"
    rm -rf "$dir" && mv "$tmp/package" "$dir" && rm -rf "$tmp"
  fi
  echo "$dir/bin"
}
