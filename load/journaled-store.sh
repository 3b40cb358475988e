#!/usr/bin/env bash
# A journaled ext4 (mkfs.ext4's defaults) on a loop device with direct I/O to its image, to measure uploads with the
# store on a file system like a production volume's where the machine's own has no journal (these machines' root ext4
# has none, and without a journal ext4 scans recently deleted inodes on every create: docs/performance.md, "An upload's
# body in 64 KB pieces").
#   load/journaled-store.sh [MOUNT (/mnt/posekit-journaled)] [SIZE (3G)] [IMAGE (/var/tmp/posekit-journaled.img)]
# Needs root (losetup, mount). Prints the directory to use as TMPDIR for load/upload-bench.sh or STORE_PARENT for
# load/upload-throughput.sh; `umount MOUNT` removes it (and its loop device), then delete IMAGE.
set -euo pipefail
MOUNT=${1:-/mnt/posekit-journaled}; SIZE=${2:-3G}; IMAGE=${3:-/var/tmp/posekit-journaled.img}
if ! mountpoint -q "$MOUNT"; then
  truncate -s "$SIZE" "$IMAGE"
  mkfs.ext4 -q -F "$IMAGE"
  mkdir -p "$MOUNT"
  mount -o loop "$IMAGE" "$MOUNT" # a loop device that goes when it is unmounted
  losetup --direct-io=on "$(findmnt -n -o SOURCE "$MOUNT")" # no second page cache for the image
fi
dumpe2fs -h "$(findmnt -n -o SOURCE "$MOUNT")" 2>/dev/null | grep -q has_journal || { echo "$MOUNT has no journal" >&2; exit 1; }
echo "$MOUNT"
