#!/usr/bin/env bash
# Builds the root file system shared by the Notify service images (ingest, fanout-streams, gateway):
# a Java runtime made with jlink from the build's JDK (/opt/java), the shared libraries it links
# (glibc, libstdc++, zlib: read from ldd; plus glibc's compatibility libraries, see below), /etc/passwd and /etc/group with the
# non-root user `notify` (uid/gid 65532) and a writable /tmp. jib puts it under each service's
# layers as an extra directory on a `scratch` base, so no registry is needed to build an image.
#
#   ops/image/build-runtime.sh OUT_DIR JAVA_HOME
#
# OUT_DIR is rebuilt only when the JDK, the module list or this script changed (OUT_DIR.stamp), so the
# three service modules of one build share one jlink run.
set -euo pipefail

out=$1
jdk=$2
modules=java.base,java.logging,java.management,java.naming,java.net.http,java.security.jgss,java.security.sasl,java.sql,java.xml,jdk.crypto.ec,jdk.jfr,jdk.management,jdk.management.jfr,jdk.naming.dns,jdk.unsupported,jdk.zipfs,jdk.jcmd,jdk.attach
stamp="$jdk|$modules|$(sha256sum "$0" | cut -c1-16)"

# One build at a time: modules built in parallel (mvn -T) share this runtime; the second one waits
# here and finds it made.
mkdir -p "$(dirname "$out")"
exec 9>"$out.lock"
flock 9

if [ -f "$out.stamp" ] && [ -d "$out" ] && [ "$(cat "$out.stamp")" = "$stamp" ]; then
  exit 0
fi
if [ ! -d "$jdk/jmods" ]; then
  echo "build-runtime: $jdk has no jmods/: build with a full JDK (Debian: openjdk-17-jdk-headless), or skip images with -Dnotify.image.skip=true" >&2
  exit 1
fi

tmp="$out.tmp.$$"
rm -rf "$tmp"
mkdir -p "$tmp/opt" "$tmp/etc" "$tmp/tmp" "$tmp/lib64"
"$jdk/bin/jlink" --add-modules "$modules" --strip-debug --no-header-files --no-man-pages \
  --output "$tmp/opt/java"

# Every shared library the runtime's binaries load, at the path the loader looks for it.
for f in "$tmp"/opt/java/bin/* "$tmp"/opt/java/lib/*.so "$tmp"/opt/java/lib/server/*.so; do
  ldd "$f" 2>/dev/null || true
done | awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\/.*ld-linux/ {print $1}' > "$tmp.libs"
# The rest of glibc's family, next to libc: native code in the services' dependencies (RocksDB's
# JNI library under Kafka Streams, zstd/snappy/lz4) was linked against a glibc older than 2.34 and
# still names libpthread, libdl and librt; name resolution needs the nss modules.
libc=$(grep '/libc\.so\.6$' "$tmp.libs" | head -1)
for name in libpthread.so.0 libdl.so.2 librt.so.1 libresolv.so.2 libutil.so.1 libnss_files.so.2 libnss_dns.so.2; do
  if [ -e "$(dirname "$libc")/$name" ]; then echo "$(dirname "$libc")/$name" >> "$tmp.libs"; fi
done
sort -u "$tmp.libs" | while read -r lib; do
  case "$lib" in "$tmp"/*) continue ;; esac
  mkdir -p "$tmp$(dirname "$lib")"
  cp -L "$lib" "$tmp$lib"
done

cat > "$tmp/etc/passwd" <<'PASSWD'
root:x:0:0:root:/root:/sbin/nologin
notify:x:65532:65532:notify:/home/notify:/sbin/nologin
PASSWD
cat > "$tmp/etc/group" <<'GROUP'
root:x:0:
notify:x:65532:
GROUP
printf 'hosts: files dns\n' > "$tmp/etc/nsswitch.conf"
mkdir -p "$tmp/home/notify"
chmod 1777 "$tmp/tmp"

rm -f "$tmp.libs"
rm -rf "$out"
mv "$tmp" "$out"
echo "$stamp" > "$out.stamp"
