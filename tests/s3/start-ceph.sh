#!/bin/bash
# A throwaway single-node Ceph (1 mon, 1 memstore OSD, radosgw) on 127.0.0.1 without cephx,
# for shale's S3 tests. Usage: start-ceph.sh DIR [RGW_PORT] -> S3 at http://127.0.0.1:RGW_PORT
# (default 7480), keys TESTKEY/TESTSECRET. Stop with stop-ceph.sh DIR. Run under `timeout`:
# with a bad messenger setup the daemons wait for ever (every ms_*_mode must be crc when
# auth is none). Bucket names must be at least 3 characters.
set -euo pipefail
D=${1:-${TMPDIR:-/tmp}/rgw}
PORT=${2:-7480}
MON_PORT=${3:-3300}
rm -rf "$D"; mkdir -p "$D"/{mon,osd,rgw,run,log}
FSID=$(uuidgen); C="$D/ceph.conf"
cat > "$C" <<CONF
[global]
fsid = $FSID
mon host = v2:127.0.0.1:$MON_PORT
public network = 127.0.0.0/8
auth cluster required = none
auth service required = none
auth client required = none
auth supported = none
ms mon client mode = crc
ms mon cluster mode = crc
ms mon service mode = crc
ms client mode = crc
ms cluster mode = crc
ms service mode = crc
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
# a shared machine's disk may be nearly full: the mon would refuse to start below 5 % free
mon data avail crit = 1
mon data avail warn = 2
osd pool default pgp num = 8
mon allow pool size one = true
mon warn on pool no redundancy = false
osd crush chooseleaf type = 0
osd objectstore = memstore
memstore device bytes = 3221225472
run dir = $D/run
admin socket = $D/run/\$name.asok
log file = $D/log/\$name.log
pid file = $D/run/\$name.pid
keyring = /dev/null
ms bind ipv6 = false
mon data = $D/mon
osd data = $D/osd
mon max pg per osd = 1000
[client.rgw.a]
rgw frontends = beast endpoint=127.0.0.1:$PORT
rgw data = $D/rgw
rgw dns name = s3.localhost
CONF
monmaptool --create --fsid "$FSID" --addv a "[v2:127.0.0.1:$MON_PORT]" "$D/monmap" >/dev/null
ceph-mon -c "$C" --mkfs -i a --monmap "$D/monmap"
ceph-mon -c "$C" -i a
OSDUUID=$(uuidgen)
ID=$(ceph -c "$C" osd new "$OSDUUID")
ceph-osd -c "$C" -i "$ID" --mkfs --osd-uuid "$OSDUUID" 2>&1 | grep -v 'warning\|^$' || true
ceph-osd -c "$C" -i "$ID"
radosgw -c "$C" -n client.rgw.a
radosgw-admin -c "$C" user create --uid=test --display-name=test --access-key=TESTKEY --secret=TESTSECRET >/dev/null
for _ in $(seq 120); do curl -s -o /dev/null "http://127.0.0.1:$PORT/" && break; sleep 0.5; done
echo "RGW up at http://127.0.0.1:$PORT (conf $C)"
